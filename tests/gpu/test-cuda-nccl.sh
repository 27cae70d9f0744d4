#!/bin/sh
# test-cuda-nccl.sh — Thunder's collectives through NCCL on one GPU, and on two when the machine has them (gpu suite)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# On tests/dist's real traces (Thunder 0.2.6's DDP and FSDP ZeRO-3 of a small MLP, recorded per rank):
#   1. `run` of DDP's single rank on the GPU (its all-reduces through a 1-rank NCCL communicator) equals the
#      output and gradients Thunder computed when it was recorded (`--compare`);
#   2. with two GPUs, `profile` of the 2-rank DDP and ZeRO-3 cases (one runner per GPU, NCCL between them), each
#      rank given the 1-rank case's batch (each rank of these cases ran a batch of that size: split-inputs.py
#      --whole-batch) and its parameters or shards, gives the 1-rank run's loss and
#      gradients (compare-ranks.py: every rank's for DDP, the ranks' shards joined for ZeRO-3), and its ranks'
#      report has both ranks, aligned, each with collective calls and communication kernels; the ranks' runs
#      are stored in a session as one group (WB_NCCL_KEEP=DIR keeps the sessions and reports there).
#   (and `profile` of one rank of the 2-rank case alone is refused, naming its world);
#   3. collectives are repeated as the rest of the program: `profile` of the 1-rank DDP case captures its
#      step, all-reduces included, as a CUDA graph (the default) and records it as a launch list
#      (--no-cuda-graphs), each replay bit-identical to the checked run; with two GPUs, so does every rank of
#      the 2-rank cases, both ways (the ranks replay as many times as each other and their collectives pair up);
# Exit 77 (skip) without a GPU or without libnccl; with one GPU only part 1 runs, and the output says so.
set -u
app=${WB_BUILD_ROOT:?}/app/thunder-wb
cases=${WB_DIST_CASES:-$WB_BUILD_ROOT/tests/dist/cases}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export XDG_CACHE_HOME="$out/cache"
fail() { echo "FAIL: $*"; exit 1; }

t1="$cases/ddp_ws1/rank0/tensors.safetensors"
"$app" --headless run "$cases/ddp_ws1/rank0" --device cuda --inputs "$t1" --compare "$t1" >"$out/run1.txt" 2>&1
rc=$?
if [ $rc -eq 3 ]; then
  echo "skip: $(tail -n 1 "$out/run1.txt")"
  exit 77
fi
cat "$out/run1.txt"
[ $rc -eq 0 ] || fail "run of ddp_ws1 on the GPU exited $rc"
echo "ok 1-rank DDP on the GPU matches Thunder's recorded output and gradients"
"$app" --headless profile "$cases/ddp_ws2/rank1" --device cuda --iters 2 --warmup 1 >"$out/alone.txt" 2>&1 &&
  fail "rank 1 of a world of 2 profiled alone"
grep -q "rank 1 of a world of 2" "$out/alone.txt" || { cat "$out/alone.txt"; fail "rank 1 alone: no clear error"; }
echo "ok one rank of a world of 2 is refused alone, naming its world"

# REPORT... : each report's run replayed a CUDA graph (graphs) or a launch list (list), bit-identical
check_replayed() {
  how=$1
  shift
  python3 - "$how" "$@" <<'PY'
import json, sys
how = sys.argv[1]
for path in sys.argv[2:]:
    r = json.load(open(path))
    lead = "CUDA graphs:" if how == "graphs" else "launch list (no CUDA graph):"
    note = [n for n in r["notes"] if n.startswith(lead)]
    assert note, (path, r["notes"])
    assert r["run"]["cuda_graphs"] is (how == "graphs") and r["run"]["launch_list"] is (how == "list"), (path, r["run"])
    assert "bit-identical" in note[0], (path, note[0])
    assert r["iteration"]["count"] == 5, (path, r["iteration"])
    print("ok %s: %s" % (path.rsplit("/", 1)[-1], note[0][:160]))
PY
}
for how in graphs list; do
  flag=
  [ $how = list ] && flag=--no-cuda-graphs
  "$app" --headless profile "$cases/ddp_ws1" --device cuda --iters 5 --warmup 2 $flag --report "$out/ddp-w1-$how.json" \
    >"$out/ddp-w1-$how.txt" 2>&1 || { cat "$out/ddp-w1-$how.txt"; fail "profile of ddp_ws1 ($how)"; }
  check_replayed $how "$out/ddp-w1-$how.json" || fail "1-rank DDP: its collectives were not replayed ($how)"
