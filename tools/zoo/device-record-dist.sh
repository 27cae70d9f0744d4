#!/bin/sh
# device-record-dist.sh — records the zoo's distributed cases on the GPU machine (see tools/zoo/README.md)
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   sh tools/zoo/device-record-dist.sh CARRY OUTDIR NPROC [CASE...]
#
# Run from the repository root. CARRY (made here by tools/zoo/prepare-carry.sh) holds whl/ (Lightning Thunder
# and the pure-Python packages the machine lacks), thunder-main/thunder (Thunder's main branch, for the
# CASE_thunder_main cases) and bundle.tgz (app/thunder-wb, with the per-rank recording, and the shared
# libraries the machine lacks). NPROC: the world sizes, comma separated ("1,2"). CASE: record_dist.py's
# cases (default: every one). Each case and world size runs
#   thunder-wb record --out CAP --save-inputs -- torchrun --standalone --nproc-per-node W tools/zoo/record_dist.py CASE
# through tools/zoo/record_dist_zoo.py, one at a time, each with a time limit (ZOO_DIST_TIMEOUT, default
# 120 s), all of them started within ZOO_DIST_DEADLINE seconds (default 390: later runs are left out, said
# so in zoo.json), so that the whole call ends within the device tool's 10 minutes;
# ZOO_DIST_DEVICE=cpu runs them on the cpu with gloo (a test of the script); ZOO_DIST_TMP (default /tmp)
# is where the wheels, the bundle and the zoo folder are unpacked.
# Writes OUTDIR/zoo-dist.tgz.part-* (the zoo folder, gzipped, in pieces of 15 MB: the device tool brings
# back files of at most 16 MB), OUTDIR/zoo-dist-record.json and OUTDIR/summary.txt (a line per case).
set -u
if [ $# -lt 3 ]; then
  echo "usage: sh tools/zoo/device-record-dist.sh CARRY OUTDIR NPROC [CASE...]" >&2
  exit 2
fi
carry=$1
out=$2
nproc=$3
shift 3
tmp=${ZOO_DIST_TMP:-/tmp}
mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target "$tmp/site" "$carry"/whl/*.whl || exit 9
export PYTHONPATH="$tmp/site"
mkdir -p "$tmp/wb" && tar -xzf "$carry/bundle.tgz" -C "$tmp/wb" || exit 9
export LD_LIBRARY_PATH="$tmp/wb/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export THUNDER_WB_PYTHONDIR="$PWD/python"
nvidia-smi -L
python3 -c "import torch, thunder; print('torch', torch.__version__, 'thunder', thunder.__version__, 'cuda', torch.cuda.is_available(), 'gpus', torch.cuda.device_count())" 2>&1 | grep -v -i warn
rm -rf "$tmp/zoo-dist" "$tmp/zoo-dist.work"
{
  python3 tools/zoo/record_dist_zoo.py --wb "$tmp/wb/app/thunder-wb" --out "$tmp/zoo-dist" --device "${ZOO_DIST_DEVICE:-cuda}" \
    --nproc "$nproc" --thunder-main "$carry/thunder-main" --timeout "${ZOO_DIST_TIMEOUT:-120}" \
    --deadline "${ZOO_DIST_DEADLINE:-390}" "$@"
  echo $? > "$tmp/zoo-dist.rc"
} 2>&1 | tee "$out/summary.txt"
rc=$(cat "$tmp/zoo-dist.rc" 2>/dev/null || echo 9)
tar -C "$tmp/zoo-dist" -czf - . | split -b 15m - "$out/zoo-dist.tgz.part-"
cp "$tmp/zoo-dist/zoo-dist-record.json" "$out/" 2>/dev/null
exit "$rc"
