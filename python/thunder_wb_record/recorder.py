# recorder.py — wraps thunder.jit (and ThunderFX's ThunderCompiler) so that every compiled call's traces
# are written to the capture directory
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What is patched (patch_thunder, patch_thunderfx), all reversible and all guarded (a failure prints one
# "thunder-wb record:" line on stderr and the program goes on unrecorded):
#   thunder.jit                 returns the same object Thunder returns (a ThunderModule for modules: its
#                               _forward_fn is wrapped; a function: a functools.wraps wrapper that carries
#                               _lc_cd/_lc_cs, so thunder.last_traces(jfn) & co. keep working)
#   thunder.executors.passes._transform_for_operator_executor_execution, .transform_for_execution,
#   each FusionExecutor's fusion_pass, thunder.transforms.autodiff.split_into_forward_and_backward
#                               record the traces they return as stages/ while a compile runs (labels
#                               operator_executor_execution[EXECUTORS], transform_for_execution_N,
#                               fusion_pass[EXECUTOR], split_forward, split_backward)
#   ThunderCompiler.__call__    names the cases of ThunderFX's subgraphs thunderfx_g<K>
#
# After each call of a jitted function, when thunder.last_traces(jfn) is a list not recorded before (a
# new cache entry), one case folder is written (layout.py): prologue, computation (forward), backward and
# epilogue traces as str(trace), the stages seen while it compiled, meta.json, and on request
# tensors.safetensors and profile.json (profile.py).

import functools
import inspect
import os
import sys
import threading
import time
import traceback

from . import distributed as _distributed
from . import layout
from . import safetensors
from . import settings as _settings
from .snapshot import Snapshot

__all__ = ["get", "Recorder"]

_recorder = None
_lock = threading.Lock()


def get():
    """The process's recorder (created from the environment on first use)."""
    global _recorder
    with _lock:
        if _recorder is None:
            _recorder = Recorder(_settings.Settings())
        return _recorder


def _versions():
    out = {"python": sys.version.split()[0]}
    for name in ("torch", "thunder"):
        m = sys.modules.get(name)
        if m is not None:
            out[name] = getattr(m, "__version__", None)
    return out


def _dtype_name(dtype):
    s = str(dtype)
    return s[len("torch."):] if s.startswith("torch.") else s


def _parameter_owner(jfn, fn):
    """The module whose named_parameters() are the ones the compiled program reads: a ThunderModule's own
    (its overrides: Thunder's FSDP shards them and leaves the original module's on the meta device), else
    @fn's."""
    if hasattr(jfn, "_model") and hasattr(jfn, "named_parameters") and hasattr(jfn, "named_buffers"):
        return jfn
    return fn


def _is_tensor(v):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(v, torch.Tensor)


def describe(v, name=None):
    """JSON description of a value: tensors by shape/dtype/device, numbers and strings by value."""
    d = {} if name is None else {"name": name}
    if _is_tensor(v):
        d.update(shape=list(v.shape), dtype=_dtype_name(v.dtype), device=str(v.device),
                 requires_grad=bool(v.requires_grad))
        try:
            d["stride"] = list(v.stride())
        except Exception:
            pass
        return d
    if v is None or isinstance(v, (bool, int, float, str)):
        d.update(type=type(v).__name__, value=v)
        return d
    if isinstance(v, (list, tuple)):
        d.update(type=type(v).__name__, items=[describe(x) for x in v])
        return d
    if isinstance(v, dict):
        d.update(type="dict", items={str(k): describe(x) for k, x in v.items()})
        return d
    d.update(type=type(v).__name__)
    return d


def _flatten(v, out):
    if isinstance(v, (list, tuple)):
        for x in v:
            _flatten(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            _flatten(x, out)
    else:
        out.append(v)
    return out


def _call_name(bsym):
    """The name a top-level bound symbol's call is printed with ("TorchCompile0", "torch.nn.functional.linear")."""
    try:
        for line in bsym.python(indent=0, print_depth=1):
            s = line.strip()
            if s and not s.startswith("#"):
                import re

                m = re.match(r"^(?:(?:\[[^\]]*\]|\([^)]*\)|[\w, ]+?)\s*=\s*)?([A-Za-z_][\w.]*)\s*\(", s)
                if m:
                    return m.group(1)
                break
    except Exception:
        pass
    try:
        return bsym.sym.name
    except Exception:
        return None


def _executor_name(bsym):
    try:
        ex = bsym.sym.executor
        return ex.name if ex is not None else None
    except Exception:
        return None


class _StageCollector:
    def __init__(self):
        self.stages = []
        self.counters = {}
        self.compiled = False

    def add(self, label, trace):
        self.compiled = True
        if label == "transform_for_execution":
            n = self.counters.get(label, 0)
            self.counters[label] = n + 1
            label = f"{label}_{n}"
        try:
            text = str(trace)
        except Exception as e:
            text = f"# thunder-wb record: str(trace) failed: {type(e).__name__}: {e}\n"
        self.stages.append((label, text))


class Recorder:
    def __init__(self, settings):
        self.settings = settings
        self._local = threading.local()
        self._seen = []  # computation_traces lists already recorded (kept alive: ids stay unique)
        self._n_cases = 0
        self._skipped = 0
        self._manifest = None
        self._rank = None  # rank_info() of a distributed program, read with the first case
        self._patched = set()
        self._profiling = False
        self._fx_graph = threading.local()

    # -- output -------------------------------------------------------------------------------------

    def say(self, msg):
        if not self.settings.quiet:
            print(f"thunder-wb record: {msg}", file=sys.stderr, flush=True)

    def manifest(self):
        """The capture's manifest; for a rank of a distributed program (decided on the first case), that
        rank's own (layout.py)."""
        if self._manifest is None:
            os.makedirs(self.settings.capture_dir, exist_ok=True)
            info = {"recorder": {"pid": os.getpid(), "argv": list(sys.argv), "python": sys.executable}}
            info.update(_versions())
            self._rank = _distributed.rank_info()
            if self._rank is not None:
                info["distributed"] = self._rank
            self._manifest = layout.Manifest(self.settings.capture_dir, info,
                                             None if self._rank is None else self._rank["rank"])
        return self._manifest

    # -- patching -----------------------------------------------------------------------------------

    def patch_thunder(self, thunder):
        if not self.settings.enabled or "thunder" in self._patched:
            return
        self._patched.add("thunder")
        orig = thunder.jit
        if getattr(orig, "_thunder_wb_original", None) is not None:
            return
        rec = self

        @functools.wraps(orig)
        def jit(fn, *args, **kwargs):
            jfn = orig(fn, *args, **kwargs)
            try:
                return rec.instrument(jfn, fn)
            except Exception as e:
                rec.say(f"cannot record {getattr(fn, '__name__', type(fn).__name__)}: {type(e).__name__}: {e}")
                return jfn

        jit._thunder_wb_original = orig
        thunder.jit = jit
        if self.settings.stages:
            try:
                self._patch_stage_hooks()
            except Exception as e:
                self.say(f"hidden stages will not be captured: {type(e).__name__}: {e}")

    def patch_thunderfx(self, compiler_module):
        if not self.settings.enabled or "thunderfx" in self._patched:
            return
        self._patched.add("thunderfx")
        cls = getattr(compiler_module, "ThunderCompiler", None)
        if cls is None:
            return
        orig = cls.__call__
        rec = self

        @functools.wraps(orig)
        def __call__(self_, gm, *args, **kwargs):
            prev = getattr(rec._fx_graph, "name", None)
            rec._fx_graph.name = "thunderfx_g%d" % len(getattr(self_, "subgraph_infos", []) or [])
            try:
                return orig(self_, gm, *args, **kwargs)
            finally:
                rec._fx_graph.name = prev

        cls.__call__ = __call__

    def _collector(self):
        stack = getattr(self._local, "stack", None)
        return stack[-1] if stack else None

    def _add_stage(self, label, trace):
        c = self._collector()
        if c is not None and not self._profiling:
            c.add(label, trace)

    def _patch_stage_hooks(self):
        import thunder.executors.passes as passes

        rec = self
        op = passes._transform_for_operator_executor_execution

        @functools.wraps(op)
        def _transform_for_operator_executor_execution(trace, executors_list, *args, **kwargs):
            out = op(trace, executors_list, *args, **kwargs)
            try:
                names = ",".join(getattr(ex, "name", str(ex)) for ex in executors_list)
            except Exception:
                names = "?"
            rec._add_stage(f"operator_executor_execution[{names}]", out)
            return out

        passes._transform_for_operator_executor_execution = _transform_for_operator_executor_execution

        tfe = passes.transform_for_execution

        @functools.wraps(tfe)
        def transform_for_execution(*args, **kwargs):
            out = tfe(*args, **kwargs)
            rec._add_stage("transform_for_execution", out)
            return out

        passes.transform_for_execution = transform_for_execution

        try:
            import thunder.extend as extend

            for ex in extend.get_all_executors():
                if isinstance(ex, extend.FusionExecutor) and "fusion_pass" not in vars(ex):
                    self._wrap_fusion_pass(ex)
        except Exception as e:
            self.say(f"fusion passes will not be captured: {type(e).__name__}: {e}")

        try:
            import thunder.transforms.autodiff as autodiff

            split = autodiff.split_into_forward_and_backward

            @functools.wraps(split)
            def split_into_forward_and_backward(*args, **kwargs):
                fw, bw = split(*args, **kwargs)
                rec._add_stage("split_forward", fw)
                rec._add_stage("split_backward", bw)
                return fw, bw

            autodiff.split_into_forward_and_backward = split_into_forward_and_backward
        except Exception as e:
            self.say(f"the forward/backward split will not be captured: {type(e).__name__}: {e}")

    def _wrap_fusion_pass(self, ex):
        method = ex.fusion_pass
        rec = self

        @functools.wraps(method)
        def fusion_pass(trace, *args, **kwargs):
            out = method(trace, *args, **kwargs)
            rec._add_stage(f"fusion_pass[{ex.name}]", out)
            return out

        ex.fusion_pass = fusion_pass

    # -- wrapping jitted callables -------------------------------------------------------------------

    def instrument(self, jfn, fn):
        """Wraps what calling @jfn runs; returns the object to hand to the program."""
        fx = getattr(self._fx_graph, "name", None)
        if hasattr(jfn, "_forward_fn") and hasattr(jfn, "_model"):  # ThunderModule
            inner = jfn._forward_fn
            if getattr(inner, "_thunder_wb_wrapped", False):
                return jfn
            jfn._forward_fn = self._wrap_call(inner, jfn, fn, fx)
            return jfn
        wrapper = self._wrap_call(jfn, jfn, fn, fx)
        functools.update_wrapper(wrapper, jfn)
        wrapper._thunder_wb_wrapped = True
        return wrapper

    def _wrap_call(self, call, jfn, fn, fx):
        """@call runs the program; @jfn is the object Thunder's compile_stats() knows."""
        rec = self

        def recorded_call(*args, **kwargs):
            if rec._profiling:
                return call(*args, **kwargs)
            stack = getattr(rec._local, "stack", None)
            if stack is None:
                stack = rec._local.stack = []
            collector = _StageCollector()
            stack.append(collector)
            snap = rec._snapshot(recorded_call, jfn, fn, args, kwargs)
            recorded_call._calls += 1
            t0 = time.perf_counter()
            try:
                result = call(*args, **kwargs)
            finally:
                stack.pop()
            wall = time.perf_counter() - t0
            try:
                rec.after_call(jfn, fn, fx, args, kwargs, result, collector, wall, snap)
            except Exception as e:
                rec.say(f"recording failed: {type(e).__name__}: {e}")
                if os.environ.get("THUNDER_WB_RECORD_DEBUG"):
                    traceback.print_exc()
            if snap is not None and not recorded_call._writes:
                try:  # a callable that writes what it receives is copied before each later call too
                    recorded_call._writes = snap.wrote(args, kwargs, _parameter_owner(jfn, fn))
                except Exception:
                    pass
            return result

        recorded_call._thunder_wb_wrapped = True
        recorded_call._calls = 0
        recorded_call._writes = False
        return recorded_call

    def _snapshot(self, recorded_call, jfn, fn, args, kwargs):
        """What the call receives, before it runs (snapshot.py), for tensors.safetensors: copies on the
        first two calls of a callable (its first compiled entry is recorded on its first call) and on
        every later call of one that wrote what it received (a new entry
        may compile on any call); otherwise only the arguments' version counters (cheap: timed loops do
        not pay for copies), so that an entry recorded then says which inputs were saved after the call
        wrote them. None without --save-inputs."""
        if not self.settings.save_inputs:
            return None
        owner = _parameter_owner(jfn, fn)
        if recorded_call._calls < 2 or recorded_call._writes:
            try:
                return Snapshot(args, kwargs, owner, copy=True)
            except Exception as e:  # the recorder never breaks the program (out of memory: no copies)
                self.say(f"inputs are saved as they are after the call: {type(e).__name__}: {e}")
        try:
            return Snapshot(args, kwargs, None, copy=False)
        except Exception:
            return None

    # -- recording ----------------------------------------------------------------------------------

    def after_call(self, jfn, fn, fx, args, kwargs, result, collector, wall, snap=None):
        import thunder

        cs = thunder.compile_stats(jfn)
        if cs is None:
            return
        traces = getattr(cs, "last_traces", None)
        if traces is None or any(t is traces for t in self._seen):
            return
        self._seen.append(traces)
        if self._n_cases >= self.settings.max_cases:
            self._skipped += 1
            if self._skipped == 1:
                self.say(f"more than {self.settings.max_cases} compiled entries: later ones are not recorded "
                         "(THUNDER_WB_RECORD_MAX_CASES)")
            return
        self._n_cases += 1

        entry = None
        for e in getattr(cs, "interpreter_cache", None) or []:
            if getattr(e, "computation_traces", None) is traces:
                entry = e
                break
        prologue = list(getattr(entry, "prologue_traces", None) or getattr(cs, "last_prologue_traces", None) or [])
        backward = list((getattr(entry, "backward_traces", None) if entry is not None
                         else getattr(cs, "last_backward_traces", None)) or [])
        epilogue = getattr(entry, "epilogue_traces", None) if entry is not None else getattr(cs, "last_epilogue_traces", None)
        if epilogue is None:
            epilogue = []
        elif not isinstance(epilogue, (list, tuple)):
            epilogue = [epilogue]
        forward = list(traces)

        target = fn.forward if hasattr(fn, "forward") and hasattr(fn, "named_parameters") else fn
        fname = getattr(fn, "__name__", None) or type(fn).__name__
        if hasattr(fn, "named_parameters"):
            fname = type(fn).__name__
        base = f"{fx}_{fname}" if fx else fname
        man = self.manifest()
        case = man.new_case_dir(base)
        rel = man.case_path(case)
        case_dir = os.path.join(self.settings.capture_dir, rel)

        errors = []
        meta = self._meta(jfn, fn, target, args, kwargs, result, forward, backward, wall, errors)
        meta["case"] = case
        if self._rank is not None:
            meta["distributed"] = dict(self._rank, **_distributed.transform_info(jfn, fn, args, kwargs))
        stages = collector.stages if collector.compiled else []
        meta, counts = layout.write_case(case_dir, {"prologue": prologue, "forward": forward,
                                                    "backward": backward, "epilogue": epilogue}, stages, meta)

        if self.settings.save_inputs:
            try:
                info = self._save_tensors(os.path.join(case_dir, "tensors.safetensors"), _parameter_owner(jfn, fn),
                                          target, args, kwargs, snap)
                meta["tensors"] = info
            except Exception as e:
                errors.append(f"--save-inputs: {type(e).__name__}: {e}")

        profile_file = None
        if self.settings.profile:
            from . import profile as _profile

            self._profiling = True
            try:
                summary = _profile.profile_case(self, jfn, args, kwargs, entry, forward, backward,
                                                os.path.join(case_dir, "profile.json"))
                if summary is not None:
                    profile_file = "profile.json"
                    meta.setdefault("timings", {})["thunder"] = summary
            except Exception as e:
                errors.append(f"--profile: {type(e).__name__}: {e}")
                if os.environ.get("THUNDER_WB_RECORD_DEBUG"):
                    traceback.print_exc()
            finally:
                self._profiling = False

        meta["errors"] = errors
        layout.write_json(os.path.join(case_dir, "meta.json"), meta)
        where = {} if self._rank is None else {"case": case, "rank": self._rank["rank"]}
        man.add_case({"name": rel, "dir": rel, **where, "function": getattr(fn, "__qualname__", fname),
                      "counts": counts, "training": bool(backward), "profile": profile_file,
                      "tensors": "tensors.safetensors" if "tensors" in meta else None, "errors": errors})
        parts = ", ".join(f"{k} {counts[k]}" for k in ("prologue", "forward", "backward", "epilogue", "stages"))
        self.say(f"captured {rel} ({parts}){' + profile' if profile_file else ''}"
                 + (f"; {len(errors)} problem(s): {'; '.join(errors)}" if errors else ""))

    def _input_names(self, target, args, kwargs):
        names = []
        try:
            sig = inspect.signature(target)
            params = list(sig.parameters.values())
            pos = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            var = next((p for p in params if p.kind == p.VAR_POSITIONAL), None)
            for i in range(len(args)):
                if i < len(pos):
                    names.append(pos[i].name)
                elif var is not None:
                    names.append(f"{var.name}{i - len(pos)}")
                else:
                    names.append(f"arg{i}")
        except (TypeError, ValueError):
            names = [f"arg{i}" for i in range(len(args))]
        return names

    def _meta(self, jfn, fn, target, args, kwargs, result, forward, backward, wall, errors):
        import thunder

        names = self._input_names(target, args, kwargs)
        inputs = [describe(a, n) for a, n in zip(args, names)]
        inputs += [describe(v, k) for k, v in kwargs.items()]
        meta = {
            "case": None,
            "description": "recorded by thunder-wb record from %s: thunder.jit(%s)" % (
                " ".join(sys.argv) or sys.executable, getattr(fn, "__qualname__", type(fn).__name__)),
            "training": bool(backward),
            "inputs": inputs,
        }
        if hasattr(fn, "named_parameters"):
            try:
                mod = _parameter_owner(jfn, fn)
                meta["parameters"] = [{"name": n, "shape": list(p.shape), "dtype": _dtype_name(p.dtype),
                                       "device": str(p.device), "requires_grad": bool(p.requires_grad)}
                                      for n, p in mod.named_parameters()]
                meta["num_parameters"] = sum(int(p.numel()) for _, p in mod.named_parameters())
                meta["buffers"] = [{"name": n, "shape": list(b.shape), "dtype": _dtype_name(b.dtype)}
                                   for n, b in mod.named_buffers()]
            except Exception as e:
                errors.append(f"parameters: {type(e).__name__}: {e}")
        meta["outputs"] = [describe(v) for v in _flatten(result, []) if _is_tensor(v)]
        th = {"first_call_wall_s": wall}
        try:
            cd = thunder.compile_data(jfn)
            th["executors_list"] = [getattr(ex, "name", str(ex)) for ex in cd.executors_list]
        except Exception as e:
            errors.append(f"executors: {type(e).__name__}: {e}")
        used = set()
        for key, t in (("final_forward_claimed_by", forward[-1] if forward else None),
                       ("final_backward_claimed_by", backward[-1] if backward else None)):
            if t is None:
                continue
            claimed = {}
            if getattr(t, "bound_symbols", None) is None:
                continue
            try:
                for b in t.bound_symbols:
                    ex = _executor_name(b) or "(no executor: unpack/return/del etc.)"
                    name = _call_name(b) or "?"
                    claimed.setdefault(ex, {})
                    claimed[ex][name] = claimed[ex].get(name, 0) + 1
                    if _executor_name(b):
                        used.add(ex)
            except Exception as e:
                errors.append(f"{key}: {type(e).__name__}: {e}")
            th[key] = claimed
        th["executors_used"] = sorted(used)
        meta["thunder"] = th
        meta["recorder"] = {"argv": list(sys.argv), "pid": os.getpid(), **_versions()}
        meta["timings"] = {"thunder_first_call_wall_s": wall}
        return meta

    def _save_tensors(self, path, fn, target, args, kwargs, snap=None):
        """@snap: the Snapshot taken before the call ran, or None: the inputs and buffers are then saved as
        they are after it."""
        names = self._input_names(target, args, kwargs)
        tensors = {}
        written = snap.written(args, kwargs, names, fn) if snap is not None else []
        copied = snap is not None and snap.copied and snap.matches(args, kwargs)
        if copied:
            args, kwargs = snap.inputs(args, kwargs)
        for a, n in zip(args, names):
            if _is_tensor(a):
                tensors[f"input.{n}"] = a
        for k, v in kwargs.items():
            if _is_tensor(v):
                tensors[f"input.{k}"] = v
        if hasattr(fn, "named_parameters"):
            for n, p in fn.named_parameters():
                tensors[f"param.{n}"] = p
            for n, b in fn.named_buffers():
                tensors[f"buffer.{n}"] = snap.buffer(n, b) if copied else b
        info = {"file": "tensors.safetensors", "tensors": {}}
        raws = {}
        for k, t in list(tensors.items()):
            if hasattr(t, "to_local") and hasattr(t, "placements"):
                # a DTensor: its own storage is not its data; the rank's local tensor is what the workbench
                # passes for it (executors/wb-case-inputs.c)
                t = tensors[k] = t.to_local()
            if getattr(t, "is_meta", False):
                info["tensors"][k] = {"shape": list(t.shape), "dtype": _dtype_name(t.dtype), "saved": "no",
                                      "why": "a meta tensor (no data)"}
                continue
            try:
                raws[k] = safetensors.raw_from_torch(t)
                info["tensors"][k] = {"shape": list(t.shape), "dtype": _dtype_name(t.dtype), "saved": "full",
                                      "key": k}
            except ValueError as e:
                info["tensors"][k] = {"shape": list(t.shape), "dtype": _dtype_name(t.dtype), "saved": "no",
                                      "why": str(e)}
        info["bytes"] = safetensors.write(path, raws, {"format": "pt", "creator": "thunder-wb record"})
        if copied:
            info["note"] = ("the inputs and buffers as they were before the recorded call; parameters as they "
                            "were after it returned")
        else:
            info["note"] = "the inputs, parameters and buffers of the recorded call, as they were after it returned"
        if written:
            # what the call wrote in place: saved as it was before the call, but for parameters (never
            # copied) and for a call that was not copied (see _snapshot), listed in "saved_after_write"
            info["inputs_written_in_place"] = written
            after = [k for k in written if k.startswith("param.") or not copied]
            if after:
                info["saved_after_write"] = after
                self.say(f"{', '.join(after)}: written in place by the call and saved as it was after it")
        elif copied:
            info["inputs_written_in_place"] = []
        return info
