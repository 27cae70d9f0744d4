#!/usr/bin/env python3
# llama_tiny.py — a tiny Llama-style decoder (RMSNorm, RoPE, causal SDPA, SwiGLU) trained one step with
# thunder.jit. Used by the `record` tests: `thunder-wb record -- python3 tests/record/llama_tiny.py`.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Options: --device cpu|cuda (default: cuda when available), --dtype float32|bfloat16 (default float32),
# --executors NAME,NAME (thunder.jit's executors=, e.g. sdpa,torchcompile; default: Thunder's defaults),
# --layers N (default 1), --steps N (training steps, default 1), --embedding (token ids through an
# nn.Embedding instead of float activations; its backward prints torch.torch.ops.aten.embedding_backward,
# which the workbench's symbol table does not know yet).
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

import thunder


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        xf = x.float()
        n = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)
        return n.to(x.dtype) * self.weight


def rope_cache(seq_len, head_dim, base=10000.0, device=None):
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2, device=device).float() / head_dim))
    t = torch.arange(seq_len, device=device).float()
    freqs = torch.outer(t, inv)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


def apply_rope(x, cos, sin):
    half = x.size(-1) // 2
    x1, x2 = x[..., :half], x[..., half:]
    rotated = torch.cat((-x2, x1), dim=-1)
    return (x * cos + rotated * sin).to(x.dtype)


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x, cos, sin):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=-1)
        q = q.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        q = apply_rope(q, cos, sin)
        k = apply_rope(k, cos, sin)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).reshape(B, T, C)
        return self.proj(y)


class SwiGLU(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc_1 = nn.Linear(dim, hidden, bias=False)
        self.fc_2 = nn.Linear(dim, hidden, bias=False)
        self.proj = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.proj(F.silu(self.fc_1(x)) * self.fc_2(x))


class Block(nn.Module):
    def __init__(self, dim, n_heads, hidden):
        super().__init__()
        self.norm_1 = RMSNorm(dim)
        self.attn = Attention(dim, n_heads)
        self.norm_2 = RMSNorm(dim)
        self.mlp = SwiGLU(dim, hidden)

    def forward(self, x, cos, sin):
        x = x + self.attn(self.norm_1(x), cos, sin)
        return x + self.mlp(self.norm_2(x))


class TinyLlama(nn.Module):
    def __init__(self, vocab=128, dim=64, n_heads=4, hidden=172, layers=1, embedding=False):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim) if embedding else None
        self.blocks = nn.ModuleList(Block(dim, n_heads, hidden) for _ in range(layers))
        self.norm = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, x, cos, sin):
        if self.wte is not None:
            x = self.wte(x)
        for block in self.blocks:
            x = block(x, cos, sin)
        return self.lm_head(self.norm(x))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--dtype", default="float32", choices=["float32", "bfloat16"])
    parser.add_argument("--executors", default=None)
    parser.add_argument("--layers", type=int, default=1)
    parser.add_argument("--steps", type=int, default=1)
    parser.add_argument("--embedding", action="store_true")
    args = parser.parse_args()

    torch.manual_seed(0)
    dtype = getattr(torch, args.dtype)
    B, T, vocab = 2, 16, 128
    model = TinyLlama(vocab=vocab, layers=args.layers, embedding=args.embedding).to(device=args.device, dtype=dtype)
    cos, sin = rope_cache(T, model.blocks[0].attn.head_dim, device=args.device)
    cos, sin = cos.to(dtype), sin.to(dtype)
    kwargs = {}
    if args.executors:
        kwargs["executors"] = [e for e in args.executors.split(",") if e]
    jmodel = thunder.jit(model, **kwargs)
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)

    if args.embedding:
        x = torch.randint(0, vocab, (B, T), device=args.device)
    else:
        x = torch.randn(B, T, 64, device=args.device, dtype=dtype)
    targets = torch.randint(0, vocab, (B, T), device=args.device)
    for step in range(args.steps):
        logits = jmodel(x, cos, sin)
        loss = F.cross_entropy(logits.float().view(-1, vocab), targets.view(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss {loss.item():.4f}", flush=True)
    print("executors:", [e.name for e in thunder.compile_data(jmodel).executors_list], flush=True)


if __name__ == "__main__":
    main()
