#!/bin/bash
# bench-warm-setup.sh — setup like for like: ours cold and warm against torch.compile's cold and warm first call
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   CASES0="A B" CASES1="C D" tests/bench/bench-warm-setup.sh BUNDLE.tar.xz OUT
#
# Run from the repository root on the GPU machine, in one call. BUNDLE holds app/thunder-wb,
# profiler/thunder-wb-runner and lib/ (tools/gpu-bundle.sh, or a stripped one). Each CASESk is a shard run on
# GPU k at the same time as the others, with its own kernel cache and Inductor cache (fresh for a cold figure:
# a machine kept warm between calls still has the last call's). Per case: `profile CASE --device cuda --iters
# 1 --warmup 0 --allow-tf32`, command to report, with an empty kernel cache (cold) and again (warm); then
# bench-zoo-gpu.py --only-compile-warm for the shard's cases: torch.compile's first call cold in its process,
# then warm in a new process with Inductor's disk caches filled. Prints OUT/oursK.txt and the torch figures
# (OUT/cK/compile-warm.json); DEADLINE (seconds, default 300) is when a shard starts no more torch.compile case.
set -u
root=/tmp/wb-bundle
mkdir -p "$root" "$2"
tar -C "$root" -xJf "$1" || exit 9
out=$2
cudnn=$(python3 -c 'import os, nvidia.cudnn as m; print(os.path.join(list(m.__path__)[0], "lib"))' 2>/dev/null || true)
export LD_LIBRARY_PATH="$root/lib:${cudnn:+$cudnn:}/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export WB_BUILD_ROOT=$root NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
all="${CASES0:-} ${CASES1:-}"
python3 tests/zoo/unpack.py /tmp/z /tmp/z.stamp $(for c in $all; do echo tests/zoo/cases/$c.tar.xz; done) >/dev/null || exit 9
shard() { # K CASE...
  k=$1
  shift
  export CUDA_VISIBLE_DEVICES=$k WB_KERNEL_CACHE_DIR=/tmp/kw$k TORCHINDUCTOR_CACHE_DIR=/tmp/ind$k TRITON_CACHE_DIR=/tmp/tri$k
  for c in "$@"; do
    for pass in cold warm; do
      t0=$(date +%s.%N)
      timeout 200 "$root/app/thunder-wb" --headless profile "/tmp/z/$c" --device cuda --iters 1 --warmup 0 --allow-tf32 \
        --report "/tmp/w$k-$c-$pass.json" >/dev/null 2>"/tmp/w$k-$c-$pass.err"
      rc=$?
      t1=$(date +%s.%N)
      echo "== wb $c $pass rc=$rc wall $(python3 -c "print(round($t1 - $t0, 2))") s" >>"$out/ours$k.txt"
    done
  done
  python3 tests/bench/bench-zoo-gpu.py --app - --zoo /tmp/z --out "$out/c$k" --only-compile-warm --deadline "${DEADLINE:-300}" "$@" \
    >"$out/torch$k.txt" 2>&1
}
[ -n "${CASES0:-}" ] && shard 0 $CASES0 &
[ -n "${CASES1:-}" ] && shard 1 $CASES1 &
wait
cat "$out"/ours*.txt
grep -h "^[a-z_0-9]* {\|not run" "$out"/torch*.txt | cut -c1-300
