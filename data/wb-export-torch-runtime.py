# wb-export-torch-runtime.py — the fixed part of every script `thunder-wb --headless export --as torch` writes.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# data/wb-export-torch.c pastes this text after the script's imports and before the program it generates
# (the stage's functions and the _WB_* tables); the script ends with `sys.exit(_wb_main())`. Everything
# here is named _wb_* / _WB_* so that no name of a trace can collide with it. Only the standard library and
# torch are used: safetensors files are read and written by the small reader/writer below.
# It must stay valid Python on its own (the build embeds it verbatim; tests parse it with ast).

import argparse
import ctypes
import json
import math
import statistics
import struct
import sys
import time

import torch

# -- device -------------------------------------------------------------------------------------------------

# Every CUDA device of the trace ("cuda:0", devices.Device("cuda:0"), torch.device("cuda:0")) runs on
# _wb_DEVICE, chosen with --device; "cpu" stays on the CPU.
_wb_DEVICE = torch.device("cpu")
_wb_CPU = torch.device("cpu")


def _wb_set_device(name):
    global _wb_DEVICE
    _wb_DEVICE = torch.device(name)


def _wb_map_device(d):
    s = str(d)
    if s.startswith("cuda"):
        return _wb_DEVICE
    if s == "meta":
        return torch.device("meta")
    return _wb_CPU


# -- prims that need more than one PyTorch call -------------------------------------------------------------


def _wb_broadcast_in_dim(a, shape, broadcast_dimensions):
    # prims.broadcast_in_dim: dims of `a` go to broadcast_dimensions, the others are new (size 1, expanded).
    v = a
    for d in range(len(shape)):
        if d not in broadcast_dimensions:
            v = v.unsqueeze(d)
    return v.expand(tuple(shape))


def _wb_slice(a, start_indices, end_indices, strides=None):
    if strides is None:
        strides = (1,) * len(start_indices)
    return a[tuple(slice(s, e, st) for s, e, st in zip(start_indices, end_indices, strides))]


def _wb_pad(a, padding_value, padding_config):
    # prims.pad: (lo, hi, interior) per dim; lo/hi may be negative (cropping), interior inserts values.
    if all(interior == 0 for _, _, interior in padding_config):
        flat = []
        for lo, hi, _ in reversed(padding_config):
            flat += [lo, hi]
        return torch.nn.functional.pad(a, flat, value=padding_value)
    shape = []
    index = []
    for size, (lo, hi, interior) in zip(a.shape, padding_config):
        full = size + max(size - 1, 0) * interior
        shape.append(full)
        index.append(slice(0, full, interior + 1))
    out = torch.full(shape, padding_value, dtype=a.dtype, device=a.device)
    out[tuple(index)] = a
    return _wb_pad(out, padding_value, [(lo, hi, 0) for lo, hi, _ in padding_config])


def _wb_squeeze(a, dims):
    for d in sorted((d % a.ndim for d in dims), reverse=True):
        a = a.squeeze(d)
    return a


def _wb_stride_order(a, order):
    # order[i] is the rank of dim i's stride (0 = innermost): lay the data out that way, values unchanged.
    perm = sorted(range(a.ndim), key=lambda i: order[i], reverse=True)
    inverse = [0] * a.ndim
    for position, dim in enumerate(perm):
        inverse[dim] = position
    return a.permute(perm).contiguous().permute(inverse)


def _wb_sum(a, dims):
    return a.sum(tuple(dims)) if len(dims) > 0 else a.clone()


def _wb_prod(a, dims):
    for d in sorted((d % a.ndim for d in dims), reverse=True):
        a = a.prod(d)
    return a


def _wb_div(a, b):
    # prims.div: true division for inexact operands, truncation for two exact (integer or bool) ones.
    def exact(x):
        if isinstance(x, torch.Tensor):
            return not (x.dtype.is_floating_point or x.dtype.is_complex)
        return isinstance(x, (bool, int))

    if exact(a) and exact(b):
        if not isinstance(a, torch.Tensor) and not isinstance(b, torch.Tensor):
            q = abs(a) // abs(b)
            return q if (a >= 0) == (b >= 0) else -q
        if not isinstance(a, torch.Tensor):
            a = torch.tensor(a, device=b.device)
        return torch.div(a, b, rounding_mode="trunc")
    return a / b


def _wb_scalar(fn, *args):
    # An elementwise prim whose operands are all Python numbers: compute it in double precision.
    def tensor(x):
        if isinstance(x, bool):
            return torch.tensor(x)
        if isinstance(x, int):
            return torch.tensor(x, dtype=torch.int64)
        if isinstance(x, complex):
            return torch.tensor(x, dtype=torch.complex128)
        return torch.tensor(x, dtype=torch.float64)

    return fn(*[tensor(x) for x in args]).item()


