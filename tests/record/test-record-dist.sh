#!/bin/sh
# test-record-dist.sh — `thunder-wb record --save-inputs` of a 2-rank Thunder DDP program started with torchrun
# (tests/record/dist_program.py, gloo on the cpu, the real PyTorch and Lightning Thunder): each rank's case
# folder is CAP/Sequential/rank<R>/ with its traces, stages/, tensors.safetensors and a meta.json that says
# "distributed" (world size 2, its rank, gloo, ddp); record.json lists both ranks; the summary has a line per
# rank. Then a 1-rank torchrun (rank0/ only) and FSDP ZeRO-3 (sharding_strategy ZERO3). Exit 77 (skipped,
# never passed) when the Python ($WB_RECORD_PYTHON, default python3) cannot import torch and thunder or has
# no torch.distributed with gloo.
# SPDX-License-Identifier: GPL-3.0-or-later
set -u
py=${WB_RECORD_PYTHON:-python3}
wb="$WB_BUILD_ROOT/app/thunder-wb"
src="$WB_SOURCE_ROOT"
if ! "$py" -c "import torch, thunder, torch.distributed as d; thunder.jit; assert d.is_gloo_available()" >/dev/null 2>&1; then
  echo "SKIP: $py cannot import torch and thunder with torch.distributed's gloo (set WB_RECORD_PYTHON to a Python that can)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
cd "$dir" || exit 1
export OMP_NUM_THREADS=1
record() { # record OUT NPROC MODE
  "$wb" record --out "$dir/$1" --save-inputs --python "$py" -- "$py" -m torch.distributed.run --standalone \
    --nproc-per-node "$2" "$src/tests/record/dist_program.py" "$3" > "$1.out" 2>&1 || { cat "$1.out"; fail "record $1 exited $?"; }
  grep -v -i "warn" "$1.out"
}
# meta RANKDIR KEY...: prints meta.json's "distributed" members
meta() {
  "$py" -c 'import json, sys
d = json.load(open(sys.argv[1] + "/meta.json"))["distributed"]
print(" ".join(str(d.get(k)) for k in sys.argv[2:]))' "$@"
}

record ddp 2 ddp
for r in 0 1; do
  grep -q "record: rank $r of 2 (gloo): captured 1 compiled entry: Sequential/rank$r" ddp.out || fail "no summary line for rank $r"
  grep -q "Sequential/rank$r (thunder.jit of Sequential, rank $r): prologue" ddp.out || fail "rank $r not imported"
  for f in prologue_00.py forward_00.py backward_00.py meta.json tensors.safetensors; do
    [ -f "ddp/Sequential/rank$r/$f" ] || fail "ddp/Sequential/rank$r/$f missing"
  done
  ls "ddp/Sequential/rank$r/stages/"*_split_backward.py > /dev/null 2>&1 || fail "rank $r: no stages/"
  [ "$(meta "ddp/Sequential/rank$r" world_size rank local_rank backend transform sharding_strategy)" = "2 $r $r gloo ddp None" ] ||
    fail "rank $r meta.json distributed: $(meta "ddp/Sequential/rank$r" world_size rank local_rank backend transform sharding_strategy)"
  grep -q "all_reduce" "ddp/Sequential/rank$r/backward_00.py" || fail "rank $r: no all_reduce in the backward trace"
  "$wb" --headless check "ddp/Sequential/rank$r" > /dev/null 2>&1 || fail "check of rank $r's folder"
done
{ [ -f ddp/record-rank0.json ] && [ -f ddp/record-rank1.json ]; } || fail "no record-rank<R>.json"
"$py" -c 'import json, sys
m = json.load(open(sys.argv[1]))
assert m["distributed"] == {"world_size": 2, "ranks": [0, 1]}, m["distributed"]
assert [c["dir"] for c in m["cases"]] == ["Sequential/rank0", "Sequential/rank1"], m["cases"]
assert [r["backend"] for r in m["ranks"]] == ["gloo", "gloo"], m["ranks"]' ddp/record.json || fail "record.json"
[ "$(grep -c all_reduce ddp/Sequential/rank0/backward_00.py)" = "$(grep -c all_reduce ddp/Sequential/rank1/backward_00.py)" ] ||
  fail "the ranks' backward traces do not reduce the same gradients"

record one 1 ddp
{ [ -d one/Sequential/rank0 ] && [ ! -e one/Sequential/rank1 ]; } || fail "a 1-rank torchrun is not one/Sequential/rank0/"
[ "$(meta one/Sequential/rank0 world_size rank launcher)" = "1 0 torchrun" ] || fail "1-rank meta.json"

record zero3 2 zero3
for r in 0 1; do
  [ "$(meta "zero3/Sequential/rank$r" world_size rank transform sharding_strategy)" = "2 $r fsdp ZERO3" ] ||
    fail "zero3 rank $r meta.json: $(meta "zero3/Sequential/rank$r" world_size rank transform sharding_strategy)"
  # Thunder's FSDP shards the parameters (the original module's are left on the meta device): the rank's
  # shard of 0.weight (32 x 16) is saved, 16 x 16
  "$py" -c 'import json, struct, sys
f = open(sys.argv[1], "rb")
h = json.loads(f.read(struct.unpack("<Q", f.read(8))[0]))
assert h["param.0.weight"]["shape"] == [16, 16], h.get("param.0.weight")
assert h["input.input"]["shape"] == [2, 16], h.get("input.input")' "zero3/Sequential/rank$r/tensors.safetensors" ||
    fail "zero3 rank $r: tensors.safetensors lacks the rank's parameter shard"
  cat "zero3/Sequential/rank$r/"forward_*.py "zero3/Sequential/rank$r/"backward_*.py | grep -q all_gather ||
    fail "zero3 rank $r: no all_gather"
done
echo "PASS"
