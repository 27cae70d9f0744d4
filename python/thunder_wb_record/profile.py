# profile.py — Thunder's own per-region times of a captured case, under torch.profiler (--profile)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What runs. compile_data(jfn).get_computation_and_inputs(*args, **kwargs) gives the cache entry the
# recorded call used and the computation's inputs (the prologue's output). One iteration is the entry's
# computation_fn (the final forward trace, as Thunder compiled it) and, for training, its backward_fn with
# the saved tensors and one cotangent per floating-point output (drawn once, N(0, 1), seed 0): the same
# forward + backward the workbench's `profile` runs, without the prologue, epilogue or autograd.
#   1. warm-up: THUNDER_WB_RECORD_WARMUP iterations (default 3), untimed;
#   2. timing: THUNDER_WB_RECORD_ITERS iterations (default 20), wall time each, with
#      torch.cuda.synchronize() before the clock starts and before it stops (cuda);
#   3. attribution: THUNDER_WB_RECORD_PROFILED_ITERS iterations (default 5) under torch.profiler of an
#      instrumented copy of the same two traces, where every top-level bound symbol that computes (all
#      but unpacking, checks, del, return and comments) sits between a push and a pop of
#      torch.profiler.record_function("thunder-wb:<ENTRY>"), and each iteration inside
#      record_function("thunder-wb-iteration:<K>"). ENTRY is the call's printed name ("TorchCompile0",
#      "torch.nn.functional.linear", "sdpaex_grad_forward_scaled_dot_product_efficient_attention"),
#      "#2", "#3"... for later calls of the same name (forward first, then backward): the workbench's
#      entry names (profiler/wb-profile.h). Thunder's callables for fusions are the same objects in the
#      instrumented copy (the bound symbols and their call contexts are shared), so the same kernels run.
#
# Mapping kernels to entries: the profile is exported as a Chrome trace and read back. Each GPU activity
# (cat "kernel", "gpu_memcpy", "gpu_memset") carries the correlation id of the CUDA runtime or driver
# call that launched it (cat "cuda_runtime"/"cuda_driver", on the launching CPU thread); the launch's
# timestamp falls inside exactly one thunder-wb:<ENTRY> range of that thread, and inside one iteration
# range. An entry's time in an iteration is the sum of its kernels' durations (GPU time, not wall time);
# an entry that launched no kernel (a view, a reshape) has 0. On a machine without CUDA the entry's time
# is its range's CPU duration and each range execution is one "kernel" record named after the call.
# THUNDER_ANNOTATE_TRACES NVTX ranges are not used: torch.profiler does not record NVTX.
#
# profile.json: schema "thunder-wb/record-profile" version 1 (read by app/wb-cli-record.c):
#   {schema, version, case, stage, device, device_model, driver_version, versions{}, warmup, iters,
#    profiled_iters, start_time_us, iteration_ns[], attribution, notes[],
#    entries[{name, call, executor, is_region, part, times_ns[], cpu_times_ns[], kernel_count}],
#    kernels[{name, region, iteration, start_ns, end_ns, stream, grid[3], block[3], registers,
#             shared_bytes, correlation_id}]}
# Times in ns; kernel start/end relative to the start of the first profiled iteration.

import json
import os
import platform
import tempfile
import time

SCHEMA = "thunder-wb/record-profile"
SCHEMA_VERSION = 1
RANGE_PREFIX = "thunder-wb:"
ITER_PREFIX = "thunder-wb-iteration:"

# PrimIDs that compute nothing (thunder.dev_utils.utils.NON_COMPUTATION_PRIMS, looked up by name so a
# Thunder without one of them still works)
_NON_COMPUTATION = (
    "ASSERT_TENSOR_METADATA", "CHECK_TENSOR_SHAPE_AND_METADATA", "CHECK_NONE", "CHECK_EMPTY",
    "CHECK_LITERAL_LIKE", "CHECK_TYPE", "CHECK_INSTANCE", "CHECK_NUMBER_TYPE_AND_VALUE",
    "CHECK_BOOL_CONVERSION", "CHECK_STRING_VALUE", "CHECK_LEN", "ASSERT_COMPARE", "PYTHON_VARS",
    "UNPACK_FUNCTION_OBJ", "UNPACK_CACHE_INFO", "UNPACK_ATTR", "UNPACK_GETITEM", "UNPACK_EMPTY_DICT",
    "UNPACK_ITER", "UNPACK_NEXT", "UNPACK_KEY", "UNPACK_SEQUENCE", "UNPACK_TRIVIAL", "UNPACK_TUPLE",
    "UNPACK_LIST", "UNPACK_DICT_KEY", "CONSTRUCT_TUPLE", "PACK_LIST", "PACK_SETITEM", "COMMENT", "DEL",
    "PRINT", "RETURN",
)

