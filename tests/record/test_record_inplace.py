#!/usr/bin/env python3
# test_record_inplace.py — the recorder saves what a compiled call received, not what it left: real
# PyTorch tensors written in place by the program (an argument, as T5's `relative_buckets += where(...)`
# in a ThunderFX subgraph; a module's buffer), through Recorder.patch_thunder with a stand-in for
# thunder.jit that "compiles" a new entry per input shape (so an entry can be compiled on any call).
# The values expected are the ones the test built before each call. Exit 77 (skipped) when the Python
# ($WB_RECORD_PYTHON, default python3) has no torch. Run by meson (suite app) through sh.
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import os
import struct
import sys
import tempfile
import types
import unittest

try:
    import torch
except ImportError:
    print("SKIP: no torch in this Python (set WB_RECORD_PYTHON to one with PyTorch)")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))


class _CompileStats:
    def __init__(self):
        self.last_traces = None
        self.last_prologue_traces = []
        self.last_backward_traces = []
        self.last_epilogue_traces = []
        self.interpreter_cache = []
        self.entries = {}


class _ThunderModule(torch.nn.Module):
    """Like thunder.core.module.ThunderModule: forward() calls self._forward_fn; _model is the module."""

    def __init__(self, model, forward_fn):
        super().__init__()
        self._model = model
        self._forward_fn = forward_fn

    def forward(self, *args, **kwargs):
        return self._forward_fn(*args, **kwargs)

    def named_parameters(self, *args, **kwargs):  # the model's names, as ThunderModule's overrides
        return self._model.named_parameters(*args, **kwargs)

    def named_buffers(self, *args, **kwargs):
        return self._model.named_buffers(*args, **kwargs)


def _fake_thunder():
    """A module named thunder whose jit() keeps one entry (a new last_traces list) per input shape."""
    th = types.ModuleType("thunder")
    th.__version__ = "0.0+inplace-test"

    def jit(fn, **_):
        cs = _CompileStats()
        target = fn.forward if isinstance(fn, torch.nn.Module) else fn

        def run(*args, **kwargs):
            key = tuple(tuple(a.shape) for a in args if isinstance(a, torch.Tensor))
            if key not in cs.entries:
                cs.entries[key] = ["# a fake forward trace for %r\n" % (key,)]
            cs.last_traces = cs.entries[key]
            return target(*args, **kwargs)

        if isinstance(fn, torch.nn.Module):
            tm = _ThunderModule(fn, run)
            tm._lc_cs = cs
            return tm
        run._lc_cs = cs
        return run

    th.jit = jit
    th.compile_stats = lambda f: getattr(f, "_lc_cs", None)
    th.compile_data = lambda f: None
    return th


def _load(path):
    """{key: torch tensor} from a safetensors file (read here, not with the recorder's writer)."""
    dtypes = {"I64": torch.int64, "F32": torch.float32}
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for k, v in header.items():
        if k == "__metadata__":
            continue
        a, b = v["data_offsets"]
        out[k] = torch.frombuffer(bytearray(data[a:b]), dtype=dtypes[v["dtype"]]).reshape(v["shape"]).clone()
    return out


