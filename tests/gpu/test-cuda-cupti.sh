#!/bin/sh
# test-cuda-cupti.sh — `profile --device cuda` with CUPTI activity tracing (gpu suite)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Profiles mlp_small (forward + backward: nvrtc regions and cuBLASLt matmuls) and checks the JSON report:
# the kernel records come from CUPTI, every cuBLASLt kernel (a name that is not one of our generated wb_*
# kernels) is attributed to a region, at least 95% of the kernel time CUPTI saw is attributed, no record
# was dropped (95% of it by correlation, not by time range), every generated kernel has registers > 0 and a grid, and the Markdown report has its
# Attribution line; the Chrome trace has the host's CUDA API calls, every generated kernel's launch joined
# to it and starting before it (and with CUDA graphs, each replay's cuGraphLaunch joined to its kernels). Then with WB_PROFILE_CUPTI=0 the same run falls back to CUDA events and says why.
# Exit 77 (skip) without a GPU.
set -u
app=${WB_BUILD_ROOT:?}/app/thunder-wb
case_dir=${WB_TRACES_DIR:?}/${WB_PROFILE_CASE:-mlp_small}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export XDG_CACHE_HOME="$out/cache"

# launch by launch (--no-cuda-graphs): a graph replay's kernels have no launch of their own to correlate with,
# and are attributed by time range (test-cuda-graphs.sh)
"$app" --headless profile "$case_dir" --device cuda --no-cuda-graphs --iters 10 --warmup 2 \
  --report "$out/r.md" --report "$out/r.json" --chrome-trace "$out/t.json" 2>"$out/err"
rc=$?
if [ $rc -eq 3 ]; then
  echo "skip: $(cat "$out/err")"
  exit 77
fi
cat "$out/err" >&2
[ $rc -eq 0 ] || { echo "profile --device cuda exited $rc"; exit 1; }
grep -E "^- (kernel records|Attribution):" "$out/r.md"
grep -q "^- Attribution: " "$out/r.md" || { echo "the Markdown report has no Attribution line"; exit 1; }

WB_PROFILE_CUPTI=0 "$app" --headless profile "$case_dir" --device cuda --no-cuda-graphs --iters 5 --warmup 1 --report "$out/e.json" 2>"$out/err-events"
rc=$?
[ $rc -eq 0 ] || { cat "$out/err-events"; echo "profile with WB_PROFILE_CUPTI=0 exited $rc"; exit 1; }

# with CUDA graphs (the default): each traced replay's cuGraphLaunch is a host call, joined to its kernels
"$app" --headless profile "$case_dir" --device cuda --iters 5 --warmup 1 --chrome-trace "$out/g.json" 2>"$out/err-graphs" >/dev/null
rc=$?
[ $rc -eq 0 ] || { cat "$out/err-graphs"; echo "profile with CUDA graphs exited $rc"; exit 1; }
python3 - "$out/g.json" <<'PY' || exit 1
import json, sys
evs = json.load(open(sys.argv[1]))["traceEvents"]
launches = [e for e in evs if e.get("cat") == "cuda_api" and e["name"].startswith("cuGraphLaunch")]
assert launches, "no cuGraphLaunch among the host calls of a replayed run"
joined = [e for e in launches if "kernel" in e["args"]]
assert joined, ("no cuGraphLaunch joined to its kernels", launches[:2])
print("  graphs: %d cuGraphLaunch calls, %d joined to their kernels" % (len(launches), len(joined)))
PY

python3 - "$out/r.json" "$out/t.json" "$out/e.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
trace = json.load(open(sys.argv[2]))
ev = json.load(open(sys.argv[3]))
a = d["attribution"]
assert a is not None, "no attribution in the report"
assert a["kernel_source"].startswith("cupti"), a["kernel_source"]
assert d["run"]["dropped_records"] == 0, d["run"]["dropped_records"]
assert a["kernel_ms_total"] > 0, a
share = a["kernel_ms_attributed"] / a["kernel_ms_total"]
assert share >= 0.95, ("attributed share", share, a)
# by correlation (the callback API's correlation ids), not merely by time range
by_corr = a["kernel_ms_by_correlation"] / a["kernel_ms_total"]
assert by_corr >= 0.95, ("share attributed by correlation", by_corr, a)
kernels = d["kernels"]
ours = [k for k in kernels if k["name"].startswith("wb_")]
lib = [k for k in kernels if not k["name"].startswith("wb_")]
assert ours, "no generated (nvrtc) kernels in the records"
assert lib, "no cuBLASLt kernels in the records: %s" % [k["name"] for k in kernels]
unattributed_lib = [k["name"] for k in lib if k["region"] is None]
assert not unattributed_lib, ("cuBLASLt kernels without a region", unattributed_lib)
for k in ours:
    assert k["registers"] > 0, ("nvrtc kernel without registers", k)
    assert k["grid"] and k["block"], k
