#!/usr/bin/env python3
# test_record_python.py — unit tests of the recorder's pure-Python parts, with no torch or thunder:
# the safetensors writer (RawTensors, and torch-like mock tensors through raw_from_torch), the case
# folder layout and manifest (and a distributed program's per-rank manifests and rank_info), stage file
# names, and the kernel-to-entry attribution of profile.py.
# Run by meson (suite app): python3 tests/record/test_record_python.py, with PYTHONPATH=python/.
# SPDX-License-Identifier: GPL-3.0-or-later
import ctypes
import json
import os
import struct
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

from thunder_wb_record import layout, safetensors  # noqa: E402
from thunder_wb_record import profile as wbprofile  # noqa: E402


class MockDtype:
    def __init__(self, name, size):
        self.name, self.size = name, size

    def __str__(self):
        return "torch." + self.name


class MockTensor:
    """Just what raw_from_torch uses: dtype, shape, detach/to/contiguous, numel, element_size, data_ptr."""

    def __init__(self, ctype, dtype_name, values, shape):
        self._buf = (ctype * len(values))(*values)
        self.dtype = MockDtype(dtype_name, ctypes.sizeof(ctype))
        self.shape = shape
        self.moved_to = None

    def detach(self):
        return self

    def to(self, device):
        self.moved_to = device
        return self

    def contiguous(self):
        return self

    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def element_size(self):
        return self.dtype.size

    def data_ptr(self):
        return ctypes.addressof(self._buf)


class SafetensorsTest(unittest.TestCase):
    def test_round_trip(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.safetensors")
            a = safetensors.RawTensor("F32", [2, 3], struct.pack("<6f", *range(6)))
            b = safetensors.RawTensor("I64", [], struct.pack("<q", -7))
            e = safetensors.RawTensor("BF16", [0, 4], b"")
            size = safetensors.write(path, {"input.x": a, "param.0.weight": b, "empty": e}, {"format": "pt"})
            self.assertEqual(size, os.path.getsize(path))
            with open(path, "rb") as f:
                blob = f.read()
            (n,) = struct.unpack("<Q", blob[:8])
            self.assertEqual(n % 8, 0, "header padded to 8 bytes")
            header = json.loads(blob[8:8 + n])
            self.assertEqual(header["__metadata__"], {"format": "pt"})
            self.assertEqual(header["input.x"], {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]})
            self.assertEqual(header["param.0.weight"]["data_offsets"], [24, 32])
            self.assertEqual(header["empty"]["data_offsets"], [32, 32])
            tensors, meta = safetensors.read(path)
            self.assertEqual(list(tensors), ["input.x", "param.0.weight", "empty"])
            self.assertEqual(struct.unpack("<6f", tensors["input.x"].data), tuple(float(i) for i in range(6)))
            self.assertEqual(struct.unpack("<q", tensors["param.0.weight"].data), (-7,))
            self.assertEqual(meta, {"format": "pt"})
            self.assertFalse(any(n.endswith(".tmp" + str(os.getpid())) for n in os.listdir(d)))

    def test_torch_like(self):
        t = MockTensor(ctypes.c_float, "float32", [1.5, -2.0, 3.25, 0.0], [2, 2])
        r = safetensors.raw_from_torch(t)
        self.assertEqual((r.dtype, r.shape), ("F32", [2, 2]))
        self.assertEqual(struct.unpack("<4f", r.data), (1.5, -2.0, 3.25, 0.0))
        self.assertEqual(t.moved_to, "cpu")
        i = MockTensor(ctypes.c_int64, "int64", [3, 4], [2])
        self.assertEqual(safetensors.raw_from_torch(i).dtype, "I64")
        with self.assertRaises(ValueError):
            safetensors.raw_from_torch(MockTensor(ctypes.c_float, "float4_e2m1fn_x2", [1.0], [1]))

    def test_bad_sizes(self):
        with self.assertRaises(ValueError):
            safetensors.RawTensor("F32", [3], b"\0" * 8)
        with self.assertRaises(ValueError):
            safetensors.RawTensor("F31", [1], b"\0" * 4)