class Counter(torch.nn.Module):
    """Writes its buffer in place (a step counter) and its argument (a cache), reads both."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
        self.register_buffer("steps", torch.tensor([5.0, 6.0]))

    def forward(self, cache):
        self.steps.add_(1.0)
        cache.mul_(3.0)
        return self.w * self.steps + cache


class InPlaceTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="wb-inplace-")
        os.environ["THUNDER_WB_RECORD_QUIET"] = "1"
        os.environ["THUNDER_WB_RECORD_STAGES"] = "0"
        from thunder_wb_record import recorder, settings

        self.thunder = _fake_thunder()
        sys.modules["thunder"] = self.thunder
        self.rec = recorder.Recorder(settings.Settings(capture_dir=self.dir, save_inputs=True, profile=False))
        self.rec.patch_thunder(self.thunder)

    def tearDown(self):
        sys.modules.pop("thunder", None)

    def case(self, name):
        with open(os.path.join(self.dir, "record.json")) as f:
            cases = [c["dir"] for c in json.load(f)["cases"]]
        self.assertIn(name, cases)
        with open(os.path.join(self.dir, name, "meta.json")) as f:
            meta = json.load(f)
        return _load(os.path.join(self.dir, name, "tensors.safetensors")), meta["tensors"]

    def test_argument_written_in_place(self):
        # T5's relative buckets: the index the call received is 0 or 16; the call adds 0..15 to it
        def buckets(b, x):
            b += x
            return b * 2

        jb = self.thunder.jit(buckets)
        b = torch.tensor([16, 0, 16, 0])
        x = torch.tensor([15, 15, 3, 0])
        jb(b, x)
        self.assertEqual(b.tolist(), [31, 15, 19, 0])  # the program did write it
        t, info = self.case("buckets")
        self.assertEqual(t["input.b"].tolist(), [16, 0, 16, 0])
        self.assertEqual(t["input.x"].tolist(), [15, 15, 3, 0])
        self.assertEqual(info["inputs_written_in_place"], ["input.b"])
        self.assertNotIn("saved_after_write", info)

    def test_buffer_written_in_place(self):
        tm = self.thunder.jit(Counter())
        cache = torch.tensor([1.0, -1.0])
        out = tm(cache)
        self.assertEqual(out.tolist(), [1.0 * 6.0 + 3.0, 2.0 * 7.0 - 3.0])
        t, info = self.case("Counter")
        self.assertEqual(t["buffer.steps"].tolist(), [5.0, 6.0])
        self.assertEqual(t["input.cache"].tolist(), [1.0, -1.0])
        self.assertEqual(t["param.w"].tolist(), [1.0, 2.0])
        self.assertEqual(sorted(info["inputs_written_in_place"]), ["buffer.steps", "input.cache"])
        self.assertTrue(info["note"].startswith("the inputs and buffers as they were before"))

    def test_entry_compiled_on_a_later_call(self):
        # a callable that writes its input is copied before every call, so an entry compiled on the
        # fifth call (a new shape) is saved as that call received it
        def grow(v):
            v.add_(10)
            return v.sum()

        jg = self.thunder.jit(grow)
        for _ in range(4):
            jg(torch.zeros(2, dtype=torch.int64))
        v = torch.tensor([1, 2, 3])
        jg(v)
        self.assertEqual(v.tolist(), [11, 12, 13])
        t, info = self.case("grow_1")
        self.assertEqual(t["input.v"].tolist(), [1, 2, 3])
        self.assertEqual(info["inputs_written_in_place"], ["input.v"])

    def test_late_first_write_is_reported(self):
        # a callable that wrote nothing on its first calls is not copied later (timed loops pay nothing);
        # when an entry compiled later writes its input, the file says the value is the one after the call
        from thunder_wb_record import snapshot

        copies = []
        orig = snapshot.Snapshot.__init__

        def counting(self_, args, kwargs, owner=None, copy=True):
            copies.append(copy)
            orig(self_, args, kwargs, owner, copy)

        def late(v):
            if v.numel() == 3:
                v.add_(10)
            return v.sum()

        jl = self.thunder.jit(late)
        snapshot.Snapshot.__init__ = counting
        try:
            for _ in range(4):
                jl(torch.zeros(2, dtype=torch.int64))
            jl(torch.tensor([1, 2, 3]))
        finally:
            snapshot.Snapshot.__init__ = orig
        self.assertEqual(copies, [True, True, False, False, False])
        t, info = self.case("late_1")
        self.assertEqual(t["input.v"].tolist(), [11, 12, 13])
        self.assertEqual(info["saved_after_write"], ["input.v"])


if __name__ == "__main__":
    unittest.main()
