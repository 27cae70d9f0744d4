#!/usr/bin/env python3
# unpack.py — unpacks the zoo's cases (tests/zoo/cases/CASE.tar.xz) into a folder of the build tree
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   unpack.py OUTDIR STAMP CASE.tar.xz...
#
# OUTDIR is emptied first, so a case removed from the repository disappears from the build tree too. Each
# archive holds one folder, CASE/, laid out as tools/zoo/README.md says; members that would land outside
# OUTDIR (absolute paths, '..', links) are refused. STAMP lists the cases unpacked, one a line.
import os
import shutil
import sys
import tarfile


def main():
    out, stamp, archives = sys.argv[1], sys.argv[2], sys.argv[3:]
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    names = []
    root = os.path.realpath(out)
    for a in sorted(archives):
        case = os.path.basename(a)[: -len(".tar.xz")]
        with tarfile.open(a, "r:xz") as tf:
            for m in tf.getmembers():
                dest = os.path.realpath(os.path.join(out, m.name))
                if not (m.isfile() or m.isdir()) or not dest.startswith(root + os.sep) \
                        or m.name.split("/")[0] != case:
                    print(f"unpack.py: {a}: refusing member {m.name!r}", file=sys.stderr)
                    return 1
            tf.extractall(out)
        names.append(case)
    with open(stamp, "w", encoding="utf-8") as f:
        f.write("".join(n + "\n" for n in names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
