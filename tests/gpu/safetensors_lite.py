# safetensors_lite.py — reads and writes safetensors files with the standard library alone
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The format (https://github.com/huggingface/safetensors, "Format"): an 8-byte little-endian header length, a
# JSON header {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}, then the data.
# The GPU tests' scripts (compare-ranks.py, split-inputs.py) use it so that they need no PyTorch.
import json
import struct

_FORMATS = {"F64": "d", "F32": "f", "F16": "e", "I64": "q", "I32": "i", "I16": "h", "I8": "b", "U8": "B", "BOOL": "?"}
_SIZES = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1, "BOOL": 1}


class Tensor:
    def __init__(self, dtype, shape, data):
        self.dtype, self.shape, self.data = dtype, list(shape), bytes(data)

    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def values(self):
        """The elements as Python numbers (floats for floating dtypes), row-major."""
        n = self.numel()
        if self.dtype == "BF16":
            raw = struct.unpack("<%dH" % n, self.data)
            return [struct.unpack("<f", struct.pack("<I", v << 16))[0] for v in raw]
        return list(struct.unpack("<%d%s" % (n, _FORMATS[self.dtype]), self.data))

    def rows(self, begin, end):
        """Rows [begin, end) of dim 0 as a new tensor."""
        row = _SIZES[self.dtype] * (self.numel() // self.shape[0] if self.shape[0] else 0)
        return Tensor(self.dtype, [end - begin] + self.shape[1:], self.data[begin * row : end * row])


def load(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        body = f.read()
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        b, e = info["data_offsets"]
        out[name] = Tensor(info["dtype"], info["shape"], body[b:e])
    return out


def save(path, tensors, metadata=None):
    header, offset, chunks = {}, 0, []
    for name in sorted(tensors):
        t = tensors[name]
        header[name] = {"dtype": t.dtype, "shape": t.shape, "data_offsets": [offset, offset + len(t.data)]}
        offset += len(t.data)
        chunks.append(t.data)
    if metadata:
        header["__metadata__"] = metadata
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for c in chunks:
            f.write(c)
