#!/bin/sh
# bench-gpu-overhead.sh — what profiling costs on the GPU: CUPTI tracing vs CUDA events vs no profiling
# SPDX-License-Identifier: GPL-3.0-or-later
#
# usage: tests/bench/bench-gpu-overhead.sh [CASE...]      (default: gpt2_block llama_layer)
# env:   WB_BUILD_ROOT (the build folder or an unpacked gpu bundle), WB_TRACES_DIR, ITERS (default 20)
#
# Per case (its default stage: forward + backward), runs of ITERS timed iterations on one GPU:
#   unprofiled      `run --device cuda` (WB_CUDA_ITERS): CUDA events at each run's start and end only
#   cupti           `profile --device cuda`: the timed iterations with CUDA events around iterations and
#                   regions and CUPTI paused, then as many traced iterations (CUPTI's kernel, memcpy, memset,
#                   API and external-correlation records) for the kernel records; "traced GPU ms" is theirs
#   cupti-callbacks the same with WB_CUPTI_CORRELATION=callbacks (the callback API instead of API records)
#   events          WB_PROFILE_CUPTI=0 (no CUPTI; CUDA events around every kernel launch, in the timed
#                   iterations themselves)
#   graphs          --cuda-graphs for both (unprofiled: WB_CUDA_GRAPHS=1), CUPTI as in "cupti"
# and prints a Markdown table. The time compared is the GPU time of an iteration, from CUDA events on the
# run's stream at its start and end, in every mode alike (median of ITERS): ratio = profiled / unprofiled.
# "wall" is the host's time per timed run, synchronised, which for a profiled run also holds the profiler's
# own work after the iteration (reading events, flushing CUPTI's buffers): shown, not compared.
# The unprofiled run is measured twice, before and after the profiled ones; "noise" is their difference.
# Compare figures only within one table (one machine, one run). Exit 77 without a GPU.
set -u
app=${WB_BUILD_ROOT:?}/app/thunder-wb
traces=${WB_TRACES_DIR:?}
iters=${ITERS:-20}
cases=${*:-gpt2_block llama_layer}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export XDG_CACHE_HOME="$out/cache"

median_of () { sed -n "s/$1/\\1/p" "$2" | head -1; }

echo "| case | mode | unprofiled GPU ms | profiled GPU ms | ratio | noise | traced GPU ms | unprofiled wall ms | profiled wall ms | attributed | dropped |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
unprofiled () { # $1 case dir, $2 log, $3 1 for CUDA graphs -> GPU median
  WB_CUDA_GRAPHS=${3:-0} WB_CUDA_WARMUP=3 WB_CUDA_ITERS=$iters "$app" --headless run "$1" --device cuda >"$2" 2>&1
  rc=$?
  if [ $rc -eq 3 ] && grep -q "CUDA is not available\|no GPU\|no CUDA" "$2"; then
    echo "skip: $(tail -1 "$2")" >&2
    exit 77
  fi
  median_of '^GPU time: median \([0-9.]*\) ms.*' "$2"
}
for c in $cases; do
  dir=$traces/$c
  [ -d "$dir" ] || { echo "| $c | (not found: $dir) |"; continue; }
  for g in 0 1; do
    base=$(unprofiled "$dir" "$out/run1.log" $g) || exit 77
    [ -n "$base" ] || { tail -5 "$out/run1.log"; echo "| $c | run failed |"; continue; }
    bwall=$(median_of '^time: median \([0-9.]*\) ms.*' "$out/run1.log")
    rows=""
    if [ $g = 1 ]; then modes=graphs; else modes="cupti cupti-callbacks events"; fi
    for mode in $modes; do
      flags=--no-cuda-graphs
      case $mode in
        cupti) env="WB_PROFILE_CUPTI=1 WB_CUPTI_CORRELATION=records" ;;
        cupti-callbacks) env="WB_PROFILE_CUPTI=1 WB_CUPTI_CORRELATION=callbacks" ;;
        events) env="WB_PROFILE_CUPTI=0" ;;
        graphs) env="WB_PROFILE_CUPTI=1 WB_CUPTI_CORRELATION=records"; flags=--cuda-graphs ;;
      esac
      env $env "$app" --headless profile "$dir" --device cuda --iters "$iters" --warmup 3 $flags \
        --report "$out/$c-$mode.json" >/dev/null 2>"$out/$c-$mode.err"
      rc=$?
      wall=$(median_of '^profile: wall time per timed run.*median \([0-9.]*\) ms.*' "$out/$c-$mode.err")
      traced=$(median_of '.*traced iterations after the timed ones: median \([0-9.]*\) ms.*' "$out/$c-$mode.err")
      if [ $rc -ne 0 ] || [ -z "$wall" ]; then
        tail -3 "$out/$c-$mode.err"
        rows="$rows| $c | $mode: failed ($rc) |
"
        continue
      fi
      rows="$rows$(python3 - "$out/$c-$mode.json" "$c" "$mode" "$base" "$bwall" "$wall" "${traced:--}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
case, mode, base, bwall, wall, traced = sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5], float(sys.argv[6]), sys.argv[7]
a = d.get("attribution") or {}
share = "%.1f%%" % (100 * a["kernel_ms_attributed"] / a["kernel_ms_total"]) if a.get("kernel_ms_total") else "-"
gpu = d["iteration"]["median_ms"]
print("| %s | %s | %.3f | %.3f | %.3f | NOISE | %s | %s | %.3f | %s | %d |" % (case, mode, base, gpu, gpu / base if base > 0 else 0,
      traced, bwall, wall, share, d["run"]["dropped_records"]))
PY
)
"
    done
    base2=$(unprofiled "$dir" "$out/run2.log" $g) || exit 77
    noise=$(python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2] or 0); print('%.1f%%' % (100*abs(a-b)/a) if b else '-')" "$base" "$base2")
    printf '%s' "$rows" | sed "s/NOISE/$noise/"
  done
done
