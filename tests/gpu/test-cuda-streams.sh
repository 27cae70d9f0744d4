#!/bin/sh
# test-cuda-streams.sh — calls on the runner's second stream (wb-cuda-exec-streams.c; gpu suite)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# gpt2_block's recomputed program (the workbench's last stages: its weight-gradient matmuls are top-level
# calls), 10 timed runs after the checked one, through `run --device cuda`:
#   1. two streams (the default): run must say that the 4 weight-gradient matmuls of a run went to the second
#      stream, and that the last run's outputs and gradients are bit-identical to the checked run's (one
#      stream, every kernel synchronised: the runner compares them); --compare against the cpu executor's
#      results on the same inputs must pass;
#   2. WB_CUDA_STREAMS=1: no streams line, the same comparison.
# The GPU medians of both are printed (not asserted: tests/bench/ measures). Exit 77 (skip) without a GPU.
set -u
app=${WB_BUILD_ROOT:?}/app/thunder-wb
case_dir=${WB_TRACES_DIR:?}/${WB_STREAMS_CASE:-gpt2_block}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export XDG_CACHE_HOME="$out/cache"
[ -d "$case_dir" ] || { echo "skip: no $case_dir"; exit 77; }
# no GPU: skip before the cpu reference run (`executors` says why the GPU runner is not usable)
if "$app" --headless executors | grep -q "^cublas: .*not usable here"; then
  echo "skip: $("$app" --headless executors | grep -o 'not usable here: .*' | head -1)"
  exit 77
fi

k=$("$app" --headless stages "$case_dir" --recompile | awk '/workbench/ && /Delete Last Used/ && ($2 == "forward" || $2 == "computation") { k = $1 } END { print k }')
"$app" --headless run "$case_dir" --recompile --stage "$k" --save-outputs "$out/cpu.safetensors" > "$out/cpu.log" 2>&1 || { tail -5 "$out/cpu.log"; exit 1; }

run() { # NAME [ENV=VALUE...]
  name=$1
  shift
  env "$@" WB_CUDA_ITERS=10 WB_CUDA_WARMUP=2 "$app" --headless run "$case_dir" --recompile --stage "$k" --device cuda \
    --inputs "$out/cpu.safetensors" --compare "$out/cpu.safetensors" > "$out/$name.log" 2>&1
  rc=$?
  grep -E "^(streams|executed|GPU time)|compared|mismatch" "$out/$name.log"
  [ $rc -eq 0 ] || { tail -20 "$out/$name.log"; echo "run $name exited $rc"; exit 1; }
}

run two WB_CUDA_ATTN=deterministic
grep -q "^streams: 2 (4 cuBLASLt matmuls a run on the second stream" "$out/two.log" || { echo "FAIL: no 4 calls on the second stream"; exit 1; }
grep -q "the last run's outputs and gradients are bit-identical to the checked run's" "$out/two.log" || { echo "FAIL: the last run differs from the checked run"; exit 1; }
grep -q "all within tolerance" "$out/two.log" || { echo "FAIL: --compare"; exit 1; }
run one WB_CUDA_ATTN=deterministic WB_CUDA_STREAMS=1
if grep -q "^streams:" "$out/one.log"; then echo "FAIL: WB_CUDA_STREAMS=1 used a second stream"; exit 1; fi
grep -q "all within tolerance" "$out/one.log" || { echo "FAIL: --compare (one stream)"; exit 1; }
echo "ok"