def _wb_st(x, like):
    # A Python number as a 0-d tensor beside `like`: PyTorch promotes it as it promotes a number.
    if isinstance(x, torch.Tensor):
        return x
    return torch.tensor(x, device=like.device)


def _wb_convert(a, dtype):
    if isinstance(a, torch.Tensor):
        return a.to(dtype)
    if dtype is bool or dtype == torch.bool:
        return bool(a)
    if dtype is int or (isinstance(dtype, torch.dtype) and not dtype.is_floating_point and not dtype.is_complex):
        return int(a)
    if dtype is complex or (isinstance(dtype, torch.dtype) and dtype.is_complex):
        return complex(a)
    return float(a)


def _wb_uniform(shape, minval, maxval, device, dtype):
    return torch.empty(tuple(shape), device=device, dtype=dtype).uniform_(minval, maxval)


def _wb_uniform_philox(shape, minval, maxval, device, dtype, seed, offset):
    # Thunder's philox stream is not reproduced: a generator seeded from (seed, offset) gives uniform values.
    g = torch.Generator(device=device)
    g.manual_seed(int(seed) * 1000003 + int(offset))
    out = torch.empty(tuple(shape), device=device, dtype=dtype)
    return out.uniform_(minval, maxval, generator=g)


def _wb_rng_state(seed, offset, device):
    # prims.get_and_update_rng_state: (seed, offset) for the philox stream; offsets advance by 4 per call.
    if seed is None:
        seed = torch.initial_seed() % (2 ** 63)
    return seed, (0 if offset is None else offset + 4)


def _wb_scatter(a, index, src, dim):
    if isinstance(src, torch.Tensor):
        return torch.scatter(a, dim, index, src)
    return torch.scatter(a, dim, index, value=src)


def _wb_copy_with_setitem(a, key, value):
    out = a.clone()
    out[key] = value
    return out


def _wb_update_aliases(aliases):
    return tuple(x.view_as(x) if isinstance(x, torch.Tensor) else x for x in aliases)


