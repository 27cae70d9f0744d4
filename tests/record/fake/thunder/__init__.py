# A stand-in for Lightning Thunder in the recorder's tests (tests/record): thunder.jit returns a function
# whose compile stats hold, after its first call, the traces of $WB_FAKE_TRACES (a folder laid out like
# ../shared/traces/<case>/, e.g. data/samples/mlp_small) as texts, the way thunder.last_traces(jfn) holds
# TraceCtx objects; the "compile" goes through thunder.executors.passes so the recorder sees a stage.
import functools
import os

import thunder.executors.passes as _passes

__version__ = "0.0+fake"


class _Text:
    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text


class _Executor:
    def __init__(self, name):
        self.name = name


class CompileStats:
    def __init__(self):
        self.last_traces = None
        self.last_prologue_traces = None
        self.last_backward_traces = None
        self.last_epilogue_traces = None
        self.interpreter_cache = []
        self.calls = 0


class CompileData:
    def __init__(self):
        self.executors_list = [_Executor("sdpa"), _Executor("torchcompile"), _Executor("torch"), _Executor("python")]


def _load(kind):
    d = os.environ["WB_FAKE_TRACES"]
    names = sorted(n for n in os.listdir(d) if n.startswith(kind + "_") and n.endswith(".py"))
    out = []
    for n in names:
        with open(os.path.join(d, n), encoding="utf-8") as f:
            out.append(_Text(f.read()))
    return out


def jit(fn, **kwargs):
    cs = CompileStats()

    @functools.wraps(fn)
    def fn_(*args, **kw):
        cs.calls += 1
        if cs.last_traces is None:  # the first call compiles
            forward = _load("forward")
            _passes.transform_for_execution(forward[-1], CompileData().executors_list)
            cs.last_traces = forward
            cs.last_prologue_traces = _load("prologue")
            cs.last_backward_traces = _load("backward")
            cs.last_epilogue_traces = _load("epilogue")
        return fn(*args, **kw)

    fn_._lc_cs = cs
    fn_._lc_cd = CompileData()
    return fn_


def compile_stats(fn):
    return getattr(fn, "_lc_cs", None)


def compile_data(fn):
    return getattr(fn, "_lc_cd", None)


def last_traces(fn):
    return compile_stats(fn).last_traces