class LayoutTest(unittest.TestCase):
    def test_write_case(self):
        class Trace:  # str() is what the recorder writes, as for Thunder's TraceCtx
            def __init__(self, text):
                self.text = text

            def __str__(self):
                return self.text

        fw0 = "import torch\n\ndef computation(x):\n  return (x,)\n"
        fw1 = "# Constructed by Delete Last Used (took 0 milliseconds)\nimport torch\n\ndef computation(x):\n  return (x,)"
        with tempfile.TemporaryDirectory() as d:
            man = layout.Manifest(d, {"torch": None})
            name = man.new_case_dir("my fn<lambda>")
            self.assertEqual(name, "my_fn_lambda")
            self.assertEqual(man.new_case_dir("my fn<lambda>"), "my_fn_lambda_1")
            case = os.path.join(d, name)
            meta, counts = layout.write_case(
                case, {"prologue": [Trace("def prologue(*args, **kwargs):\n  pass\n")], "forward": [Trace(fw0), fw1],
                       "backward": [], "epilogue": []},
                [("operator_executor_execution[__ad_hoc_executor_1,sdpa,torch]", fw0), ("fusion_pass[torchcompile]", fw1)],
                {"inputs": [{"name": "x"}]})
            self.assertEqual(counts, {"prologue": 1, "forward": 2, "backward": 0, "epilogue": 0, "stages": 2})
            self.assertEqual(sorted(os.listdir(case)), ["forward_00.py", "forward_01.py", "meta.json", "prologue_00.py", "stages"])
            self.assertEqual(sorted(os.listdir(os.path.join(case, "stages"))),
                             ["00_operator_executor_execution___ad_hoc_executor_1_sdpa_torch_.py", "01_fusion_pass_torchcompile_.py"])
            with open(os.path.join(case, "forward_01.py"), encoding="utf-8") as f:
                self.assertEqual(f.read(), fw1 + "\n")
            with open(os.path.join(case, "meta.json"), encoding="utf-8") as f:
                m = json.load(f)
            self.assertEqual(m["inputs"], [{"name": "x"}])
            self.assertEqual(m["thunder"]["num_traces"], {"prologue": 1, "forward": 2, "backward": 0, "epilogue": 0})
            self.assertEqual(m["thunder"]["traces"][2]["provenance"], "# Constructed by Delete Last Used (took 0 milliseconds)")
            self.assertEqual(m["thunder"]["captured_stages"][1]["stage"], "fusion_pass[torchcompile]")
            man.add_case({"name": name, "dir": name, "counts": counts})
            with open(os.path.join(d, layout.MANIFEST), encoding="utf-8") as f:
                rec = json.load(f)
            self.assertEqual((rec["schema"], rec["version"]), ("thunder-wb/record", 1))
            self.assertEqual([c["dir"] for c in rec["cases"]], [name])
            # a second process's manifest keeps the first one's cases
            other = layout.Manifest(d)
            other.add_case({"name": "g", "dir": "g"})
            with open(os.path.join(d, layout.MANIFEST), encoding="utf-8") as f:
                self.assertEqual([c["dir"] for c in json.load(f)["cases"]], [name, "g"])

    def test_rank_manifests(self):
        """A distributed program's ranks: <case>/rank<R>/ and record-rank<R>.json, names taken per rank."""
        from thunder_wb_record import distributed

        with tempfile.TemporaryDirectory() as d:
            r1 = layout.Manifest(d, {"distributed": {"world_size": 2, "rank": 1}}, rank=1)
            r0 = layout.Manifest(d, None, rank=0)
            self.assertEqual(r1.new_case_dir("f"), "f")
            self.assertEqual(r0.new_case_dir("f"), "f")  # the same entry has the same name on every rank
            self.assertEqual(r1.new_case_dir("f"), "f_1")
            self.assertEqual(r1.case_path("f_1"), "f_1/rank1")
            self.assertTrue(os.path.isdir(os.path.join(d, "f", "rank0")))
            self.assertTrue(os.path.isdir(os.path.join(d, "f", "rank1")))
            self.assertTrue(os.path.isdir(os.path.join(d, "f_1", "rank1")))
            r1.add_case({"name": "f/rank1", "dir": "f/rank1", "case": "f", "rank": 1})
            r0.add_case({"name": "f/rank0", "dir": "f/rank0", "case": "f", "rank": 0})
            self.assertEqual(sorted(os.listdir(d)), ["f", "f_1", "record-rank0.json", "record-rank1.json"])
            with open(os.path.join(d, "record-rank1.json"), encoding="utf-8") as f:
                rec = json.load(f)
            self.assertEqual(rec["distributed"], {"world_size": 2, "rank": 1})
            self.assertEqual([c["dir"] for c in rec["cases"]], ["f/rank1"])
            # a restarted rank reads its own manifest: its names stay taken
            self.assertEqual(layout.Manifest(d, None, rank=1).new_case_dir("f"), "f_2")
        # without torch.distributed, the environment torchrun sets says the rank
        env = {k: os.environ.get(k) for k in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "TORCHELASTIC_RUN_ID")}
        try:
            os.environ.update(RANK="3", WORLD_SIZE="4", LOCAL_RANK="1", TORCHELASTIC_RUN_ID="x")
            self.assertEqual(distributed.rank_info(), {"world_size": 4, "rank": 3, "local_rank": 1, "backend": None,
                                                       "launcher": "torchrun"})
            os.environ["RANK"] = "not a number"
            self.assertIsNone(distributed.rank_info())
            for k in ("RANK", "WORLD_SIZE"):
                del os.environ[k]
            self.assertIsNone(distributed.rank_info())
        finally:
            for k, v in env.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        self.assertEqual(distributed.transform_info(object()),
                         {"transform": None, "sharding_strategy": None, "transforms": [], "dtensor": False})

    def test_safe_name(self):
        self.assertEqual(layout.safe_name("../etc/passwd"), "etc_passwd")
        self.assertEqual(layout.safe_name(""), "case")
        self.assertEqual(layout.safe_name("...", "x"), "x")


