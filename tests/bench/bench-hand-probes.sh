#!/bin/sh
# bench-hand-probes.sh — builds the hand-written probes (bench-hand-probes.cu) with the generated kernels of
# llama_layer's nvrtcFusion13 and nvrtcFusion10 (two kernels with WB_CUDA_NO_MIX_DEFER=1, and the mixed one),
# exported by the built thunder-wb and given host launchers here. Needs nvcc (sm_90); run the binary on the GPU.
# The regions are those of the recomputed program without rematerialization between backward regions
# (WB_NO_BACKWARD_REMAT=1): the hand kernels were written for them (nvrtcFusion10 then also wrote the f32 value
# its reader, nvrtcFusion11, now recomputes).
# SPDX-License-Identifier: GPL-3.0-or-later
#   sh tests/bench/bench-hand-probes.sh [BUILD_DIR] [OUT_DIR]     then OUT_DIR/bench-hand-probes on the GPU machine
set -eu
B=${1:-build}
D=${2:-build-gpu/hb}
T=${WB_TRACES_DIR:-../shared/traces}/llama_layer
W=$B/app/thunder-wb
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$D"
export WB_NO_BACKWARD_REMAT=1
"$W" --headless export "$T" --region nvrtcFusion13 --as cuda -o "$D/gen13.cu"
WB_CUDA_NO_MIX_DEFER=1 "$W" --headless export "$T" --region nvrtcFusion10 --as cuda -o "$D/gen10.cu"
"$W" --headless export "$T" --region nvrtcFusion10 --as cuda -o "$D/gen10n.cu"
# the launchers below pass the arguments in the order these lines name them
want() {
  grep -q "<<<$2>>>($3)" "$1" || { echo "$1: the generated kernel's launch is no longer <<<$2>>>($3): update the launchers in $0" >&2; exit 1; }
}
want "$D/gen13.cu" "4224, 256" "in0, in3, in1, in2, in4, buf0"
want "$D/gen10.cu" "512, 256" "buf2, buf3, in0, in1, in2, in5, in4, buf0, buf4"
want "$D/gen10.cu" "2048, 256" "in0, in1, in3, in5, in4, in2, buf1, buf5, buf6, buf7"
want "$D/gen10n.cu" "264, 256" "in0, in1, in2, in5, in4, in3, buf6, buf5, buf0, buf1, buf2, buf3, buf4, buf7"
k() { grep -o "wb_k$2_[0-9a-f]*" "$1" | head -1; }
us="const unsigned short *"
cat >> "$D/gen13.cu" <<EOT
extern "C" void launch_gen13 (${us}p0, ${us}p3, ${us}p1, ${us}p2, ${us}p4, unsigned short *p5)
{
  $(k "$D/gen13.cu" 0)<<<4224, 256>>> (p0, p3, p1, p2, p4, p5);
}
EOT
cat >> "$D/gen10.cu" <<EOT
extern "C" void launch_gen10 (${us}p0, ${us}p1, ${us}p3, ${us}p5, ${us}p4, const float *p2, float *p7, float *p11, unsigned short *p12, float *p13,
                              float *p6, unsigned short *p10, float *p8, int *p9)
{
  $(k "$D/gen10.cu" 0)<<<512, 256>>> (p8, p9, p0, p1, p2, p5, p4, p6, p10);
  $(k "$D/gen10.cu" 1)<<<2048, 256>>> (p0, p1, p3, p5, p4, p2, p7, p11, p12, p13);
}
EOT
cat >> "$D/gen10n.cu" <<EOT
extern "C" void launch_gen10n (${us}a, ${us}b, ${us}w, ${us}c, ${us}d, const float *rstd, float *rowsum, float *rowout, unsigned short *o0, float *o1,
                               float *colsum, unsigned short *colbf, float *ws, int *cnt)
{
  $(k "$D/gen10n.cu" 0)<<<264, 256>>> (a, b, rstd, c, d, w, cnt, ws, colsum, rowsum, rowout, o0, o1, colbf);
}
EOT
"$NVCC" -arch=sm_90 -O3 -std=c++17 -o "$D/bench-hand-probes" "$(dirname "$0")/bench-hand-probes.cu" "$D/gen13.cu" "$D/gen10.cu" "$D/gen10n.cu"
echo "built $D/bench-hand-probes"
