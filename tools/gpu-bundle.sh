#!/bin/sh
# gpu-bundle.sh — packs what the GPU machine needs to run the gpu suite (docs/ARCHITECTURE.md, "The GPU runner")
# SPDX-License-Identifier: GPL-3.0-or-later
#
# usage: tools/gpu-bundle.sh BUILD_DIR OUT.tar.gz [CASE...]
# The GPU machine has CUDA but no GLib, json-glib, SQLite, OpenBLAS or Graphviz, so the bundle carries the
# headless app, the runner, the gpu tests, every shared library they need that is not part of glibc, gcc's
# runtime or CUDA (libcuda, NVRTC, cuBLASLt and CUPTI are opened with dlopen from the machine's own
# /usr/local/cuda: ldd does not list them, and the pattern below keeps them out anyway), the profile test
# scripts and tests/bench/bench-gpu-overhead.sh, the
# given trace cases (default mlp_small elementwise_chain_small) and a kernel cache pre-filled here by
# the conformance tests' --compile-only passes (NVRTC needs no GPU). tests/gpu/run-on-device.sh unpacks it.
set -eu
build=$(cd "$1" && pwd)
out=$2
shift 2
cases=${*:-mlp_small elementwise_chain_small}
src=$(cd "$(dirname "$0")/.." && pwd)
traces=${WB_TRACES_DIR:-$src/../shared/traces}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage/app" "$stage/profiler" "$stage/tests/gpu" "$stage/tests/bench" "$stage/lib" "$stage/traces" "$stage/kcache"
cp "$build/app/thunder-wb" "$stage/app/"
cp "$build/profiler/thunder-wb-runner" "$stage/profiler/"
for t in test-cuda-conformance test-cuda-conformance-attention test-cuda-conformance-conv test-cuda-runner test-cuda-codegen test-cuda-codegen-pointwise test-cuda-codegen-reduce test-cuda-vector test-app-job; do
  cp "$build/tests/gpu/$t" "$stage/tests/gpu/"
done
# the profile tests and the overhead benchmark are scripts (run from the unpacked bundle's root)
mkdir -p "$stage/tests/bench"
cp "$src/tests/gpu/test-cuda-profile.sh" "$src/tests/gpu/test-cuda-cupti.sh" "$src/tests/gpu/conformance-table.py" "$stage/tests/gpu/"
cp "$src/tests/bench/bench-gpu-overhead.sh" "$stage/tests/bench/"
# --cuda-graphs' test and the GPU benchmark of the workbench against PyTorch (tests/bench/README.md)
cp "$src/tests/gpu/test-cuda-graphs.sh" "$stage/tests/gpu/"
cp "$src/tests/gpu/test-cuda-streams.sh" "$stage/tests/gpu/"
# collectives through NCCL on tests/dist's traces (one and two GPUs)
cp "$src/tests/gpu/test-cuda-nccl.sh" "$src/tests/gpu/compare-ranks.py" "$src/tests/gpu/split-inputs.py" "$src/tests/gpu/safetensors_lite.py" "$stage/tests/gpu/"
if [ -d "$build/tests/dist/cases" ]; then
  mkdir -p "$stage/tests/dist" && cp -r "$build/tests/dist/cases" "$stage/tests/dist/"
fi
cp "$src/tests/bench/bench-gpu.sh" "$src/tests/bench/bench-gpu.py" "$src/tests/bench/bench-gpu-kernels.py" "$src/tests/bench/bench-flash.py" "$src/tests/bench/bench-mix-defer.py" "$stage/tests/bench/"
for f in "$stage"/app/* "$stage"/profiler/* "$stage"/tests/gpu/test-cuda-conformance "$stage"/tests/gpu/test-cuda-conformance-attention "$stage"/tests/gpu/test-cuda-conformance-conv "$stage"/tests/gpu/test-cuda-runner "$stage"/tests/gpu/test-cuda-codegen* "$stage"/tests/gpu/test-cuda-vector; do
  ldd "$f" | awk '/=> \// { print $3 }'
done | sort -u | while read -r lib; do
  case $(basename "$lib") in
    libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libgcc_s.so*|libstdc++.so*|libcuda*|libnvrtc*|libcublas*|libcupti*) ;;
    *) cp -L "$lib" "$stage/lib/" ;;
  esac
done
strip --strip-unneeded "$stage"/lib/*.so* 2>/dev/null || true
for c in $cases; do
  cp -r "$traces/$c" "$stage/traces/"
done
for t in test-cuda-conformance test-cuda-conformance-attention; do
  WB_KERNEL_CACHE_DIR="$stage/kcache" "$build/tests/gpu/$t" --compile-only >/dev/null 2>&1 || true
done
tar -C "$stage" -czf "$out" .
echo "$out: $(du -h "$out" | cut -f1), $(ls "$stage/lib" | wc -l) libraries, $(ls "$stage/kcache" | wc -l) cache files, cases: $cases"