assert all(k["stream"] == kernels[0]["stream"] for k in kernels), "kernels on more than one stream"
# the Chrome trace: kernels on their CUPTI stream's thread, a flow from the region to each attributed kernel
evs = trace["traceEvents"]
knames = {e["name"] for e in evs if e.get("cat") == "kernel"}
assert any(not n.startswith("wb_") for n in knames), "no cuBLASLt kernel in the Chrome trace"
assert any(e.get("ph") == "f" for e in evs) and any(e.get("ph") == "s" for e in evs), "no region->kernel flows"
assert trace["otherData"].get("kernel_source", "").startswith("cupti"), trace["otherData"]
# one stream runs one kernel at a time: on each stream's thread no kernel starts before the previous one ended
# (kernels of different iterations placed at the wrong iteration's start would overlap)
by_tid = {}
for e in evs:
    if e.get("cat") == "kernel" and e.get("ph") == "X":
        by_tid.setdefault(e["tid"], []).append((e["ts"], e["ts"] + e["dur"], e["name"]))
for tid, ks in by_tid.items():
    ks.sort()
    for (s0, e0, n0), (s1, e1, n1) in zip(ks, ks[1:]):
        assert s1 >= e0 - 0.01, ("overlapping kernels on one stream", tid, n0, e0, n1, s1)
# the host's CUDA API calls (CUPTI's API records): a "CUDA API" thread, every generated kernel's launch
# joined to it by correlation id, and each joined call starting before its kernel
api = [e for e in evs if e.get("cat") == "cuda_api"]
assert api, "no host calls (cuda_api events) in the Chrome trace"
assert trace["otherData"].get("host_calls") == len(api), trace["otherData"]
assert any(e.get("name") == "thread_name" and e["args"]["name"].startswith("CUDA API") for e in evs), "no CUDA API thread"
kstart = {}
for e in evs:
    if e.get("cat") == "kernel" and e["args"].get("correlation"):
        kstart.setdefault((e["args"]["iteration"], e["args"]["correlation"]), e["ts"])
joined = [e for e in api if "kernel" in e["args"]]
assert joined, "no host call joined to a kernel"
for e in joined:
    ks = kstart[(e["args"]["iteration"], e["args"]["correlation"])]
    assert ks >= e["ts"] - 0.01, ("a kernel started before the call that launched it", e, ks)
launched = {(e["args"]["iteration"], e["args"]["correlation"]) for e in joined}
wb_kernels = [e for e in evs if e.get("cat") == "kernel" and e["name"].startswith("wb_")]
assert all((e["args"]["iteration"], e["args"]["correlation"]) in launched for e in wb_kernels), "a generated kernel without its launch"
print("  host calls: %d (%d joined to a kernel), e.g. %s" % (len(api), len(joined), ", ".join(sorted({e["name"] for e in joined}))))
# events fallback
ea = ev["attribution"]
assert ea["kernel_source"].startswith("CUDA events (CUPTI unavailable: disabled by WB_PROFILE_CUPTI=0)"), ea
assert ev["kernels"], "no kernel records from events"
print("ok: cupti: %d kernel groups (%d cuBLASLt), %.4f ms kernel time, %.2f%% attributed (%.2f%% by time range), "
      "%d memcpy, %d memset, 0 dropped; events fallback: %s"
      % (len(kernels), len(lib), a["kernel_ms_total"], 100 * share, 100 * a["kernel_ms_by_time_range"] / a["kernel_ms_total"],
         a["memcpy"]["count"], a["memset"]["count"], ea["kernel_source"]))
print("  cuBLASLt kernels: " + ", ".join("%s -> %s (regs %d, smem %d)" % (k["name"][:60], k["region"], k["registers"], k["shared_bytes"]) for k in lib[:4]))
PY