def _wb_embedding(a, weight, padding_idx=-1, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    if padding_idx is None:
        padding_idx = -1
    return torch.embedding(weight, a, padding_idx, scale_grad_by_freq, sparse)


def _wb_clear(collection):
    # clear_mutable_collection: the runner passes lists, so clearing frees what Thunder frees.
    if isinstance(collection, (list, dict)):
        collection.clear()


def _wb_nvtx_push(message):
    if torch.cuda.is_available() and _wb_DEVICE.type == "cuda":
        torch.cuda.nvtx.range_push(message)


def _wb_nvtx_pop():
    if torch.cuda.is_available() and _wb_DEVICE.type == "cuda":
        torch.cuda.nvtx.range_pop()


# prims.get_grad in a joint trace: the cotangent of a forward output. The runner fills the list before each
# call; unsupplied ones are ones.
_wb_COTANGENT_QUEUE = []


def _wb_get_grad(a):
    if _wb_COTANGENT_QUEUE:
        return _wb_COTANGENT_QUEUE.pop(0)
    return torch.ones_like(a)


def _wb_put_grad(grad_for, grad):
    return None


# -- ltorch symbols Thunder prints without a decomposition ----------------------------------------------------


def _wb_nll_loss_backward(grad, a, target, weight, reduction, ignore_index, total_weight):
    red = {"none": 0, "mean": 1, "sum": 2}[reduction]
    # Thunder counts total_weight in the target's integer dtype; ATen wants the input's dtype.
    if isinstance(total_weight, torch.Tensor):
        total_weight = total_weight.to(a.dtype)
    else:
        total_weight = torch.tensor(total_weight, dtype=a.dtype, device=a.device)
    if a.ndim <= 2:
        return torch.ops.aten.nll_loss_backward(grad, a, target, weight, red, ignore_index, total_weight)
    return torch.ops.aten.nll_loss2d_backward(grad, a, target, weight, red, ignore_index, total_weight)


class _WbTorchNamespace:
    """_wb_ltorch.NAME: the PyTorch function an ltorch symbol mirrors (torch.nn.functional.NAME, torch.NAME or
    the Tensor method), for symbols Thunder printed without a decomposition and no torch-executor alias."""

    def __getattr__(self, name):
        for namespace in (torch.nn.functional, torch, torch.Tensor, torch.special, torch.linalg):
            fn = getattr(namespace, name, None)
            if callable(fn):
                return fn
        raise NotImplementedError("thunder-wb: PyTorch has no function named %r" % name)


_wb_ltorch = _WbTorchNamespace()


# -- the sdpa executor's operators (thunder/executors/sdpaex.py) --------------------------------------------
# On CUDA these call the same ATen kernels as Thunder's sdpa executor (memory-efficient: "sdpaex_",
# flash: "sdpafx_"), with its input preparation: last stride 1, head size padded to a multiple of 8 for
# flash, a boolean mask made additive and expanded over the heads. On the CPU a math reference computes the
# same outputs (dropout is not applied there) and the backward recomputes the forward under autograd.


def _wb_sdpa_last_stride_one(t):
    if t is None or t.stride(-1) == 1:
        return t
    return t.contiguous()


def _wb_sdpa_pad8(t):
    size = t.shape[-1]
    if size % 8 == 0:
        return t
    return torch.nn.functional.pad(t, [0, (size + 7) // 8 * 8 - size], value=0.0)


def _wb_sdpa_unpad(t, size):
    return t if size % 8 == 0 else t[..., :size]


def _wb_sdpa_scale(scale, size):
    if scale is not None or size % 8 == 0:
        return scale
    return 1.0 / math.sqrt(size)


def _wb_sdpa_efficient_mask(attn_mask, query):
    if attn_mask is None:
        return None
    if attn_mask.dtype == torch.bool:
        attn_mask = torch.zeros_like(attn_mask, dtype=query.dtype).masked_fill(attn_mask.logical_not(), -math.inf)
    batch, _, lq, lk = attn_mask.shape
    mask = attn_mask.expand(batch, query.shape[1], lq, lk)
    if query.shape[-1] != lk:
        padded = (lk + 7) // 8 * 8
        return torch.nn.functional.pad(mask, [0, padded - lk], value=0.0)[:, :, :, 0:lk]
    return mask.contiguous()


def _wb_sdpa_math(q, k, v, attn_mask, is_causal, scale):
    s = scale if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    att = torch.matmul(q.float(), k.float().transpose(-2, -1)) * s
    if is_causal:
        lq, lk = q.shape[-2], k.shape[-2]
        keep = torch.ones(lq, lk, dtype=torch.bool, device=q.device).tril()
        att = att.masked_fill(keep.logical_not(), -math.inf)
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            att = att.masked_fill(attn_mask.logical_not(), -math.inf)
        else:
            att = att + attn_mask.float()
    lse = torch.logsumexp(att, -1)
    out = torch.matmul(torch.softmax(att, -1), v.float()).to(q.dtype)
    return out, lse


def _wb_sdpa_math_backward(grad_out, q, k, v, attn_mask, is_causal, scale):
    with torch.enable_grad():
        inputs = [x.detach().requires_grad_(True) for x in (q, k, v)]
        mask = attn_mask
        if mask is not None and mask.dtype.is_floating_point:
            mask = mask.detach().requires_grad_(True)
            inputs.append(mask)
        out, _ = _wb_sdpa_math(inputs[0], inputs[1], inputs[2], mask, is_causal, scale)
        grads = torch.autograd.grad(out, inputs, grad_out)
    return list(grads) + [None] * (4 - len(grads))


def _wb_sdpa_efficient_forward(query, key, value, attn_mask, dropout_p=0.0, is_causal=False, scale=None):
    if query.device.type == "cuda":
        return torch.ops.aten._scaled_dot_product_efficient_attention(
            _wb_sdpa_last_stride_one(query),
            _wb_sdpa_last_stride_one(key),
            _wb_sdpa_last_stride_one(value),
            _wb_sdpa_efficient_mask(attn_mask, query),
            True,
            dropout_p,
            is_causal,
            scale=scale,
        )
    out, lse = _wb_sdpa_math(query, key, value, attn_mask, is_causal, scale)
    lq = query.shape[-2]
    lse = torch.nn.functional.pad(lse, [0, (lq + 31) // 32 * 32 - lq])
    zero = torch.zeros((), dtype=torch.int64, device=query.device)
    return out, lse, zero, zero.clone()


def _wb_sdpa_efficient_backward(grad_out, query, key, value, attn_mask, out, logsumexp, philox_seed,
                                philox_offset, dropout_p, is_causal=False, scale=None):
    if query.device.type == "cuda":
        grad_q, grad_k, grad_v, grad_mask = torch.ops.aten._scaled_dot_product_efficient_attention_backward(
            grad_out,
            _wb_sdpa_last_stride_one(query),
            _wb_sdpa_last_stride_one(key),
            _wb_sdpa_last_stride_one(value),
            _wb_sdpa_efficient_mask(attn_mask, query),
            out,
            logsumexp,
            philox_seed,
            philox_offset,
            dropout_p,
            [True, True, True, attn_mask is not None],
            is_causal,
            scale=scale,
        )
        if attn_mask is not None and tuple(grad_mask.shape) != tuple(attn_mask.shape):
            grad_mask = torch.sum(grad_mask, dim=1, keepdim=True)
        return grad_q, grad_k, grad_v, grad_mask
    return tuple(_wb_sdpa_math_backward(grad_out, query, key, value, attn_mask, is_causal, scale))


def _wb_sdpa_flash_forward(query, key, value, dropout_p=0.0, is_causal=False, *, scale=None):
    size = value.shape[-1]
    if query.device.type == "cuda":
        out, *rest = torch.ops.aten._scaled_dot_product_flash_attention(
            _wb_sdpa_pad8(_wb_sdpa_last_stride_one(query)),
            _wb_sdpa_pad8(_wb_sdpa_last_stride_one(key)),
            _wb_sdpa_pad8(_wb_sdpa_last_stride_one(value)),
            dropout_p,
            is_causal,
            return_debug_mask=False,
            scale=_wb_sdpa_scale(scale, size),
        )
        return (_wb_sdpa_unpad(out, size), *rest)
    out, lse = _wb_sdpa_math(query, key, value, None, is_causal, scale)
    batch, lq, lk = query.shape[0], query.shape[-2], key.shape[-2]
    lse = torch.nn.functional.pad(lse, [0, (lq + 15) // 16 * 16 - lq])
    cum = torch.zeros(batch + 1, dtype=torch.int64, device=query.device)
    zero = torch.zeros((), dtype=torch.int64, device=query.device)
    return out, lse, cum, cum.clone(), lq, lk, zero, zero.clone(), zero.clone()


def _wb_sdpa_flash_backward(grad_out, query, key, value, out, logsumexp, cum_seq_q, cum_seq_k, max_q, max_k,
                            dropout_p, is_causal, philox_seed, philox_offset, *, scale=None):
    size = value.shape[-1]
    if query.device.type == "cuda":
        grads = torch.ops.aten._scaled_dot_product_flash_attention_backward(
            _wb_sdpa_pad8(grad_out),
            _wb_sdpa_pad8(_wb_sdpa_last_stride_one(query)),
            _wb_sdpa_pad8(_wb_sdpa_last_stride_one(key)),
            _wb_sdpa_pad8(_wb_sdpa_last_stride_one(value)),
            _wb_sdpa_pad8(out),
            logsumexp,
            cum_seq_q,
            cum_seq_k,
            max_q,
            max_k,
            dropout_p,
            is_causal,
            philox_seed,
            philox_offset,
            scale=_wb_sdpa_scale(scale, size),
        )
        return tuple(_wb_sdpa_unpad(g, size) for g in grads)
    return tuple(_wb_sdpa_math_backward(grad_out, query, key, value, None, is_causal, scale)[:3])


# -- prologue support ----------------------------------------------------------------------------------------
# A prologue reads its inputs from args/kwargs and the module. The script builds the tensors (random or from
# --inputs) and a stand-in module whose get_parameter/get_buffer return them. Values Thunder read from the
# real module or from cache_info and the trace does not print are _WB_UNKNOWN; checks against them pass.


class _WbUnknown:
    def __repr__(self):
        return "<unknown: not printed in the trace>"

    def __getattr__(self, name):
        return self

    def __getitem__(self, key):
        return self

    def __call__(self, *args, **kwargs):
        return self


_WB_UNKNOWN = _WbUnknown()


class _WbModule:
    def __init__(self, tensors):
        self._tensors = tensors

    def get_parameter(self, name):
        return self._tensors[name]

    def get_buffer(self, name):
        return self._tensors[name]

    def get_submodule(self, name):
        return _WB_UNKNOWN


def _wb_check(ok, what):
    if not ok:
        raise AssertionError("prologue check failed: " + what)


def _wb_check_tensor(t, shape, device, dtype, requires_grad=None):
    _wb_check(isinstance(t, torch.Tensor), "not a tensor")
    _wb_check(tuple(t.shape) == tuple(shape), "shape %s, expected %s" % (tuple(t.shape), tuple(shape)))
    _wb_check(t.dtype == dtype, "dtype %s, expected %s" % (t.dtype, dtype))
    _wb_check(t.device.type == _wb_map_device(device).type, "device %s, expected %s" % (t.device, device))


def _wb_check_len(seq, length):
    _wb_check(len(seq) == length, "length %d, expected %d" % (len(seq), length))


def _wb_check_value(x, value):
    if x is _WB_UNKNOWN or value is _WB_UNKNOWN:
        return
    if isinstance(value, torch.device) or isinstance(x, torch.device):
        return
    _wb_check(x == value, "%r, expected %r" % (x, value))


def _wb_check_none(x):
    _wb_check(x is None or x is _WB_UNKNOWN, "%r, expected None" % (x,))


def _wb_check_empty(x):
    _wb_check(x is _WB_UNKNOWN or len(x) == 0, "not empty")


# -- safetensors, read and written with the standard library -------------------------------------------------

_WB_ST_DTYPES = {
    "F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
    "I64": torch.int64, "I32": torch.int32, "I16": torch.int16, "I8": torch.int8, "U8": torch.uint8,
    "BOOL": torch.bool, "C64": torch.complex64,
}
for _name, _attr in (("F8_E4M3", "float8_e4m3fn"), ("F8_E5M2", "float8_e5m2"), ("U16", "uint16"),
                     ("U32", "uint32"), ("U64", "uint64")):
    if hasattr(torch, _attr):
        _WB_ST_DTYPES[_name] = getattr(torch, _attr)


def _wb_read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n].decode("utf-8"))
    base = 8 + n
    out = {}
    for key, info in header.items():
        if key == "__metadata__":
            continue
        dtype = _WB_ST_DTYPES[info["dtype"]]
        shape = tuple(info["shape"])
        begin, end = info["data_offsets"]
        if end == begin:
            out[key] = torch.empty(shape, dtype=dtype)
        else:
            out[key] = torch.frombuffer(bytearray(data[base + begin:base + end]), dtype=dtype).reshape(shape)
    return out


def _wb_write_safetensors(path, tensors):
    names = {v: k for k, v in _WB_ST_DTYPES.items()}
    header = {}
    blobs = []
    offset = 0
    for key, t in tensors.items():
        t = t.detach().contiguous().cpu()
        nbytes = t.numel() * t.element_size()
        blobs.append(ctypes.string_at(t.data_ptr(), nbytes) if nbytes else b"")
        header[key] = {"dtype": names[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + nbytes]}
        offset += nbytes
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


# -- inputs ----------------------------------------------------------------------------------------------------
# A spec is (name, "tensor", shape, dtype, index_bound) | (name, "number", value) | (name, "unknown").


def _wb_random_tensor(shape, dtype, bound, generator):
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=generator).bool()
    if dtype.is_floating_point or dtype.is_complex:
        # Like a layer's initialisation: N(0, 1/fan_in) for matrices, so activations stay in range through
        # a deep program in bf16 (plain N(0, 1) weights saturate softmax and overflow products).
        t = torch.randn(shape, generator=generator, dtype=torch.float32 if dtype.itemsize <= 2 else dtype)
        if len(shape) >= 2 and shape[-1] > 0:
            t = t * (1.0 / math.sqrt(shape[-1]))
        return t.to(dtype)
    high = bound if bound is not None and bound > 0 else 8
    return torch.randint(0, high, shape, generator=generator).to(dtype)


def _wb_find_key(name, tensors, prefixes=("input.", "param.", "")):
    for prefix in prefixes:
        if prefix + name in tensors:
            return prefix + name
    if name.startswith("t_"):
        for key in tensors:
            if key.startswith("param.") and "t_" + key[len("param."):].replace(".", "_") == name:
                return key
    return None


def _wb_match_keys(specs, tensors):
    # name -> key of the safetensors file: the same name (input.NAME, param.NAME, NAME), Thunder's parameter
    # names (t_0_weight <- param.0.weight), then the remaining input.* tensors by shape and dtype, in order.
    mapping = {}
    for spec in specs:
        if spec[1] == "tensor":
            key = _wb_find_key(spec[0], tensors)
            if key is not None:
                mapping[spec[0]] = key
    used = set(mapping.values())
    for spec in specs:
        if spec[1] != "tensor" or spec[0] in mapping:
            continue
        for key, t in tensors.items():
            if key in used or not key.startswith("input."):
                continue
            if tuple(t.shape) == tuple(spec[2]) and t.dtype == spec[3]:
                mapping[spec[0]] = key
                used.add(key)
                break
    return mapping


def _wb_build_values(specs, tensors, seed, device):
    generator = torch.Generator().manual_seed(seed)
    mapping = _wb_match_keys(specs, tensors) if tensors is not None else {}
    values = {}
    for spec in specs:
        name, kind = spec[0], spec[1]
        if kind == "tensor":
            if name in mapping:
                t = tensors[mapping[name]]
                if tuple(t.shape) != tuple(spec[2]) or t.dtype != spec[3]:
                    print("warning: %s from %s is %s %s, the trace says %s %s"
                          % (name, mapping[name], t.dtype, tuple(t.shape), spec[3], tuple(spec[2])), file=sys.stderr)
            else:
                if tensors is not None:
                    print("note: %s is not in the inputs file; using random values" % name, file=sys.stderr)
                t = _wb_random_tensor(tuple(spec[2]), spec[3], spec[4], generator)
            values[name] = t.to(device)
        elif kind == "number":
            values[name] = spec[2]
        else:
            values[name] = None
    return values, mapping


# -- outputs -----------------------------------------------------------------------------------------------


def _wb_flatten(x, out):
    if isinstance(x, (list, tuple)):
        for y in x:
            _wb_flatten(y, out)
    elif isinstance(x, dict):
        for y in x.values():
            _wb_flatten(y, out)
    elif x is not None:
        out.append(x)
    return out


def _wb_describe(label, x):
    if isinstance(x, torch.Tensor):
        d = x.detach()
        shape = list(d.shape)
        if d.numel() == 0:
            return "%-28s %-10s %-18s (empty)" % (label, str(d.dtype).replace("torch.", ""), shape)
        if d.dtype.is_complex:
            d = d.abs()
        f = d.double()
        return "%-28s %-10s %-18s sum=%.9e abs_sum=%.9e min=%.6e max=%.6e" % (
            label, str(x.dtype).replace("torch.", ""), shape, f.sum().item(), f.abs().sum().item(),
            f.min().item(), f.max().item())
    return "%-28s %r" % (label, x)


_WB_TOLERANCE = {torch.float64: 1e-7, torch.float32: 1e-4, torch.float16: 1e-2, torch.bfloat16: 2e-2}


def _wb_compare(label, x, ref):
    # max abs error, and the same divided by max |ref| ("rel"); exact dtypes must match exactly.
    if not isinstance(x, torch.Tensor):
        ok = x == ref.item() if isinstance(ref, torch.Tensor) and ref.numel() == 1 else False
        return ok, "%-28s %r vs %r" % (label, x, ref)
    a = x.detach().cpu()
    b = ref.detach().cpu()
    if tuple(a.shape) != tuple(b.shape):
        return False, "%-28s shape %s vs reference %s" % (label, list(a.shape), list(b.shape))
    if a.numel() == 0:
        return True, "%-28s (empty)" % label
    if a.dtype.is_floating_point or a.dtype.is_complex:
        diff = (a.to(torch.complex128 if a.dtype.is_complex else torch.float64)
                - b.to(torch.complex128 if b.dtype.is_complex else torch.float64)).abs()
        max_abs = diff.max().item()
        scale = b.double().abs().max().item() if not b.dtype.is_complex else b.abs().double().max().item()
        rel = max_abs / scale if scale > 0 else max_abs
        tol = _WB_TOLERANCE.get(a.dtype, 2e-2)
        ok = rel <= tol or max_abs <= tol
        return ok, "%-28s max_abs=%.3e rel=%.3e (tolerance %.0e) %s" % (
            label, max_abs, rel, tol, "ok" if ok else "MISMATCH")
    mismatches = int((a != b.to(a.dtype)).sum().item())
    return mismatches == 0, "%-28s %d of %d elements differ %s" % (
        label, mismatches, a.numel(), "ok" if mismatches == 0 else "MISMATCH")


# -- one run of the program ----------------------------------------------------------------------------------


class _WbRun:
    """The program of the exported stage with its inputs, runnable many times (eager or compiled)."""

    def __init__(self, args):
        self.device = torch.device(args.device)
        self.tensors = None
        if args.inputs:
            self.tensors = _wb_read_safetensors(args.inputs)
        specs = list(_WB_PARAMS)
        self.values, self.mapping = _wb_build_values(specs, self.tensors, args.seed, self.device)
        self.forward = globals()[_WB_FUNCTION]
        self.backward = globals()[_WB_BACKWARD] if _WB_BACKWARD else None
        self.cotangent_values = None
        self.saved_values = None
        if _WB_MODE == "backward":
            gen = torch.Generator().manual_seed(args.seed + 1)
            self.saved_values = [[_wb_spec_value(s, gen, self.device) for s in group] for group in _WB_SAVED]

    def arguments(self):
        return [self.values[spec[0]] for spec in _WB_PARAMS]

    def cotangents(self, like=None):
        if self.cotangent_values is None:
            gen = torch.Generator().manual_seed(0)
            out = []
            specs = list(_WB_COTANGENTS)
            if not specs and like is not None:
                specs = [("cotangent%d" % i, "tensor", tuple(t.shape), t.dtype, None)
                         for i, t in enumerate(like) if isinstance(t, torch.Tensor)]
            for i, spec in enumerate(specs):
                t = None
                if self.tensors is not None:
                    for key in (("grad_output",) if len(specs) == 1 else ()) + ("grad_output.%d" % i,):
                        if key in self.tensors:
                            t = self.tensors[key]
                            break
                if t is None:
                    t = torch.ones(tuple(spec[2]), dtype=spec[3]) if spec[1] == "tensor" else None
                out.append(t.to(self.device) if isinstance(t, torch.Tensor) else t)
            self.cotangent_values = out
        return list(self.cotangent_values)

    def run(self, forward=None, backward=None):
        """Runs the stage once; returns (outputs, grads) as lists of (label, value)."""
        forward = forward or self.forward
        backward = backward or self.backward
        outputs, grads = [], []
        if _WB_MODE == "prologue":
            args, kwargs = _wb_prologue_arguments(self.values)
            result = forward(*args, **kwargs)
            for i, x in enumerate(_wb_flatten(result, [])):
                outputs.append(("%s.%d" % (_WB_OUTPUT_PREFIX, i), x))
            return outputs, grads
        if _WB_MODE == "backward":
            saved = [list(group) for group in self.saved_values]
            result = forward(saved, self.cotangents())
            for i, g in enumerate(result):
                if g is not None:
                    grads.append(("grad.%d" % i, g))
            return outputs, grads
        if _WB_MODE == "joint":
            _wb_COTANGENT_QUEUE[:] = self.cotangents()
        result = forward(*self.arguments())
        if _WB_MODE == "final_forward":
            fw, saved = result
            flat = _wb_flatten(fw["output"], [])
            if backward is not None:
                saved = [list(saved[0]), list(saved[1])]
                grad_tuple = backward(saved, self.cotangents(_wb_flatten(fw["flat_output"], [])))
                grads = self.grad_labels(grad_tuple)
        elif _WB_MODE == "joint":
            flat = _wb_flatten(result["fw_flat_out"], [])
            grads = self.grad_labels(result["output"])
        elif isinstance(result, dict) and "output" in result:
            flat = _wb_flatten(result["output"], [])
        else:
            flat = _wb_flatten(result, [])
        outputs = [("%s.%d" % (_WB_OUTPUT_PREFIX, i), x) for i, x in enumerate(flat)]
        return outputs, grads

    def grad_labels(self, grad_tuple):
        grads = []
        for i, g in enumerate(grad_tuple):
            if g is None:
                continue
            name = _WB_FLAT_ARGS[i] if _WB_FLAT_ARGS and i < len(_WB_FLAT_ARGS) else "%d" % i
            key = self.mapping.get(name)
            if key is None and self.tensors is not None:
                key = _wb_find_key(name, self.tensors)
            grads.append(("grad." + (key if key else "input." + name), g))
        return grads


def _wb_spec_value(spec, generator, device):
    if spec[1] == "tensor":
        return _wb_random_tensor(tuple(spec[2]), spec[3], spec[4], generator).to(device)
    if spec[1] == "number":
        return spec[2]
    return None


def _wb_prologue_arguments(values):
    n_args = _WB_PROLOGUE_ARGS[0]
    args = [None] * n_args
    for index, name in _WB_PROLOGUE_ARGS[1]:
        if index < n_args:
            args[index] = values[name]
    kwargs = {key: values[name] for key, name in _WB_PROLOGUE_KWARGS}
    module = _WbModule({qualified: values[name] for qualified, name in _WB_PROLOGUE_MODULE})
    globals()["_wb_function_obj"] = module
    return args, kwargs


# -- timing ----------------------------------------------------------------------------------------------------


def _wb_time(fn, iters, warmup, device):
    for _ in range(warmup):
        fn()
    times = []
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        for _ in range(iters):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
    else:
        for _ in range(iters):
            t0 = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times), min(times), max(times)


def _wb_report_time(label, stats, iters, warmup):
    print("%-22s median %.4f ms  min %.4f ms  max %.4f ms  (median of %d iterations after %d warm-ups)"
          % (label, stats[0], stats[1], stats[2], iters, warmup))


def _wb_timings(run, args):
    print()
    what = "forward + backward" if run.backward is not None or _WB_MODE == "joint" else "the program"
    print("timings of %s on %s (%s):" % (what, run.device, "CUDA events" if run.device.type == "cuda"
                                          else "time.perf_counter"))
    stats = _wb_time(lambda: run.run(), args.iters, args.warmup, run.device)
    _wb_report_time("eager", stats, args.iters, args.warmup)
    if args.no_compile:
        return
    try:
        torch._dynamo.reset()
        fw = torch.compile(run.forward)
        bw = torch.compile(run.backward) if run.backward is not None else None
        stats = _wb_time(lambda: run.run(fw, bw), args.iters, args.warmup, run.device)
        _wb_report_time("torch.compile", stats, args.iters, args.warmup)
    except Exception as e:  # noqa: BLE001 - report and go on
        print("%-22s failed: %s: %s" % ("torch.compile", type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
    if _WB_REGIONS:
        saved = {name: globals()[name] for name in _WB_REGIONS}
        try:
            torch._dynamo.reset()
            for name in _WB_REGIONS:
                globals()[name] = torch.compile(saved[name])
            stats = _wb_time(lambda: run.run(), args.iters, args.warmup, run.device)
            _wb_report_time("regions compiled", stats, args.iters, args.warmup)
        except Exception as e:  # noqa: BLE001
            print("%-22s failed: %s: %s" % ("regions compiled", type(e).__name__,
                                            str(e).splitlines()[0] if str(e) else ""))
        finally:
            globals().update(saved)


# -- main ------------------------------------------------------------------------------------------------------


def _wb_main(argv=None):
    parser = argparse.ArgumentParser(
        description="Runs " + _WB_SOURCE + " with PyTorch: inputs of the annotated shapes and dtypes (seeded, "
        "or from --inputs), prints a checksum per output and gradient, compares with --compare, times with --time.")
    parser.add_argument("--device", default=None, help="cuda or cpu (default: cuda when available)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    parser.add_argument("--inputs", metavar="F.safetensors",
                        help="take inputs from F: input.NAME, param.NAME, NAME, grad_output (see the header)")
    parser.add_argument("--compare", metavar="F.safetensors",
                        help="compare outputs and gradients with F's output.I and grad.* (implies --inputs F)")
    parser.add_argument("--save", metavar="F.safetensors", help="write outputs and gradients to F")
    parser.add_argument("--time", action="store_true", help="time eager, torch.compile and compiled regions")
    parser.add_argument("--iters", type=int, default=30, help="timed iterations (default 30)")
    parser.add_argument("--warmup", type=int, default=5, help="warm-up iterations (default 5)")
    parser.add_argument("--no-compile", action="store_true", help="with --time: eager only")
    args = parser.parse_args(argv)
    if args.device is None:
        args.device = "cuda" if torch.cuda.is_available() else "cpu"
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        print("error: --device %s but torch.cuda.is_available() is False" % args.device, file=sys.stderr)
        return 3
    if args.compare and not args.inputs:
        args.inputs = args.compare
    _wb_set_device(args.device)
    torch.manual_seed(args.seed)

    run = _WbRun(args)
    print("%s: %s on %s (torch %s)" % (_WB_SOURCE, _WB_MODE.replace("_", " "), run.device, torch.__version__))
    for name, key in sorted(run.mapping.items()):
        print("  input %-24s <- %s" % (name, key))
    outputs, grads = run.run()
    if run.device.type == "cuda":
        torch.cuda.synchronize()
    for label, x in outputs + grads:
        print(_wb_describe(label, x))

    status = 0
    if args.compare:
        reference = run.tensors if args.compare == args.inputs else _wb_read_safetensors(args.compare)
        print()
        print("compared with %s:" % args.compare)
        n = 0
        for label, x in outputs + grads:
            if label not in reference:
                print("%-28s (not in the reference)" % label)
                continue
            ok, line = _wb_compare(label, x, reference[label])
            print(line)
            n += 1
            if not ok:
                status = 1
        if n == 0:
            print("nothing to compare: no key of the reference matches (this stage's results are %s.I)"
                  % _WB_OUTPUT_PREFIX)
    if args.save:
        # The same layout as the inputs it reads: a saved file is a reference for another stage's --compare.
        saved = {}
        for spec in _WB_PARAMS:
            x = run.values.get(spec[0])
            if isinstance(x, torch.Tensor):
                saved[run.mapping.get(spec[0], "input." + spec[0])] = x
        cotangents = run.cotangent_values or []
        if len(cotangents) == 1 and isinstance(cotangents[0], torch.Tensor):
            saved["grad_output"] = cotangents[0]
        else:
            for i, x in enumerate(cotangents):
                if isinstance(x, torch.Tensor):
                    saved["grad_output.%d" % i] = x
        saved.update({label: x for label, x in outputs + grads if isinstance(x, torch.Tensor)})
        _wb_write_safetensors(args.save, saved)
        print("wrote %s" % args.save)
    if args.time:
        _wb_timings(run, args)
    return status


# -- the program (generated by thunder-wb below this line) -------------------------------------------------------
