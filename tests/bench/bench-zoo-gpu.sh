#!/bin/sh
# bench-zoo-gpu.sh — the workbench over the zoo on the GPU against the real models (tests/bench/README.md)
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   tests/bench/bench-zoo-gpu.sh BUNDLE.tar.gz ZOO_DIR [bench-zoo-gpu.py options and CASE...]
#
# BUNDLE: a .tar.gz holding app/thunder-wb, profiler/thunder-wb-runner and lib/ (the libraries the GPU
# machine lacks), as tools/gpu-bundle.sh makes it (that one also holds the gpu tests; the three stripped
# are 17 MB); ZOO_DIR: the zoo's cases unpacked there from tests/zoo/cases (the whole unpacked zoo is too
# large to carry). Run from the repository root on the GPU machine, in one call: prints the GPU coverage
# summary and the per-case table with its geometric means.
set -u
root=/tmp/wb-bundle
mkdir -p "$root"
tar -C "$root" -xzf "$1" || exit 9
zoo=$2
shift 2
cudnn=$(python3 -c 'import os, nvidia.cudnn as m; print(os.path.join(list(m.__path__)[0], "lib"))' 2>/dev/null || true)
export LD_LIBRARY_PATH="$root/lib:${cudnn:+$cudnn:}/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export WB_BUILD_ROOT="$root" WB_KERNEL_CACHE_DIR="$root/kcache"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
exec python3 tests/bench/bench-zoo-gpu.py --app "$root/app/thunder-wb" --zoo "$zoo" "$@"