def X(name, ts, dur, cat, **args):
    return {"ph": "X", "name": name, "ts": ts, "dur": dur, "cat": cat, "pid": 1, "tid": 7, "args": args}


class AttributionTest(unittest.TestCase):
    def test_cuda(self):
        ev = [
            X("thunder-wb-iteration:0", 100.0, 50.0, "user_annotation"),
            X("thunder-wb:TorchCompile0", 101.0, 5.0, "user_annotation"),
            X("cudaLaunchKernel", 102.0, 1.0, "cuda_runtime", correlation=11),
            X("cuLaunchKernel", 104.0, 1.0, "cuda_driver", correlation=12),
            X("thunder-wb:torch.nn.functional.linear", 110.0, 3.0, "user_annotation"),
            X("cudaLaunchKernel", 111.0, 1.0, "cuda_runtime", correlation=13),
            X("thunder-wb:TorchCompile0#2", 120.0, 1.0, "user_annotation"),
            X("cudaLaunchKernel", 130.0, 1.0, "cuda_runtime", correlation=14),  # between entries
            X("triton_poi_0", 140.0, 2.5, "kernel", correlation=11, grid=[4, 1, 1], block=[128, 1, 1], stream=7),
            X("triton_red_1", 143.0, 1.5, "kernel", correlation=12),
            X("sm90_gemm", 146.0, 4.0, "kernel", correlation=13, **{"registers per thread": 168, "shared memory": 1024}),
            X("stray", 151.0, 1.0, "kernel", correlation=14),
            X("profiler_own", 300.0, 1.0, "kernel", correlation=99),  # no launch seen: not in an iteration
            X("thunder-wb-iteration:1", 200.0, 10.0, "user_annotation"),
        ]
        names = ["TorchCompile0", "torch.nn.functional.linear", "TorchCompile0#2"]
        times, cpu, counts, kernels, unattributed, n_iters = wbprofile.attribute(ev, names, 2, True)
        self.assertEqual(n_iters, 2)
        self.assertEqual(times["TorchCompile0"], [4000, 0])
        self.assertEqual(times["torch.nn.functional.linear"], [4000, 0])
        self.assertEqual(times["TorchCompile0#2"], [0, 0])
        self.assertEqual(cpu["TorchCompile0"], [5000, 0])
        self.assertEqual(counts["TorchCompile0"], [2, 0])
        self.assertEqual(unattributed, 1)
        self.assertEqual([k["name"] for k in kernels], ["triton_poi_0", "triton_red_1", "sm90_gemm", "stray"])
        self.assertEqual(kernels[0]["start_ns"], 40000)
        self.assertEqual((kernels[0]["grid"], kernels[0]["block"], kernels[0]["stream"]), ([4, 1, 1], [128, 1, 1], 7))
        self.assertEqual((kernels[2]["registers"], kernels[2]["shared_bytes"], kernels[2]["region"]), (168, 1024, "torch.nn.functional.linear"))
        self.assertIsNone(kernels[3]["region"])

    def test_cpu(self):
        ev = [
            X("thunder-wb-iteration:0", 0.0, 10.0, "user_annotation"),
            X("thunder-wb:torch.add", 1.0, 2.0, "user_annotation"),
            X("thunder-wb:torch.add#2", 4.0, 0.5, "user_annotation"),
        ]
        times, cpu, counts, kernels, unattributed, n = wbprofile.attribute(ev, ["torch.add", "torch.add#2"], 1, False)
        self.assertEqual(times, {"torch.add": [2000], "torch.add#2": [500]})
        self.assertEqual([(k["name"], k["region"]) for k in kernels], [("torch.add", "torch.add"), ("torch.add", "torch.add#2")])


if __name__ == "__main__":
    unittest.main(verbosity=2)