done
echo "ok the 1-rank DDP step, all-reduces included, replays as a CUDA graph and as a launch list"

ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ "$ngpu" -lt 2 ]; then
  echo "# $ngpu GPU: the 2-rank runs need 2 (nothing more to test here)"
  exit 0
fi
for m in ddp zero3; do
  mode=ddp
  [ $m = zero3 ] && mode=fsdp
  python3 "$here/split-inputs.py" --mode $mode --world 2 --whole-batch "$cases/${m}_ws1/rank0/tensors.safetensors" "$out/in-$m" >/dev/null ||
    fail "split-inputs.py $m"
  "$app" --headless profile "$cases/${m}_ws1" --device cuda --iters 5 --warmup 1 --save-outputs "$out/$m-w1.safetensors" \
    >"$out/$m-w1.txt" 2>&1 || { cat "$out/$m-w1.txt"; fail "profile of ${m}_ws1"; }
  "$app" --headless profile "$cases/${m}_ws2" --iters 5 --warmup 1 --inputs "$out/in-$m/inputs.safetensors" \
    --save-outputs "$out/$m-w2.safetensors" --report "$out/$m-w2.json" --session "$out/$m-w2.wbsession" >"$out/$m-w2.txt" 2>&1 ||
    { cat "$out/$m-w2.txt"; fail "profile of ${m}_ws2 on 2 GPUs"; }
  python3 "$here/compare-ranks.py" --mode $mode "$out/$m-w1.safetensors" "$out/$m-w2.rank0.safetensors" "$out/$m-w2.rank1.safetensors" ||
    fail "$m: the 2-rank run differs from the 1-rank run"
  python3 - "$out/$m-w2.json" <<'PY' || fail "$m: the ranks' report"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"] == "thunder-wb/ranks-report", r["schema"]
assert r["world_size"] == 2 and [k["rank"] for k in r["ranks"]] == [0, 1], r["ranks"]
assert r["aligned"], "the ranks' clocks are not aligned"
for k in r["ranks"]:
    assert k["status"] == "ok" and k["collectives"] > 0 and k["comm_kernels"] > 0, k
    assert k["comm_ms"] > 0 and k["exposed_comm_ms"] <= k["comm_ms"] + 1e-9, k
    assert k["peer_wait_ms"] is not None and 0 <= k["peer_wait_ms"] <= k["comm_ms"] + 1e-9, k
print("ok ranks report: " + ", ".join("rank %d step %.3f ms, comm %.3f ms (waiting for peers %.3f), exposed %.3f ms" % (k["rank"], k["step_ms"], k["comm_ms"], k["peer_wait_ms"], k["exposed_comm_ms"]) for k in r["ranks"]))
PY
  grep -q "stored the 2 ranks' runs" "$out/$m-w2.txt" || fail "$m: the ranks' runs were not stored in the session"
  check_replayed graphs "$out/$m-w2.rank0.json" "$out/$m-w2.rank1.json" || fail "$m: the ranks' steps were not replayed as CUDA graphs"
  "$app" --headless profile "$cases/${m}_ws2" --iters 5 --warmup 1 --no-cuda-graphs --inputs "$out/in-$m/inputs.safetensors" \
    --report "$out/$m-w2l.json" >"$out/$m-w2l.txt" 2>&1 || { cat "$out/$m-w2l.txt"; fail "profile of ${m}_ws2 with launch lists"; }
  check_replayed list "$out/$m-w2l.rank0.json" "$out/$m-w2l.rank1.json" || fail "$m: the ranks' steps were not replayed as launch lists"
  [ -n "${WB_NCCL_KEEP:-}" ] && cp "$out/$m-w2.wbsession" "$out/$m-w2.json" "$WB_NCCL_KEEP/"
  echo "ok 2-rank $m on 2 GPUs matches the 1-rank run"
done
