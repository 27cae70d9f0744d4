# inplace_input.py — a program that writes one of its inputs in place before indexing with it, as T5's
# relative position buckets do (`relative_buckets += where(...)`); test-record-thunder.sh records it and
# checks that tensors.safetensors holds the input as the call received it.
# SPDX-License-Identifier: GPL-3.0-or-later
import torch
import thunder


def buckets(b, x, table):
    b += x
    return torch.nn.functional.embedding(b, table)


def main():
    torch.manual_seed(0)
    b = torch.tensor([1, 2, 3, 0])
    x = torch.tensor([4, 4, 4, 4])
    table = torch.randn(8, 2)
    out = thunder.jit(buckets)(b, x, table)
    print("b after the call:", b.tolist(), "out", tuple(out.shape))


if __name__ == "__main__":
    main()
