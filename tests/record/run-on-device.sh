#!/bin/sh
# run-on-device.sh — `record --profile` of tests/record/llama_tiny.py on the GPU machine, then check,
# stages --recompile, profile --device cpu and compare on the session it made (issue 9)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Prepared here (see docs/recording.md, "On the GPU machine"):
#   build-rec/bundle.tgz   app/thunder-wb and bundle/lib/ (the .so files the machine lacks: GLib, json-glib,
#                          SQLite, OpenBLAS, ...), made with `tar -czf bundle.tgz bundle/lib app/thunder-wb`
#   build-rec/wheels/      lightning-thunder and its pure-Python needs missing there (looseversion, optree, dill)
# Run there from the repository root: sh tests/record/run-on-device.sh   (writes into $OUT, default /tmp/out)
# Environment: LLAMA_ARGS (default "--executors sdpa,torchcompile"), SKIP_PIP=1 to use what is installed.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-/tmp/out}
build=${WB_RECORD_BUILD:-$here/build-rec}
mkdir -p "$out"
work=$(mktemp -d)
tar -xzf "$build/bundle.tgz" -C "$work" || exit 9
export LD_LIBRARY_PATH="$work/bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -z "${SKIP_PIP:-}" ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site "$build"/wheels/*.whl || exit 9
  export PYTHONPATH="/tmp/site${PYTHONPATH:+:$PYTHONPATH}"
fi
export THUNDER_WB_PYTHONDIR="$here/python" PYTHONUNBUFFERED=1
W="$work/app/thunder-wb"
S="$out/llama.wbsession"
step() {
  echo "== $*"
  "$@"
  echo "== exit $?"
}
nvidia-smi -L 2>/dev/null
python3 -c "import torch, thunder; print('torch', torch.__version__, 'thunder', thunder.__version__, 'cuda', torch.cuda.is_available())" 2>&1 | grep -v -i warn
cd "$work" || exit 9
step "$W" record --session "$S" --out "$work/cap" --profile --save-inputs -- python3 "$here/tests/record/llama_tiny.py" ${LLAMA_ARGS---executors sdpa,torchcompile}
step "$W" --headless check "$S"
step "$W" --headless stages "$S" --recompile
step "$W" --headless profile "$S" --device cpu --iters 10 --warmup 2 --report "$out/profile-cpu.md"
step "$W" --headless sessions "$S"
step "$W" --headless compare "$S" > "$out/compare.md"
cat "$out/compare.md"
tar -czf "$out/capture.tgz" -C "$work" cap
rm -rf "$work"