_stack = []


def _push(name):
    import torch

    rf = torch.profiler.record_function(name)
    rf.__enter__()
    _stack.append(rf)


def _pop():
    _stack.pop().__exit__(None, None, None)


def _range_symbols():
    from thunder.core.symbol import Symbol

    def make(name, fn):
        def bind_postprocess(bsym):
            bsym._call_ctx = {name: fn}

        return Symbol(name, lambda *a, **k: None, is_prim=True, _bind_postprocess=bind_postprocess)

    return make("_thunder_wb_range_push", _push), make("_thunder_wb_range_pop", _pop)


def _non_computation_ids():
    from thunder.core.prims import PrimIDs

    return {getattr(PrimIDs, n) for n in _NON_COMPUTATION if hasattr(PrimIDs, n)}


def _instrument(trace, part, entries, counts, skip_ids, push, pop):
    """A copy of @trace with each computing top-level bsym between push("thunder-wb:ENTRY") and pop();
    appends (name, call, executor, is_region, part) to @entries."""
    from thunder.core.trace import from_trace

    from .recorder import _call_name, _executor_name

    new = from_trace(trace)
    bsyms = []
    for b in trace.bound_symbols:
        if getattr(b.sym, "id", None) in skip_ids:
            bsyms.append(b)
            continue
        call = _call_name(b) or "?"
        counts[call] = counts.get(call, 0) + 1
        name = call if counts[call] == 1 else f"{call}#{counts[call]}"
        entries.append({"name": name, "call": call, "executor": _executor_name(b),
                        "is_region": bool(getattr(b.sym, "is_fusion", False)), "part": part})
        bsyms.append(push.bind(RANGE_PREFIX + name, output=None))
        bsyms.append(b)
        bsyms.append(pop.bind(output=None))
    new.bound_symbols = bsyms
    return new


def _device_of(values):
    import torch

    for v in values:
        if isinstance(v, torch.Tensor) and v.device.type == "cuda":
            return v.device
    return None


def _cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "cpu"


def _driver_version():
    try:
        import pynvml

        pynvml.nvmlInit()
        v = pynvml.nvmlSystemGetDriverVersion()
        return v.decode() if isinstance(v, bytes) else str(v)
    except Exception:
        return None


def _median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return 0
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) // 2


def _ns(us):
    return int(round(float(us) * 1000.0))


