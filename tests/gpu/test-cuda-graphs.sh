#!/bin/sh
# test-cuda-graphs.sh — CUDA graphs in `profile --device cuda` (the default) and the launch list without them
# (gpu suite)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# mlp_small (forward + backward) through the GPU runner, 20 timed iterations each:
#   1. call by call through the interpreter (--no-cuda-graphs, WB_LAUNCH_LIST=0);
#   2. as by default (graphs): the run must say the graph was used (run.cuda_graphs, the note), the last replay's
#      outputs and gradients must equal the checked run's (the runner compares them: bit-identical, or at
#      most 1e-5 apart), region times + gap must still add up to each iteration, and the iteration median
#      must not be above run 1's by more than the noise (the larger interquartile range of the two);
#   3. as by default, with TorchCompile0 on the cpu executor (a cpu fallback: download, host work,
#      upload): the capture must fail cleanly, the run must still time its 20 iterations without a graph
#      (run.cuda_graphs false) and the note must name the region and the op;
#   4. --no-cuda-graphs: a flat launch list (the note), its last replay bit-identical to the checked run, region
#      times + gap adding up, the median not above run 1's by more than the noise; with the cpu fallback of 3
#      the list is refused as cleanly, naming the region and the op;
#   the report's "runner setup" line names the runner's start and the graph's capture, each with its ms;
#   5. when the zoo is unpacked, bart's first subgraph, whose program writes numbers into slices of a tensor
#      (prims.copy_with_setitem with a number: a small host value on the device) must be captured;
#   6. and t5's second subgraph, which adds into an input in place, must give every replay and recording run the
#      input as sent: no index out of range in the note of either.
# Exit 77 (skip) without a GPU.
set -u
app=${WB_BUILD_ROOT:?}/app/thunder-wb
case_dir=${WB_TRACES_DIR:?}/${WB_GRAPHS_CASE:-mlp_small}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export XDG_CACHE_HOME="$out/cache"

profile() { # NAME ARGS... (PENV: VAR=VALUE for the command)
  name=$1
  shift
  env ${PENV:-} "$app" --headless profile "$case_dir" --device cuda --iters 20 --warmup 3 --report "$out/$name.json" "$@" 2>"$out/$name.err"
  rc=$?
  if [ $rc -eq 3 ] && [ "$name" = plain ]; then
    echo "skip: $(cat "$out/$name.err")"
    exit 77
  fi
  cat "$out/$name.err" >&2
  [ $rc -eq 0 ] || { echo "profile $name exited $rc"; exit 1; }
}

PENV=WB_LAUNCH_LIST=0
profile plain --no-cuda-graphs
PENV=
profile graphs
profile fallback --executors TorchCompile0=cpu
profile list --no-cuda-graphs
profile listfb --no-cuda-graphs --executors TorchCompile0=cpu

python3 - "$out" <<'PY'
import json, re, statistics, sys
out = sys.argv[1]
plain, graphs, fb, lst, lfb = (json.load(open("%s/%s.json" % (out, n))) for n in ("plain", "graphs", "fallback", "list", "listfb"))

def iqr(times):
    q = statistics.quantiles(times, n=4)
    return q[2] - q[0]

# 1 and 2: the graph ran, gave the same results, and is not slower
assert plain["run"]["cuda_graphs"] is False and plain["run"]["launch_list"] is False, plain["run"]
assert not [n for n in plain["notes"] if "launch list" in n], plain["notes"]
assert graphs["run"]["cuda_graphs"] is True, (graphs["run"], graphs["notes"])
note = [n for n in graphs["notes"] if n.startswith("CUDA graphs:")]
assert note, graphs["notes"]
note = note[0]
print("graphs note:", note)
if "bit-identical" not in note:
    m = re.search(r"max \|diff\| ([0-9.e+-]+)", note)
    assert m and float(m.group(1)) <= 1e-5, note
# the unprofiled times come from a first capture without the profiler's events around each region: fewer nodes
m = re.search(r"a graph of (\d+) nodes and replayed.* as a graph of (\d+) nodes without the profiler's events", note)
assert m and int(m.group(2)) < int(m.group(1)), note
cost = [n for n in graphs["notes"] if n.startswith("profiling's cost:")]
assert cost, graphs["notes"]
print(cost[0])
it = graphs["iteration"]
assert it["count"] == 20, it
# where the runner's time went: its start (first run of the runner), each phase, the capture under graphs
setup = [v for v in graphs["run"]["executor_versions"] if v.startswith("runner setup=")]
assert setup, graphs["run"]["executor_versions"]
print(setup[0])
ms = dict((m.group(1), float(m.group(2))) for m in re.finditer(r"(?:^|, |; )([^,;]+?) ([0-9.]+) ms", setup[0].split("=", 1)[1]))
assert any(k.startswith("runner start") for k in ms) and "CUDA graph captured" in ms, ms
assert all(v >= 0 for v in ms.values()) and ms["in all"] > 0, ms
checked = [v for v in graphs["run"]["executor_versions"] if v.startswith("checked run calls=")]
assert checked and re.search(r"\d+ calls, the slowest [0-9.]+ ms", checked[0]), graphs["run"]["executor_versions"]
print(checked[0])
if "region times come from" in note:
    for k, total in enumerate(it["times_ms"]):
        s = sum(r["times_ms"][k] for r in graphs["regions"])
        gap = it["gap_times_ms"][k]
        assert gap >= -1e-3 and abs(s + gap - total) <= 1e-3 + 1e-6 * total, (k, total, s, gap)
        assert s > 0, (k, s)
