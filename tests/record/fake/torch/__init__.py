# A stand-in for torch in the recorder's tests (tests/record): just enough for thunder_wb_record to
# describe and save a tensor. Never on PYTHONPATH outside those tests.
import ctypes

__version__ = "0.0+fake"
jit = None  # `thunder-wb record` checks that torch.jit and thunder.jit exist


class dtype:
    def __init__(self, name, size):
        self.name, self.itemsize = name, size
        self.is_floating_point = name.startswith("float")
        self.is_complex = False

    def __str__(self):
        return "torch." + self.name


float32 = dtype("float32", 4)
int64 = dtype("int64", 8)


class device:
    def __init__(self, kind="cpu"):
        self.type = kind

    def __str__(self):
        return self.type


class Tensor:
    def __init__(self, values, dt=float32, shape=None):
        self.dtype = dt
        self.shape = tuple(shape if shape is not None else [len(values)])
        ctype = ctypes.c_float if dt is float32 else ctypes.c_int64
        self._buf = (ctype * len(values))(*values)
        self.device = device("cpu")
        self.requires_grad = False

    def stride(self):
        s, out = 1, []
        for d in reversed(self.shape):
            out.insert(0, s)
            s *= d
        return tuple(out)

    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def element_size(self):
        return self.dtype.itemsize

    def detach(self):
        return self

    def to(self, _device):
        return self

    def contiguous(self):
        return self

    def data_ptr(self):
        return ctypes.addressof(self._buf)


def tensor(values, dtype=float32, shape=None):
    return Tensor(values, dtype, shape)
