#!/usr/bin/env python3
# layout.py — lays out what `thunder-wb record` captured from record_dist.py as CASE/rank<N>/ folders
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   layout.py CAPDIR REFDIR OUTDIR
#
# CAPDIR/<entry>/ holds one captured entry per process (torchrun's ranks write into one --out folder as
# Sequential, Sequential_1, ...); its meta.json names the recording process ("recorder": {"pid"}), and
# REFDIR/<pid>.json (written by record_dist.py) that process's rank and world size. Each entry becomes
# OUTDIR/rank<R>/ with meta.json's "distributed" key added and tensors.safetensors merged with the
# process's reference (REFDIR/<pid>.safetensors: outputs and gradients, and the inputs the recorder could
# not save for FSDP). Until the recorder writes rank folders itself, this is how tests/dist/cases/ was made.
# An entry of a process without REFDIR/<pid>.json (record_bucketing.py) becomes OUTDIR itself, a plain
# case, its tensors merged the same way.
import json
import os
import shutil
import sys

from safetensors.torch import load_file, save_file


def main():
    cap, refs, out = sys.argv[1:4]
    shutil.rmtree(out, ignore_errors=True)
    for entry in sorted(os.listdir(cap)):
        src = os.path.join(cap, entry)
        if not os.path.isfile(os.path.join(src, "meta.json")):
            continue
        with open(os.path.join(src, "meta.json")) as f:
            meta = json.load(f)
        pid = meta["recorder"]["pid"]
        who = None
        if os.path.exists(os.path.join(refs, f"{pid}.json")):
            with open(os.path.join(refs, f"{pid}.json")) as f:
                who = json.load(f)
        # a process record_dist.py did not describe (record_bucketing.py): one plain case, no ranks
        dest = os.path.join(out, f"rank{who['rank']}") if who else out
        shutil.copytree(src, dest)
        tensors_path = os.path.join(dest, "tensors.safetensors")
        tensors = load_file(tensors_path) if os.path.exists(tensors_path) else {}
        tensors.update(load_file(os.path.join(refs, f"{pid}.safetensors")))
        save_file({k: v.contiguous() for k, v in tensors.items()}, tensors_path,
                  metadata={"creator": "tests/dist/layout.py"})
        if who:
            meta["distributed"] = {"world_size": who["world_size"], "rank": who["rank"], "backend": "gloo",
                                   "strategy": who["mode"], "laid_out_by": "tests/dist/layout.py"}
        with open(os.path.join(dest, "meta.json"), "w") as f:
            json.dump(meta, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