else:
    print("note: per-region times are not available under graphs on this machine")
# the replays' kernels join no launch: placed by time (wb_cupti_align_ranges), each lands in the region that
# launched it, once an iteration, as the unreplayed run's kernels joined by correlation do
src = lambda d: d.get("attribution", {}).get("kernel_source", "")
if src(plain).startswith("cupti") and src(graphs).startswith("cupti"):
    calls = lambda d: {(k["name"], k["region"]): round(k["calls_per_iteration"], 6) for k in d["kernels"]}
    assert calls(graphs) == calls(plain), (calls(plain), calls(graphs))
    print("graph replay kernels: %d groups, each in its own region as in the unreplayed run" % len(graphs["kernels"]))
else:
    print("note: no CUPTI kernel records (%s / %s)" % (src(plain), src(graphs)))
pm, gm = plain["iteration"]["median_ms"], it["median_ms"]
noise = max(iqr(plain["iteration"]["times_ms"]), iqr(it["times_ms"]))
print("iteration median: %.4f ms without graphs, %.4f ms with (noise %.4f ms): %.2fx" % (pm, gm, noise, pm / gm))
assert gm <= pm + noise, ("the graph replay is slower", pm, gm, noise)

# 3: a cpu fallback makes the capture fail cleanly; the iterations still ran
assert fb["run"]["cuda_graphs"] is False, fb["run"]
assert fb["iteration"]["count"] == 20, fb["iteration"]
why = [n for n in fb["notes"] if n.startswith("cannot capture a CUDA graph")]
assert why, fb["notes"]
print("fallback note:", why[0])
assert "TorchCompile0" in why[0] and "cpu fallback" in why[0], why[0]

# 4: the launch list replays the same program, as fast or faster than the interpreter, and is refused cleanly
assert lst["run"]["cuda_graphs"] is False and lst["run"]["launch_list"] is True, lst["run"]
ln = [n for n in lst["notes"] if n.startswith("launch list (no CUDA graph):")]
assert ln and "bit-identical" in ln[0], lst["notes"]
print("list note:", ln[0])
m = re.search(r"flat list of (\d+) steps \((\d+) kernel launches, (\d+) library calls", ln[0])
assert m and int(m.group(2)) > 0 and int(m.group(3)) > 0, ln[0]
lit = lst["iteration"]
assert lit["count"] == 20, lit
if "region times come from" in ln[0]:
    for k, total in enumerate(lit["times_ms"]):
        s = sum(r["times_ms"][k] for r in lst["regions"])
        gap = lit["gap_times_ms"][k]
        assert gap >= -1e-3 and abs(s + gap - total) <= 1e-3 + 1e-6 * total, (k, total, s, gap)
lm = lit["median_ms"]
noise = max(iqr(plain["iteration"]["times_ms"]), iqr(lit["times_ms"]))
print("iteration median: %.4f ms call by call, %.4f ms from the launch list (noise %.4f ms): %.2fx" % (pm, lm, noise, pm / lm))
assert lm <= pm + noise, ("the launch list is slower than the interpreter", pm, lm, noise)
why = [n for n in lfb["notes"] if n.startswith("cannot record a launch list")]
assert why and "TorchCompile0" in why[0] and "cpu fallback" in why[0], lfb["notes"]
assert lfb["iteration"]["count"] == 20, lfb["iteration"]
print("list fallback note:", why[0])
print("ok")
PY
rc=$?
[ $rc -eq 0 ] || exit $rc

zoo_case=${WB_BUILD_ROOT}/tests/zoo/zoo/bart/thunderfx_g0_GraphModule
if [ -d "$zoo_case" ]; then
  "$app" --headless profile "$zoo_case" --device cuda --iters 3 --warmup 1 --report "$out/setitem.json" 2>"$out/setitem.err" ||
    { cat "$out/setitem.err"; echo "profile of $zoo_case failed"; exit 1; }
  python3 - "$out/setitem.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["run"]["cuda_graphs"] is True, [n for n in d["notes"] if "graph" in n.lower()]
print("copy_with_setitem of a number: captured")
PY
else
  echo "note: the zoo is not unpacked; bart's setitem capture not checked"
fi

# 6. t5's second subgraph adds into an input in place (its relative position buckets): every run after the checked
#    one must see the input as it was sent, the graph's first replay and the launch list's two recording runs
#    included; a run on buckets already added to indexes past the embedding's 32 rows (the runner's note)
zoo_case=${WB_BUILD_ROOT}/tests/zoo/zoo/t5/thunderfx_g0_GraphModule_1
if [ -d "$zoo_case" ]; then
  for mode in graphs list; do
    "$app" --headless profile "$zoo_case" --device cuda --iters 3 --warmup 1 --report "$out/t5-$mode.json" \
      $([ $mode = list ] && echo --no-cuda-graphs) 2>"$out/t5-$mode.err" || { cat "$out/t5-$mode.err"; echo "profile of $zoo_case ($mode) failed"; exit 1; }
  done
  python3 - "$out" <<'PY'
import json, sys
for mode, lead in (("graphs", "CUDA graphs:"), ("list", "launch list")):
    notes = json.load(open("%s/t5-%s.json" % (sys.argv[1], mode)))["notes"]
    n = [x for x in notes if x.startswith(lead)]
    assert n and "bit-identical" in n[0], (mode, notes)
    assert "out of range" not in n[0], (mode, n[0])
print("inputs written in place: restored before the first replay and the list's recording runs")
PY
  [ $? -eq 0 ] || exit 1
else
  echo "note: the zoo is not unpacked; t5's in-place input not checked"
fi
