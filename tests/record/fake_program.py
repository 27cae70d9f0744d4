# A program for the recorder's tests with the fake thunder (tests/record/fake): jits a function, calls it
# twice (the second call hits the cache: nothing new to record), exits with $FAKE_EXIT (default 0).
import os
import sys

import thunder
import torch


def scale(x, factor=2):
    return x


jscale = thunder.jit(scale)
x = torch.tensor([1.0, 2.0, 3.0, 4.0], shape=[2, 2])
jscale(x, factor=3)
jscale(x, factor=3)
print("fake program done", flush=True)
sys.exit(int(os.environ.get("FAKE_EXIT", "0")))
