# python3 -m thunder_wb_record --out DIR [--save-inputs] [--profile] (script.py | -m module) [ARGS...]
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import os
import runpy
import sys


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m thunder_wb_record",
                                description="Run a Python program and capture the traces of every "
                                            "thunder.jit call into DIR (import it with thunder-wb).")
    p.add_argument("--out", required=True, metavar="DIR", help="capture directory (created)")
    p.add_argument("--save-inputs", action="store_true", help="write tensors.safetensors per case")
    p.add_argument("--profile", action="store_true", help="profile each case under torch.profiler")
    p.add_argument("-m", dest="module", metavar="MODULE", help="run a module as a script")
    p.add_argument("script", nargs="?", help="the program")
    p.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args(argv)
    if (a.module is None) == (a.script is None):
        p.error("give a script or -m MODULE")
    from . import install

    install(os.path.abspath(a.out), a.save_inputs, a.profile)
    if a.module is not None:
        sys.argv = [a.module] + ([a.script] if a.script else []) + a.args
        runpy.run_module(a.module, run_name="__main__", alter_sys=True)
    else:
        sys.argv = [a.script] + a.args
        sys.path.insert(0, os.path.dirname(os.path.abspath(a.script)))
        runpy.run_path(a.script, run_name="__main__")


if __name__ == "__main__":
    main()
