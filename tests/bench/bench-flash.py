#!/usr/bin/env python3
# bench-flash.py — the fused attention kernels (executors/cuda/wb-cuda-flash-kernels.c and
# wb-cuda-flash-backward.c) alone: checked against a float reference and timed against torch SDPA on
# gpt2_block's and llama_layer's attention shapes
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   python3 tests/bench/bench-flash.py build OUTDIR           here: nvcc (sm_90) compiles the kernel text with the
#                                                             prelude and the tiles of wb-cuda-flash.c to OUTDIR/*.cubin
#   python3 OUTDIR/bench-flash.py run OUTDIR [check|bench|all] on the GPU machine (torch, libcuda through ctypes)
#
# The backward paths, per head dim (E) and dtype (suffix h: f16):
#   split64/128   dK/dV kernel + dQ kernel (WB_CUDA_ATTN=deterministic)
#   atomic64/128  dK/dV kernel adding dQ's share with atomic adds (wb_flash_bwd_dkdvq: E=64's default)
#   fa2_128       FlashAttention-2's tiles, dQ by atomic adds (wb_flash_bwd_kvq: E=128's default)
# `run` prints one line per check (relative errors of O, lse, dQ, dK, dV against f32 torch, determinism of
# the split path) and per benchmark variant: forward and backward ms (median of 30, CUDA events) against
# torch's SDPA (flash) on the same tensors. BENCH64 / BENCH128 / CHECK_VARIANTS (space-separated names) pick
# the variants. Nothing here is a test: timings are not asserted (tests/bench/README.md).
import ctypes as C, math, os, sys, time

# the tiles of wb-cuda-flash.c (tiles_64, tiles_128): forward (warps, tiles, keys, Q in registers), dQ
# (warps, tiles, keys), dK/dV (key groups, tiles, query splits, queries, buffers); keep in step with it
T64 = dict(fw=(4, 2, 64, 1), dq=(4, 2, 64), kv=(4, 2, 1, 32, 2))
T128 = dict(fw=(4, 2, 32, 0), dq=(4, 2, 32), kv=(8, 1, 1, 32, 2))
CUBINS = {"e64": (64, 0), "e64h": (64, 1), "e128": (128, 0), "e128h": (128, 1)}
V = {  # name: (cubin, E, tiles, backward path)
    "split64": ("e64", 64, T64, "split"), "split64h": ("e64h", 64, T64, "split"),
    "atomic64": ("e64", 64, T64, "atomic"), "atomic64h": ("e64h", 64, T64, "atomic"),
    "split128": ("e128", 128, T128, "split"), "split128h": ("e128h", 128, T128, "split"),
    "atomic128": ("e128", 128, T128, "atomic"), "atomic128h": ("e128h", 128, T128, "atomic"),
    "fa2_128": ("e128", 128, T128, "fa2"), "fa2_128h": ("e128h", 128, T128, "fa2"),
}


def build(out):
    import ast, subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    cuda = os.path.join(here, "..", "..", "executors", "cuda")
    text = ""
    # the text is two strings, one unit in this order: helpers and forward, then the backward kernels
    for file, var in (("wb-cuda-flash-kernels.c", "wb_cuda_flash_fwd_text"), ("wb-cuda-flash-backward.c", "wb_cuda_flash_bwd_text")):
        lines = open(os.path.join(cuda, file)).read().split("\n")
        start = next(i for i, l in enumerate(lines) if l.startswith(f"const char {var}[] ="))
        text += "".join(ast.literal_eval(l.strip().rstrip(";")) for l in lines[start + 1:] if l.strip())
    prelude = open(os.path.join(cuda, "wb-cuda-prelude.cuh")).read()
    os.makedirs(out, exist_ok=True)
    for name, (e, f16) in CUBINS.items():
        t = T64 if e == 64 else T128
        d = [("FL_D", e), ("FL_F16", f16), ("FW_WARPS", t["fw"][0]), ("FW_MT", t["fw"][1]), ("FW_BC", t["fw"][2]), ("FW_QREG", t["fw"][3]),
             ("DQ_WARPS", t["dq"][0]), ("DQ_MT", t["dq"][1]), ("DQ_BC", t["dq"][2]), ("KV_KG", t["kv"][0]), ("KV_MT", t["kv"][1]),
             ("KV_QS", t["kv"][2]), ("KV_BQ", t["kv"][3]), ("KV_NBUF", t["kv"][4])]
        cu_path = os.path.join(out, name + ".cu")
        with open(cu_path, "w") as f:
            f.write("".join(f"#define {k} {v}\n" for k, v in d) + prelude + text)
        subprocess.run(["nvcc", "-cubin", "-arch=sm_90", "-O3", "-std=c++17", "-o", os.path.join(out, name + ".cubin"), cu_path], check=True)
        print("built", os.path.join(out, name + ".cubin"))
    if os.path.abspath(out) != here:
        import shutil
        shutil.copy(os.path.abspath(__file__), out)