def attribute(trace_events, entry_names, n_iters, cuda):
    """Reads Chrome-trace events: per entry, its time in each profiled iteration (ns), its CPU range
    times, the kernels per iteration and the kernel records. Pure function (tested without torch)."""
    ranges = {}  # tid -> [(start, end, entry)]
    iters = []  # (start, end, k, tid)
    launches = {}  # correlation -> (ts, tid)
    gpu = []
    for ev in trace_events:
        if ev.get("ph") != "X":
            continue
        cat = ev.get("cat", "")
        name = ev.get("name", "")
        args = ev.get("args") or {}
        if cat == "user_annotation":
            s = _ns(ev.get("ts", 0))
            e = s + _ns(ev.get("dur", 0))
            tid = (ev.get("pid"), ev.get("tid"))
            if name.startswith(ITER_PREFIX):
                try:
                    iters.append((s, e, int(name[len(ITER_PREFIX):]), tid))
                except ValueError:
                    pass
            elif name.startswith(RANGE_PREFIX):
                ranges.setdefault(tid, []).append((s, e, name[len(RANGE_PREFIX):]))
        elif cat in ("cuda_runtime", "cuda_driver") and "correlation" in args:
            launches[args["correlation"]] = (_ns(ev.get("ts", 0)), (ev.get("pid"), ev.get("tid")))
        elif cat in ("kernel", "gpu_memcpy", "gpu_memset"):
            gpu.append(ev)
    iters.sort()
    origin = iters[0][0] if iters else 0

    def iteration_of(ts):
        for s, e, k, _ in iters:
            if s <= ts <= e:
                return k
        return None

    def entry_of(ts, tid):
        best = None
        for s, e, n in ranges.get(tid, ()):
            if s <= ts <= e and (best is None or s >= best[0]):
                best = (s, n)
        return best[1] if best else None

    times = {n: [0] * n_iters for n in entry_names}
    cpu_times = {n: [0] * n_iters for n in entry_names}
    counts = {n: [0] * n_iters for n in entry_names}
    kernels = []
    for tid, rs in ranges.items():
        for s, e, n in rs:
            k = iteration_of(s)
            if n in cpu_times and k is not None and 0 <= k < n_iters:
                cpu_times[n][k] += e - s
                if not cuda:
                    times[n][k] += e - s
                    counts[n][k] += 1
                    kernels.append({"name": n.split("#")[0], "region": n, "iteration": k,
                                    "start_ns": s - origin, "end_ns": e - origin, "stream": 0})
    unattributed = 0
    if cuda:
        for ev in gpu:
            args = ev.get("args") or {}
            s = _ns(ev.get("ts", 0))
            e = s + _ns(ev.get("dur", 0))
            launch = launches.get(args.get("correlation"))
            region = k = None
            if launch is not None:
                k = iteration_of(launch[0])
                region = entry_of(launch[0], launch[1])
            if k is None or not (0 <= k < n_iters):
                continue  # not in a profiled iteration (e.g. the profiler's own)
            if region in times:
                times[region][k] += e - s
                counts[region][k] += 1
            else:
                unattributed += 1
            grid = args.get("grid") or [0, 0, 0]
            block = args.get("block") or [0, 0, 0]
            kernels.append({
                "name": ev.get("name", ""), "region": region if region in times else None, "iteration": k,
                "start_ns": s - origin, "end_ns": e - origin, "stream": int(args.get("stream", 0) or 0),
                "grid": [int(x) for x in list(grid)[:3]], "block": [int(x) for x in list(block)[:3]],
                "registers": int(args.get("registers per thread", 0) or 0),
                "shared_bytes": int(args.get("shared memory", 0) or 0),
                "correlation_id": int(args.get("correlation", 0) or 0),
            })
    kernels.sort(key=lambda r: (r["start_ns"], r["end_ns"]))
    return times, cpu_times, counts, kernels, unattributed, len(iters)


