# safetensors.py — a safetensors writer and reader in pure Python (stdlib json and struct only)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# File layout (https://github.com/huggingface/safetensors): an 8-byte little-endian unsigned header
# length N, N bytes of UTF-8 JSON {name: {"dtype", "shape", "data_offsets": [begin, end]}, ...,
# "__metadata__": {str: str}} padded with spaces to a multiple of 8, then the tensors' bytes, each
# tensor's offsets relative to the end of the header, in the order written. Byte order little-endian,
# row-major (C-contiguous).
#
# A tensor is given as a RawTensor (dtype name, shape, bytes) or as a torch.Tensor, converted by
# raw_from_torch() without numpy: the tensor is detached, moved to the cpu, made contiguous and its
# storage copied with ctypes.string_at.

import ctypes
import json
import os
import struct

# safetensors dtype -> bytes per element
DTYPE_SIZES = {
    "BOOL": 1, "U8": 1, "I8": 1, "F8_E4M3": 1, "F8_E5M2": 1,
    "I16": 2, "U16": 2, "F16": 2, "BF16": 2,
    "I32": 4, "U32": 4, "F32": 4, "C32": 4,
    "I64": 8, "U64": 8, "F64": 8, "C64": 8,
    "C128": 16,
}

# torch dtype name (str(torch.float32) without "torch.") -> safetensors dtype
TORCH_DTYPES = {
    "bool": "BOOL", "uint8": "U8", "int8": "I8", "int16": "I16", "uint16": "U16", "int32": "I32",
    "uint32": "U32", "int64": "I64", "uint64": "U64", "float16": "F16", "bfloat16": "BF16",
    "float32": "F32", "float64": "F64", "complex32": "C32", "complex64": "C64", "complex128": "C128",
    "float8_e4m3fn": "F8_E4M3", "float8_e5m2": "F8_E5M2",
}


class RawTensor:
    """A tensor as safetensors stores it: dtype ("F32"), shape (list of ints), data (bytes)."""

    __slots__ = ("dtype", "shape", "data")

    def __init__(self, dtype, shape, data):
        if dtype not in DTYPE_SIZES:
            raise ValueError(f"unknown safetensors dtype {dtype!r}")
        shape = [int(d) for d in shape]
        if any(d < 0 for d in shape):
            raise ValueError(f"negative dimension in shape {shape}")
        n = 1
        for d in shape:
            n *= d
        if len(data) != n * DTYPE_SIZES[dtype]:
            raise ValueError(f"{dtype}{shape} needs {n * DTYPE_SIZES[dtype]} bytes, got {len(data)}")
        self.dtype = dtype
        self.shape = shape
        self.data = bytes(data)


def torch_dtype_name(dtype):
    """'float32' for torch.float32 (or any object whose str() is 'torch.float32')."""
    s = str(dtype)
    return s[len("torch."):] if s.startswith("torch.") else s


def raw_from_torch(t):
    """A RawTensor copy of torch tensor @t (any device, any strides). Raises ValueError for a dtype
    safetensors cannot hold."""
    name = torch_dtype_name(t.dtype)
    if name not in TORCH_DTYPES:
        raise ValueError(f"safetensors cannot store dtype {name}")
    c = t.detach().to("cpu").contiguous()
    nbytes = c.numel() * c.element_size()
    data = ctypes.string_at(c.data_ptr(), nbytes) if nbytes > 0 else b""
    return RawTensor(TORCH_DTYPES[name], list(c.shape), data)


def _as_raw(value):
    if isinstance(value, RawTensor):
        return value
    return raw_from_torch(value)


def write(path, tensors, metadata=None):
    """Writes @tensors (dict name -> RawTensor or torch.Tensor, in insertion order) to @path atomically
    (a temporary file renamed over it). @metadata: dict of str -> str. Returns the file's size."""
    raws = [(str(k), _as_raw(v)) for k, v in tensors.items()]
    header = {}
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    offset = 0
    for name, r in raws:
        if name == "__metadata__":
            raise ValueError("a tensor cannot be named __metadata__")
        header[name] = {"dtype": r.dtype, "shape": r.shape, "data_offsets": [offset, offset + len(r.data)]}
        offset += len(r.data)
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=True).encode("utf-8")
    text += b" " * (-len(text) % 8)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for _, r in raws:
            f.write(r.data)
    os.replace(tmp, path)
    return 8 + len(text) + offset


def read(path):
    """Reads a safetensors file: (dict name -> RawTensor in file order, metadata dict). Checks the
    header against the file (offsets contiguous, inside the file, sizes matching the shapes)."""
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 8:
        raise ValueError(f"{path}: too short for a safetensors header")
    (n,) = struct.unpack("<Q", blob[:8])
    if 8 + n > len(blob):
        raise ValueError(f"{path}: header length {n} runs past the end of the file")
    header = json.loads(blob[8:8 + n].decode("utf-8"))
    data = blob[8 + n:]
    metadata = header.pop("__metadata__", {}) or {}
    items = sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0])
    out = {}
    expect = 0
    for name, info in items:
        b, e = info["data_offsets"]
        if b != expect or e < b or e > len(data):
            raise ValueError(f"{path}: tensor {name}: bad data_offsets {b}, {e}")
        out[name] = RawTensor(info["dtype"], info["shape"], data[b:e])
        expect = e
    if expect != len(data):
        raise ValueError(f"{path}: {len(data) - expect} bytes after the last tensor")
    return out, metadata