if len(sys.argv) < 3 or sys.argv[1] not in ("build", "run"):
    sys.exit("usage: bench-flash.py build OUTDIR | run OUTDIR [check|bench|all]")
if sys.argv[1] == "build":
    build(sys.argv[2])
    sys.exit(0)

import torch

cub = sys.argv[2]
which = sys.argv[3] if len(sys.argv) > 3 else "all"
cu = C.CDLL("libcuda.so.1")
torch.zeros(1, device="cuda")
torch.cuda.synchronize()


def ck(rc, what):
    if rc != 0:
        raise RuntimeError(f"{what}: CUresult {rc}")


mods = {}

def fn(var, name):
    key = (var, name)
    if key not in mods:
        m = C.c_void_p()
        if var not in mods:
            ck(cu.cuModuleLoad(C.byref(m), f"{cub}/{V[var][0]}.cubin".encode()), "cuModuleLoad")
            mods[var] = m
        f = C.c_void_p()
        ck(cu.cuModuleGetFunction(C.byref(f), mods[var], name.encode()), name)
        mods[key] = f
    return mods[key]

def launch(var, name, grid, threads, smem, args):
    f = fn(var, name)
    if smem > 48 * 1024:
        ck(cu.cuFuncSetAttribute(f, 8, smem), "cuFuncSetAttribute")  # MAX_DYNAMIC_SHARED_SIZE_BYTES
    vals = []
    for a in args:
        if isinstance(a, torch.Tensor):
            vals.append(C.c_uint64(a.data_ptr()))
        elif isinstance(a, tuple):
            vals.append({"i": C.c_int32, "l": C.c_int64, "f": C.c_float}[a[0]](a[1]))
    arr = (C.c_void_p * len(vals))(*[C.cast(C.byref(v), C.c_void_p) for v in vals])
    ck(cu.cuLaunchKernel(f, grid, 1, 1, threads, 1, 1, smem, C.c_void_p(torch.cuda.current_stream().cuda_stream), arr, None), name)

def S(t):
    s = t.stride()
    return [("l", s[0]), ("l", s[1]), ("l", s[2])]

def fwd(var, q, k, v, scale, causal):
    D, tl = V[var][1], V[var][2]
    B, H, tq, _ = q.shape
    tk = k.shape[2]
    lse_len = (tq + 15) // 16 * 16
    o = torch.empty((B, H, tq, D), dtype=q.dtype, device="cuda")
    lse = torch.empty((B, H, lse_len), dtype=torch.float32, device="cuda")
    n_bh = B * H
    args = [q, *S(q), k, *S(k), v, *S(v), o, lse, ("i", H), ("i", n_bh), ("i", tq), ("i", tk), ("i", lse_len),
            ("f", scale * 1.4426950408889634), ("i", int(causal))]
    grid = (tq + 127) // 128 * n_bh
    if tl is None:
        launch(var, "wb_flash_fwd", grid, 256, 0, args)
    else:
        w, mt, bc = tl["fw"][:3]
        launch(var, "wb_flash_fwd", grid, w * 32, (128 + 4 * bc) * D * 2, args)
    return o, lse, lse_len

