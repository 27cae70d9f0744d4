#!/bin/sh
# device-record.sh — records the zoo on the GPU machine (see tools/zoo/README.md)
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   sh tools/zoo/device-record.sh CARRY OUTDIR [record_zoo.py options and CASE...]
#
# Run from the repository root. CARRY (made here by tools/zoo/prepare-carry.sh) holds whl/ (Lightning Thunder
# and the pure-Python packages the machine lacks), thunder-main/thunder (Thunder's main branch, for the cases
# that name it) and bundle.tgz (app/thunder-wb and the shared libraries the machine lacks). Writes
# OUTDIR/zoo.tgz.part-* (the zoo folder, gzipped, in pieces of 15 MB: the device tool brings back files of at most
# 16 MB) and OUTDIR/zoo-record.json.
set -u
carry=$1
out=$2
shift 2
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site "$carry"/whl/*.whl || exit 9
export PYTHONPATH=/tmp/site
mkdir -p /tmp/wb && tar -xzf "$carry/bundle.tgz" -C /tmp/wb || exit 9
export LD_LIBRARY_PATH="/tmp/wb/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export THUNDER_WB_PYTHONDIR="$PWD/python"
nvidia-smi -L
python3 -c "import torch, thunder; print('torch', torch.__version__, 'thunder', thunder.__version__, 'cuda', torch.cuda.is_available())" 2>&1 | grep -v -i warn
python3 tools/zoo/record_zoo.py --wb /tmp/wb/app/thunder-wb --out /tmp/zoo --device cuda \
  --thunder-main "$carry/thunder-main" "$@"
rc=$?
mkdir -p "$out"
tar -C /tmp/zoo -czf - . | split -b 15m - "$out/zoo.tgz.part-"
cp /tmp/zoo/zoo-record.json "$out/" 2>/dev/null
exit $rc
