# precision.py — PyTorch's reference step in IEEE f32: no TF32 in cuDNN's convolutions nor in matmuls
# SPDX-License-Identifier: GPL-3.0-or-later
#
# PyTorch lets cuDNN run f32 convolutions on TF32 tensor cores by default
# (torch.backends.cudnn.allow_tf32 = True): inputs rounded to 10 mantissa bits, results about 1e-4..1e-3
# off the f32 ones. A zoo reference is what the workbench's f32 results are compared with at f32's
# tolerance (rtol 1e-4, atol 1e-5), so it must be computed in f32: fsdp3_convnext_w1's classifier
# gradient, recorded with TF32, was 2.9e-4 off the f64 result, the workbench's cpu run 2e-7. Only the
# reference is computed this way; the timed steps keep PyTorch's defaults (what a user gets).

import contextlib

__all__ = ["ieee_fp32", "describe"]


@contextlib.contextmanager
def ieee_fp32():
    """Within: cuDNN's convolutions and CUDA matmuls in f32 without TF32; restored after."""
    import torch

    conv, mm = torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    try:
        yield
    finally:
        torch.backends.cudnn.allow_tf32 = conv
        torch.backends.cuda.matmul.allow_tf32 = mm


def describe():
    """What zoo.json says of the reference's precision."""
    return "IEEE f32 (torch.backends.cudnn.allow_tf32 and cuda.matmul.allow_tf32 off)"
