# settings.py — the recorder's settings, read from the environment `thunder-wb record` sets
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   THUNDER_WB_RECORD_DIR          the capture directory; recording is off when unset or empty
#   THUNDER_WB_RECORD_SAVE_INPUTS  1: write tensors.safetensors (inputs, parameters, buffers) per case
#   THUNDER_WB_RECORD_PROFILE      1: profile each captured case under torch.profiler (profile.py)
#   THUNDER_WB_RECORD_WARMUP       untimed iterations before the timed ones (default 3)
#   THUNDER_WB_RECORD_ITERS        timed iterations, wall time each (default 20)
#   THUNDER_WB_RECORD_PROFILED_ITERS  iterations run under torch.profiler for the kernel times (default 5)
#   THUNDER_WB_RECORD_STAGES       0: do not capture the hidden stages (stages/)
#   THUNDER_WB_RECORD_MAX_CASES    at most this many cases per process (default 32); later ones are skipped
#   THUNDER_WB_RECORD_QUIET        1: no "thunder-wb record: captured ..." lines on stderr

import os

ENV_DIR = "THUNDER_WB_RECORD_DIR"


def _int(name, default, minimum):
    try:
        v = int(os.environ.get(name, "").strip() or default)
    except ValueError:
        v = default
    return max(minimum, v)


def _flag(name, default=False):
    v = os.environ.get(name)
    if v is None or v.strip() == "":
        return default
    return v.strip().lower() not in ("0", "no", "false", "off")


class Settings:
    def __init__(self, capture_dir=None, save_inputs=None, profile=None):
        self.capture_dir = capture_dir if capture_dir is not None else os.environ.get(ENV_DIR, "")
        self.save_inputs = _flag("THUNDER_WB_RECORD_SAVE_INPUTS") if save_inputs is None else save_inputs
        self.profile = _flag("THUNDER_WB_RECORD_PROFILE") if profile is None else profile
        self.warmup = _int("THUNDER_WB_RECORD_WARMUP", 3, 0)
        self.iters = _int("THUNDER_WB_RECORD_ITERS", 20, 1)
        self.profiled_iters = _int("THUNDER_WB_RECORD_PROFILED_ITERS", 5, 1)
        self.stages = _flag("THUNDER_WB_RECORD_STAGES", True)
        self.max_cases = _int("THUNDER_WB_RECORD_MAX_CASES", 32, 1)
        self.quiet = _flag("THUNDER_WB_RECORD_QUIET")

    @property
    def enabled(self):
        return bool(self.capture_dir)

    def export(self):
        """The environment variables that reproduce these settings (for the -m entry point)."""
        return {
            ENV_DIR: self.capture_dir,
            "THUNDER_WB_RECORD_SAVE_INPUTS": "1" if self.save_inputs else "0",
            "THUNDER_WB_RECORD_PROFILE": "1" if self.profile else "0",
        }
