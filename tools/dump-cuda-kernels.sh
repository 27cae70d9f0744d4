#!/usr/bin/env bash
# tools/dump-cuda-kernels.sh — every kernel the CUDA code generator emits for the bundled cases, under the
# default options and under each debugging switch, into one folder; and a byte-for-byte comparison of two
# such folders. No GPU is needed: the generator produces CUDA C text (tests/executors/dump-cuda-kernels.c).
#
#   tools/dump-cuda-kernels.sh dump BUILDDIR OUT [TRACES_DIR]   (TRACES_DIR: ../shared/traces)
#   tools/dump-cuda-kernels.sh compare BEFORE AFTER             (exit 1 and the differing files if any)
#
# Use it around a change that must not change the generated code: dump with the old build, dump with the
# new one, compare.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Each setting is a subfolder: "default" (no switch), then one switch at a time.
settings=(
  default
  WB_CUDA_NO_CAT_SELECT=1 WB_CUDA_NO_COLUMN_SPLIT=1 WB_CUDA_NO_CSE=1 WB_CUDA_NO_EPILOGUE=1
  WB_CUDA_NO_HOIST=1 WB_CUDA_NO_MIX=1 WB_CUDA_NO_MIX_DEFER=1 WB_CUDA_NO_PARTIAL_TABLE=1
  WB_CUDA_NO_PREFETCH=1 WB_CUDA_NO_RESCHEDULE=1 WB_CUDA_NO_SIBLINGS=1 WB_CUDA_NO_TABLE=1
  WB_CUDA_NO_VECTOR=1 WB_CUDA_NO_WARP_ROWS=1 WB_CUDA_NO_BF16X2=1 WB_CUDA_MIX_DEFER_ALWAYS=1 WB_CUDA_MIX_SCALAR_COMBINE=1
  WB_CUDA_RESHAPE_LINEAR=1 WB_CUDA_TABLE=always WB_CUDA_TABLE_CACHED=1
  WB_CUDA_COLUMN_BLOCKS_PER_SM=3 WB_CUDA_COLUMN_ROWS=2 WB_CUDA_MIX_BLOCKS_PER_SM=1
)

case "${1:-}" in
  dump)
    build=$2 out=$3 traces=${4:-$here/../shared/traces}
    tool=$build/tests/executors/dump-cuda-kernels
    [ -x "$tool" ] || { echo "no $tool: build first" >&2; exit 2; }
    rm -rf "$out"
    for s in "${settings[@]}"; do
      # a clean environment for the switches: none set but the one of this setting
      unset_args=()
      for v in $(env | grep -o '^WB_CUDA_[A-Z_]*' || true); do unset_args+=(-u "$v"); done
      if [ "$s" = default ]; then
        env "${unset_args[@]}" "$tool" "$traces" "$out/$s" > /dev/null
      else
        env "${unset_args[@]}" "$s" "$tool" "$traces" "$out/$s" > /dev/null
      fi
    done
    echo "$out: $(cat "$out"/*/*.cu | grep -c '__global__') kernels in ${#settings[@]} settings"
    ;;
  compare)
    before=$2 after=$3
    if diff -r -q "$before" "$after"; then
      echo "identical: $(cat "$after"/*/*.cu | grep -c '__global__') kernels, $(find "$after" -name '*.cu' | wc -l) files"
    else
      exit 1
    fi
    ;;
  *)
    sed -n '2,11p' "${BASH_SOURCE[0]}" >&2
    exit 2
    ;;
esac