def profile_case(rec, jfn, args, kwargs, entry, forward, backward, out_path):
    """Profiles the case just recorded and writes @out_path; returns a summary for meta.json."""
    import torch
    import thunder

    s = rec.settings
    notes = []
    cd = thunder.compile_data(jfn)
    gcai = getattr(cd, "get_computation_and_inputs", None)
    if gcai is None:
        raise RuntimeError("this Thunder has no compile_data(jfn).get_computation_and_inputs: cannot rerun the entry")
    cache_entry, inps, _ = gcai(*args, **kwargs)
    comp_traces = getattr(cache_entry, "computation_traces", None)
    if not comp_traces or comp_traces[-1] is not forward[-1]:
        raise RuntimeError("Thunder's cache did not give back the recorded entry (cache='no caching'?)")
    real_fw = cache_entry.computation_fn
    real_bw = cache_entry.backward_fn
    training = real_bw is not None and bool(backward)

    # the instrumented copies
    entries = []
    counts = {}
    skip_ids = _non_computation_ids()
    push, pop = _range_symbols()
    ifw_trace = _instrument(forward[-1], "forward", entries, counts, skip_ids, push, pop)
    try:
        from thunder.common import transform_to_torch_types

        ifw_trace = transform_to_torch_types(ifw_trace)
    except ImportError:
        notes.append("thunder.common.transform_to_torch_types is missing: the forward ran untranslated")
    ifw = ifw_trace.python_callable()
    ibw = None
    if training:
        ibw = _instrument(backward[-1], "backward", entries, counts, skip_ids, push, pop).python_callable()

    device = _device_of(inps)
    cuda = device is not None and torch.cuda.is_available()
    sync = (lambda: torch.cuda.synchronize(device)) if cuda else (lambda: None)
    cot = {}

    def run_once(fw, bw):
        res = fw(*inps)
        if not training:
            return
        data, (saved_t, saved_o) = res
        if "c" not in cot:
            g = {}
            cs = []
            for o in data["flat_output"]:
                if isinstance(o, torch.Tensor) and (o.dtype.is_floating_point or o.dtype.is_complex):
                    if o.device not in g:
                        g[o.device] = torch.Generator(device=o.device).manual_seed(0)
                    cs.append(torch.randn(o.shape, dtype=o.dtype, device=o.device, generator=g[o.device]))
                else:
                    cs.append(None)
            cot["c"] = cs
        bw([list(saved_t), saved_o], list(cot["c"]))

    start_us = int(time.time() * 1e6)
    with torch.no_grad():
        for _ in range(s.warmup):
            run_once(real_fw, real_bw)
        sync()
        iteration_ns = []
        for _ in range(s.iters):
            sync()
            t0 = time.perf_counter_ns()
            run_once(real_fw, real_bw)
            sync()
            iteration_ns.append(time.perf_counter_ns() - t0)

        run_once(ifw, ibw)  # the instrumented copy once before it is profiled
        sync()
        acts = [torch.profiler.ProfilerActivity.CPU]
        if cuda:
            acts.append(torch.profiler.ProfilerActivity.CUDA)
        with torch.profiler.profile(activities=acts) as prof:
            for k in range(s.profiled_iters):
                with torch.profiler.record_function(f"{ITER_PREFIX}{k}"):
                    run_once(ifw, ibw)
                    sync()
        fd, tmp = tempfile.mkstemp(prefix="thunder-wb-profile-", suffix=".json")
        os.close(fd)
        try:
            prof.export_chrome_trace(tmp)
            with open(tmp, encoding="utf-8") as f:
                events = json.load(f).get("traceEvents", [])
        finally:
            os.unlink(tmp)

    names = [e["name"] for e in entries]
    times, cpu_times, kcounts, kernels, unattributed, n_seen = attribute(events, names, s.profiled_iters, cuda)
    if n_seen != s.profiled_iters:
        notes.append(f"{n_seen} of {s.profiled_iters} profiled iterations were found in the profile")
    if unattributed:
        notes.append(f"{unattributed} kernels launched outside any entry's range (not in any region's time)")
    for e in entries:
        e["times_ns"] = times[e["name"]]
        e["cpu_times_ns"] = cpu_times[e["name"]]
        e["kernel_count"] = _median(kcounts[e["name"]])

    if cuda:
        model = torch.cuda.get_device_name(device)
        attribution = ("per entry: the sum of the durations of the GPU activities (kernels, memcpy, memset) "
                       "launched inside its record_function range, per profiled iteration (torch.profiler, CUPTI)")
    else:
        model = _cpu_model()
        attribution = "per entry: the CPU duration of its record_function range, per profiled iteration"
        notes.append("no CUDA tensor among the inputs: profiled on the cpu")
    versions = {"thunder": getattr(thunder, "__version__", None), "torch": torch.__version__}
    if cuda and getattr(torch.version, "cuda", None):
        versions["cuda"] = torch.version.cuda
    out = {
        "schema": SCHEMA, "version": SCHEMA_VERSION,
        "case": os.path.basename(os.path.dirname(out_path)),
        "stage": "forward_%02d" % (len(forward) - 1) + ("+backward_%02d" % (len(backward) - 1) if training else ""),
        "device": str(device) if cuda else "cpu",
        "device_model": model,
        "driver_version": _driver_version() if cuda else None,
        "versions": versions,
        "warmup": s.warmup, "iters": s.iters, "profiled_iters": s.profiled_iters,
        "start_time_us": start_us,
        "iteration_ns": iteration_ns,
        "attribution": attribution,
        "notes": notes,
        "entries": entries,
        "kernels": kernels,
    }
    from . import layout

    layout.write_json(out_path, out)
    med = _median(iteration_ns)
    return {"median_ms": med / 1e6, "min_ms": min(iteration_ns) / 1e6, "max_ms": max(iteration_ns) / 1e6,
            "iters": s.iters, "warmup": s.warmup, "profiled_iters": s.profiled_iters, "device": out["device"],
            "what": "forward + backward of the final traces (computation_fn, backward_fn), wall time per "
                    "iteration, median of the timed iterations"}
