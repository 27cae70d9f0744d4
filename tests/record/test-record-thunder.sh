#!/bin/sh
# test-record-thunder.sh — `thunder-wb record --profile --save-inputs` of tests/record/llama_tiny.py on the
# cpu with the real PyTorch and Lightning Thunder, then check, stages --recompile, profile --device cpu and
# compare on the session; then inplace_input.py, whose saved input must be the one the call received. Exit 77 (skipped, never passed) when the Python ($WB_RECORD_PYTHON, default
# python3) cannot import torch and thunder.
# SPDX-License-Identifier: GPL-3.0-or-later
set -u
py=${WB_RECORD_PYTHON:-python3}
wb="$WB_BUILD_ROOT/app/thunder-wb"
src="$WB_SOURCE_ROOT"
if ! "$py" -c "import torch, thunder; thunder.jit" >/dev/null 2>&1; then
  echo "SKIP: $py cannot import torch and thunder (set WB_RECORD_PYTHON to a Python that can)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
s="$dir/llama.wbsession"
fail() {
  echo "FAIL: $*"
  exit 1
}
cd "$dir" || exit 1
"$wb" record --session "$s" --out "$dir/cap" --profile --save-inputs --iters 3 --warmup 1 --profiled-iters 2 \
  -- "$py" "$src/tests/record/llama_tiny.py" --device cpu > record.out 2>&1 || { cat record.out; fail "record exited $?"; }
cat record.out
grep -q "TinyLlama (thunder.jit of TinyLlama): prologue 2, forward 7, backward 1, epilogue 1" record.out || fail "summary"
grep -q "stored as run #1" record.out || fail "no run stored"
for f in prologue_00.py forward_06.py backward_00.py epilogue_00.py meta.json tensors.safetensors profile.json; do
  [ -f "$dir/cap/TinyLlama/$f" ] || fail "cap/TinyLlama/$f missing"
done
"$wb" --headless check "$s" || fail "check"
"$wb" --headless stages "$s" --recompile > stages.out || fail "stages --recompile"
grep -q workbench stages.out || fail "no workbench stages"
"$wb" --headless run "$dir/cap/TinyLlama" --inputs "$dir/cap/TinyLlama/tensors.safetensors" > run.out || fail "run --inputs"
"$wb" --headless profile "$s" --device cpu --iters 3 --warmup 1 > profile.out || fail "profile"
"$wb" --headless compare "$s" > compare.out || fail "compare"
head -20 compare.out
grep -q "thunder: TinyLlama (recorded)" compare.out || fail "compare does not show Thunder's run"
grep -q "| torch.nn.functional.linear | torch | cpu |" compare.out || fail "regions not paired by name"
# an input the program writes in place is saved as the call received it (T5's relative buckets)
"$wb" record --out "$dir/inplace" --save-inputs -- "$py" "$src/tests/record/inplace_input.py" > inplace.out 2>&1 ||
  { cat inplace.out; fail "record inplace_input.py exited $?"; }
"$py" - "$dir/inplace/buckets" <<'PY' || fail "inplace_input.py: the saved input is not the one the call received"
import json, struct, sys
d = sys.argv[1]
with open(d + "/tensors.safetensors", "rb") as f:
    n = struct.unpack("<Q", f.read(8))[0]
    header = json.loads(f.read(n))
    data = f.read()
a, b = header["input.b"]["data_offsets"]
values = list(struct.unpack("<4q", data[a:b]))
meta = json.load(open(d + "/meta.json"))
print("input.b", values, "written in place:", meta["tensors"].get("inputs_written_in_place"))
sys.exit(0 if values == [1, 2, 3, 0] and meta["tensors"].get("inputs_written_in_place") == ["input.b"] else 1)
PY
echo "PASS"
