# thunder_wb_record — captures the traces of a live Lightning Thunder program for thunder-wb
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Shipped with thunder-wb and installed under $datadir/thunder-wb/python/ (see docs/recording.md).
# `thunder-wb record -- COMMAND...` puts that folder and its _site/ (a sitecustomize.py) on PYTHONPATH
# and sets THUNDER_WB_RECORD_DIR; every Python process of COMMAND then installs the import hook
# (hook.py) that patches thunder.jit when the program imports Thunder (recorder.py). By hand:
#
#     python3 -m thunder_wb_record --out DIR [--save-inputs] [--profile] script.py [ARGS...]
#
# Pure Python; needs nothing but PyTorch and Thunder in the program, and only the standard library to
# be imported (safetensors.py and layout.py are usable without torch).

__version__ = "0.1.0"


def install(capture_dir=None, save_inputs=None, profile=None):
    """Starts recording in this process into @capture_dir (default: $THUNDER_WB_RECORD_DIR)."""
    import os

    from . import hook, recorder, settings

    s = settings.Settings(capture_dir, save_inputs, profile)
    if not s.enabled:
        raise ValueError("no capture directory: pass one or set " + settings.ENV_DIR)
    os.environ.update(s.export())
    os.makedirs(s.capture_dir, exist_ok=True)
    recorder._recorder = recorder.Recorder(s)
    return hook.install()