def bwd(var, q, k, v, go, o, lse, lse_len, scale, causal, parts=("dot", "kv", "dq"), bufs=None):
    D, tl, fused = V[var][1], V[var][2], V[var][3]
    B, H, tq, _ = q.shape
    tk = k.shape[2]
    n_bh = B * H
    pad = (tq + 127) // 128 * 128
    if bufs is None:
        bufs = (torch.empty((n_bh * pad * 2,), dtype=torch.float32, device="cuda"), torch.empty((B, H, tq, D), dtype=q.dtype, device="cuda"),
                torch.empty((B, H, tk, D), dtype=q.dtype, device="cuda"), torch.empty((B, H, tk, D), dtype=q.dtype, device="cuda"),
                torch.empty((n_bh * pad * D,), dtype=torch.float32, device="cuda"))
    ld, dq, dk, dv, acc = bufs
    sl2 = scale * 1.4426950408889634
    if "dot" in parts:
        launch(var, "wb_flash_bwd_dot", (n_bh * pad + 7) // 8, 256, 0,
               [go, *S(go), o, *S(o), lse, ld, acc if fused != "split" else ("l", 0), ("i", H), ("i", n_bh), ("i", tq), ("i", pad), ("i", lse_len)])
    common = [q, *S(q), k, *S(k), v, *S(v), go, *S(go), ld]
    tail = [("i", H), ("i", n_bh), ("i", tq), ("i", tk), ("i", pad), ("f", sl2), ("f", scale), ("i", int(causal))]
    kg, mt, qs, bq, nbuf = tl["kv"]
    bkv = 16 * mt * kg
    smem = (2 * bkv + 2 * nbuf * bq) * D * 2
    if fused != "split":
        if "kv" in parts and fused == "fa2":
            launch(var, "wb_flash_bwd_kvq", (tk + 127) // 128 * n_bh, 256, (512 * D + 2 * 64 * 128) * 2, common + [acc, dk, dv] + tail)
        elif "kv" in parts:
            launch(var, "wb_flash_bwd_dkdvq", (tk + bkv - 1) // bkv * n_bh, kg * qs * 32, smem + bq * bkv * 2, common + [acc, dk, dv] + tail)
        if "dq" in parts:
            n = n_bh * tq * D
            launch(var, "wb_flash_bwd_dq_convert", (n // 8 + 255) // 256, 256, 0, [acc, dq, ("i", tq), ("i", pad), ("l", n), ("f", scale)])
    else:
        if "kv" in parts:
            launch(var, "wb_flash_bwd_dkdv", (tk + bkv - 1) // bkv * n_bh, kg * qs * 32, smem, common + [dk, dv] + tail)
        w, dmt, bc = tl["dq"]
        if "dq" in parts:
            launch(var, "wb_flash_bwd_dq", pad // 128 * n_bh, w * 32, (256 + 4 * bc) * D * 2, common + [dq] + tail)
    return dq, dk, dv

def ref(q, k, v, go, scale, causal):
    qf, kf, vf = (x.float().detach().requires_grad_(True) for x in (q, k, v))
    s = (qf @ kf.transpose(-1, -2)) * scale
    if causal:
        tq, tk = s.shape[-2:]
        s = s.masked_fill(~torch.ones(tq, tk, dtype=torch.bool, device="cuda").tril(), float("-inf"))
    lse = torch.logsumexp(s, -1)
    o = torch.softmax(s, -1) @ vf
    o.backward(go.float())
    return o.detach(), lse.detach(), qf.grad, kf.grad, vf.grad

def rel(a, b):
    a, b = a.float(), b.float()
    return ((a - b).norm() / b.norm()).item()

def inputs(B, H, tq, tk, D, dt, transposed):
    torch.manual_seed(0)
    if transposed:
        return [torch.randn(B, t, H, D, dtype=dt, device="cuda").transpose(1, 2) for t in (tq, tk, tk, tq)]
    return [torch.randn(B, H, t, D, dtype=dt, device="cuda") for t in (tq, tk, tk, tq)]

def check(var, B, H, tq, tk, causal, scale, dt, transposed=False):
    D = V[var][1]
    q, k, v, go = inputs(B, H, tq, tk, D, dt, transposed)
    sc = scale if scale is not None else 1 / math.sqrt(D)
    o, lse, ll = fwd(var, q, k, v, sc, causal)
    g1 = bwd(var, q, k, v, go, o, lse, ll, sc, causal)
    g2 = bwd(var, q, k, v, go, o, lse, ll, sc, causal)
    torch.cuda.synchronize()
    det = all(torch.equal(a, b) for a, b in zip(g1, g2)) or V[var][3] != "split"
    ro, rl, rdq, rdk, rdv = ref(q, k, v, go, sc, causal)
    e = [rel(o, ro), rel(lse[..., :tq], rl), rel(g1[0], rdq), rel(g1[1], rdk), rel(g1[2], rdv)]
    ok = max(e) < 2e-2 and det and bool((lse[..., tq:] == 0).all())
    print(f"check {var} {B}x{H}x{tq}x{tk}x{D} causal={causal} {str(dt)[6:]} T={transposed}: rel O {e[0]:.1e} lse {e[1]:.1e} "
          f"dQ {e[2]:.1e} dK {e[3]:.1e} dV {e[4]:.1e} det={det} -> {'OK' if ok else 'FAIL'}", flush=True)
    return ok

def timeit(f, n=30):
    f()
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    ts = []
    for _ in range(n):
        s.record()
        f()
        e.record()
        torch.cuda.synchronize()
        ts.append(s.elapsed_time(e))
    return sorted(ts)[n // 2]

def bench(vars_, B, H, tq, D, causal, scale, dt, transposed, label):
    q, k, v, go = inputs(B, H, tq, tq, D, dt, transposed)
    sc = scale if scale is not None else 1 / math.sqrt(D)
    qs, ks, vs = (x.detach().clone().requires_grad_(True) for x in (q, k, v))
    def sf():
        with torch.no_grad():
            torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)
    def sfb():
        y = torch.nn.functional.scaled_dot_product_attention(qs, ks, vs, is_causal=causal, scale=scale)
        y.backward(go)
    t3, t4 = timeit(sf), timeit(sfb)
    print(f"bench {label}: torch sdpa fwd {t3:.3f} ms, fwd+bwd {t4:.3f} ms, bwd ~{t4 - t3:.3f} ms", flush=True)
    for var in vars_:
        o, lse, ll = fwd(var, q, k, v, sc, causal)
        n_bh, pad = B * H, (tq + 127) // 128 * 128
        bufs = (torch.empty((n_bh * pad * 2,), dtype=torch.float32, device="cuda"), torch.empty_like(q), torch.empty_like(k), torch.empty_like(v),
                torch.empty((n_bh * pad * D,), dtype=torch.float32, device="cuda"))
        t1 = timeit(lambda: fwd(var, q, k, v, sc, causal))
        t2 = timeit(lambda: bwd(var, q, k, v, go, o, lse, ll, sc, causal, bufs=bufs))
        tkv = timeit(lambda: bwd(var, q, k, v, go, o, lse, ll, sc, causal, parts=("dot", "kv"), bufs=bufs))
        tdq = timeit(lambda: bwd(var, q, k, v, go, o, lse, ll, sc, causal, parts=("dq",), bufs=bufs))
        fl = 4 * B * H * tq * tq * D * (0.5 if causal else 1)
        print(f"   {var:8s} fwd {t1:.3f} ms ({fl / t1 / 1e9:.0f} TFLOP/s, {t1 / t3:.2f}x sdpa)  bwd {t2:.3f} ms ({t2 / (t4 - t3):.2f}x sdpa; "
              f"dkdv {tkv:.3f}, dq {tdq:.3f})", flush=True)

t0 = time.time()
CHECK = os.environ.get("CHECK_VARIANTS", " ".join(V)).split()
B64 = os.environ.get("BENCH64", "split64 atomic64").split()
B128 = os.environ.get("BENCH128", "split128 atomic128 fa2_128").split()
if which in ("all", "check"):
    bad = 0
    for var in CHECK:
        dt = torch.float16 if var.endswith("h") else torch.bfloat16
        for args in ((2, 3, 200, 200, True, None), (1, 2, 300, 130, True, None), (1, 2, 130, 300, True, -0.1), (2, 2, 150, 333, False, None),
                     (1, 3, 333, 150, False, 0.2)):
            bad += not check(var, *args, dt)
        bad += not check(var, 2, 3, 257, 257, True, None, dt, transposed=True)
    print(f"checks: {bad} failed ({time.time() - t0:.0f} s)", flush=True)
if which in ("all", "bench"):
    if B64:
        bench(B64, 8, 12, 1024, 64, True, None, torch.bfloat16, True, "gpt2 8x12x1024x64 causal bf16")
    if B128:
        bench(B128, 1, 32, 2048, 128, True, 0.08838834764831843, torch.bfloat16, False, "llama 1x32x2048x128 causal bf16")
print(f"done ({time.time() - t0:.0f} s)")
