#!/bin/sh
# bench-gpu.sh — the workbench on the GPU against PyTorch eager and torch.compile (tests/bench/README.md)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# usage: tests/bench/bench-gpu.sh BUNDLE.tar.gz [CASE...]     unpacks a tools/gpu-bundle.sh bundle, then runs
#        BUNDLE_ROOT/tests/bench/bench-gpu.sh [CASE...]       from a bundle already unpacked
# CASE: default gpt2_block llama_layer (bundle them: tools/gpu-bundle.sh BUILD OUT.tar.gz mlp_small
# elementwise_chain_small gpt2_block llama_layer). Runs on the GPU machine in one call: for each case the
# workbench's profile with and without --cuda-graphs and the exported PyTorch script eager and under
# torch.compile (bench-gpu.py), then prints the summary table and the per-region targets. BENCH_ITERS and
# BENCH_WARMUP (default 30 and 5) change the iterations; BENCH_OUT (default /tmp/wb-bench) keeps the
# reports, the exported scripts and bench.json.
set -u
here=$(cd "$(dirname "$0")" && pwd)
case ${1:-} in
  *.tar.gz|*.tgz)
    root=/tmp/wb-bundle
    mkdir -p "$root"
    tar -C "$root" -xzf "$1"
    shift
    ;;
  *) root=$(cd "$here/../.." && pwd) ;;
esac
[ -x "$root/app/thunder-wb" ] || { echo "bench-gpu: no app/thunder-wb under $root (give the bundle)"; exit 2; }
out=${BENCH_OUT:-/tmp/wb-bench}
mkdir -p "$out"
# thunder-wb's library path (bench-gpu.py gives it to the thunder-wb processes only, not to Python and torch):
# the bundle's libraries, the machine's CUDA, and cuDNN from the Python environment when it is there
cudnn=$(python3 -c 'import os, nvidia.cudnn as m; print(os.path.join(list(m.__path__)[0], "lib"))' 2>/dev/null || true)
export WB_LD_LIBRARY_PATH="$root/lib:${cudnn:+$cudnn:}/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export WB_BUILD_ROOT="$root" WB_TRACES_DIR="$root/traces" WB_KERNEL_CACHE_DIR="$root/kcache"
# ceilings measured in this run, not taken from an earlier one's cache
export XDG_CACHE_HOME="$out/cache"
rm -rf "$XDG_CACHE_HOME"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo "nvidia-smi: not available"
exec python3 "$root/tests/bench/bench-gpu.py" --root "$root" --out "$out" --iters "${BENCH_ITERS:-30}" \
  --warmup "${BENCH_WARMUP:-5}" --json "$out/bench.json" "$@"
