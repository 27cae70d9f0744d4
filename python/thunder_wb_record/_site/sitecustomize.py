# sitecustomize.py — started by Python at startup when `thunder-wb record` puts this folder on
# PYTHONPATH: installs the recorder's import hook (thunder_wb_record.hook), then runs the
# sitecustomize.py this one shadows (the next one on sys.path), if any.
# SPDX-License-Identifier: GPL-3.0-or-later
import os as _os
import sys as _sys


def _thunder_wb_install():
    if not _os.environ.get("THUNDER_WB_RECORD_DIR"):
        return
    try:
        import thunder_wb_record.hook as hook

        hook.check_environment()
        hook.install()
    except Exception as e:  # never break the program
        print("thunder-wb record: cannot install the recorder: %s: %s" % (type(e).__name__, e), file=_sys.stderr)


def _thunder_wb_chain():
    here = _os.path.realpath(_os.path.dirname(_os.path.abspath(__file__)))
    for p in list(_sys.path):
        try:
            if _os.path.realpath(p or ".") == here:
                continue
            candidate = _os.path.join(p or ".", "sitecustomize.py")
            if _os.path.isfile(candidate):
                import runpy

                runpy.run_path(candidate, run_name="sitecustomize")
                return
        except Exception as e:
            print("thunder-wb record: the shadowed %s failed: %s: %s" % (candidate, type(e).__name__, e),
                  file=_sys.stderr)
            return


_thunder_wb_install()
_thunder_wb_chain()
