# record_zoo.py — records the zoo: every case of cases.py through `thunder-wb record`, then one folder per case
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   python3 tools/zoo/record_zoo.py --wb build/app/thunder-wb --out ZOO [--device cuda] [--jobs 4]
#                                   [--thunder-main DIR] [--pack DIR] [CASE ...]
#
# For each case it runs
#   thunder-wb record --out WORK/cap/CASE --save-inputs -- PYTHON tools/zoo/record_case.py CASE --extras WORK/extras
# (several at once: --jobs; the timed loops take a file lock, so timings are not taken concurrently), then
# lays out ZOO/CASE/ as ../shared/traces/<case>/ is laid out:
#   - a thunder.jit case: the traces of its one compiled entry directly in ZOO/CASE/ (prologue_NN.py,
#     forward_NN.py, backward_NN.py, epilogue_NN.py, stages/, meta.json, tensors.safetensors);
#   - a ThunderFX case (or a jit failure retried through ThunderFX): one sub-folder per compiled subgraph;
#   - a jit failure: thunder_jit_failed/ with every trace Thunder produced before it failed;
#   - zoo.json: the case, the commands that made it, versions, timings (eager, torch.compile, Thunder), errors.
# tensors.safetensors holds the inputs, parameters and buffers (the recorder's --save-inputs) and the eager
# reference (output.0, grad_output, grad.*). Where all of them exceed --tensor-budget bytes, parameters,
# buffers and gradients larger than 4096 elements keep their first 4096 elements as KEY.head (1-d) and the
# safetensors "info" metadata says "saved": "head" for them, with their sum, min, max and mean.
# --pack DIR writes DIR/CASE.tar.xz of each case folder (what tests/zoo/ holds).

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

HEAD = 4096


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--wb", required=True, help="the thunder-wb binary")
    p.add_argument("--out", required=True, help="the zoo folder to write (one folder per case)")
    p.add_argument("--work", default=None, help="scratch folder (default OUT.work)")
    p.add_argument("--device", default="cuda")
    p.add_argument("--jobs", type=int, default=4)
    p.add_argument("--timeout", type=int, default=420, help="seconds per case")
    p.add_argument("--python", default=sys.executable)
    p.add_argument("--thunder-main", default=None, help="a folder holding Thunder's main branch as thunder/")
    p.add_argument("--tensor-budget", type=int, default=2 << 20)
    p.add_argument("--pack", default=None)
    p.add_argument("--no-compile", action="store_true")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--deadline", type=float, default=0, help="seconds: cases not started by then are left out")
    p.add_argument("cases", nargs="*")
    return p.parse_args()


SLOW_FIRST = ("llama_32layer", "densenet121", "resnet50", "convnext_tiny", "efficientnet_b0", "regnet_y_400mf",
              "_thunder_main", "whisper", "t5", "bart", "deberta_v2", "clip", "mixtral", "qwen2_moe")


def order(names):
    """The slowest cases first, so that a pool of jobs ends together."""
    def rank(n):
        for i, key in enumerate(SLOW_FIRST):
            if key in n:
                return i
        return len(SLOW_FIRST)

    return sorted(names, key=rank)


def record(a, name, c, work):
    if a.deadline and time.time() > a.deadline:
        return {"case": name, "rc": None, "error": "not started: the recording's deadline had passed"}
    cap = os.path.join(work, "cap", name)
    extras = os.path.join(work, "extras")
    shutil.rmtree(cap, ignore_errors=True)
    env = dict(os.environ)
    env["ZOO_GPU_LOCK"] = os.path.join(work, "gpu.lock")
    env.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "2")
    env["PYTHONUNBUFFERED"] = "1"
    if c["thunder"] == "main":
        if not a.thunder_main:
            return {"case": name, "rc": None, "error": "no --thunder-main folder for a case of Thunder's main"}
        env["PYTHONPATH"] = os.path.abspath(a.thunder_main) + os.pathsep + env.get("PYTHONPATH", "")
    device = c.get("device", a.device)  # a case may name its own (extend_executor: the cpu)
    cmd = [a.wb, "record", "--out", cap, "--save-inputs", "--", a.python, os.path.join(HERE, "record_case.py"),
           name, "--extras", extras, "--device", device, "--iters", str(a.iters)]
    if a.no_compile:
        cmd.append("--no-compile")
    t0 = time.time()
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=a.timeout)
        rc, out = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out = "timeout", ((e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")) + \
            ((e.stderr or b"").decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or ""))
    return {"case": name, "rc": rc, "wall_s": time.time() - t0, "log": out[-8000:],
            "command": " ".join(cmd[:1] + ["record", "--out", "CAP", "--save-inputs", "--", "python3",
                                           "tools/zoo/record_case.py", name, "--extras", "EXTRAS", "--device",
                                           device])}


def _summary(t):
    f = t.float()
    return {"sum": float(f.sum()), "abs_sum": float(f.abs().sum()), "min": float(f.min()) if f.numel() else 0.0,
            "max": float(f.max()) if f.numel() else 0.0, "mean": float(f.mean()) if f.numel() else 0.0}


def merge_tensors(entry_dir, ref_path, budget, recorded=None):
    """entry_dir/tensors.safetensors + the eager reference, within the budget (see the file's comment).
    @recorded: the recorder's meta.json "tensors" for that file, whose account of what the recorded call
    wrote in place (python/thunder_wb_record/snapshot.py) is kept."""
    from safetensors.torch import load_file, save_file

    path = os.path.join(entry_dir, "tensors.safetensors")
    tensors = load_file(path) if os.path.exists(path) else {}
    if ref_path and os.path.exists(ref_path):
        tensors.update(load_file(ref_path))
    total = sum(t.numel() * t.element_size() for t in tensors.values())
    out, info = {}, {}
    for k, t in tensors.items():
        d = {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", ""), **_summary(t)}
        big = total > budget and t.numel() > HEAD and not k.startswith(("input.", "output.", "grad_output"))
        if big:
            out[k + ".head"] = t.reshape(-1)[:HEAD].contiguous()
            d.update(saved="head", key=k + ".head", elements=HEAD)
        else:
            out[k] = t.contiguous()
            d.update(saved="full", key=k)
        info[k] = d
    if out:
        save_file(out, path, metadata={"info": json.dumps(info), "creator": "tools/zoo/record_zoo.py"})
    merged = {"file": "tensors.safetensors", "complete": all(v["saved"] == "full" for v in info.values()),
              "bytes": os.path.getsize(path) if out else 0, "tensors": info}
    for k in ("note", "inputs_written_in_place", "saved_after_write"):
        if isinstance(recorded, dict) and k in recorded:
            merged["recorder_" + k if k == "note" else k] = recorded[k]
    return merged


def assemble(a, name, c, work, rec):
    cap = os.path.join(work, "cap", name)
    extras = os.path.join(work, "extras")
    dest = os.path.join(a.out, name)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    info = {}
    ipath = os.path.join(extras, f"{name}.json")
    if os.path.exists(ipath):
        with open(ipath, encoding="utf-8") as f:
            info = json.load(f)
    manifest = {}
    mpath = os.path.join(cap, "record.json")
    if os.path.exists(mpath):
        with open(mpath, encoding="utf-8") as f:
            manifest = json.load(f)
    entries = [e["dir"] for e in manifest.get("cases", [])]
    flat = len(entries) == 1 and c["frontend"] == "jit" and info.get("status") == "ok"
    ref = os.path.join(extras, f"{name}.ref.safetensors")
    for e in entries:
        src = os.path.join(cap, e)
        dst = dest if flat else os.path.join(dest, e)
        if not flat:
            shutil.copytree(src, dst)
        else:
            for item in os.listdir(src):
                s = os.path.join(src, item)
                (shutil.copytree if os.path.isdir(s) else shutil.copy2)(s, os.path.join(dst, item))
        meta_path = os.path.join(dst, "meta.json")
        meta = {}
        if os.path.exists(meta_path):
            with open(meta_path, encoding="utf-8") as f:
                meta = json.load(f)
        try:
            # the case's budget is shared by its entries (a ThunderFX case can have dozens)
            budget = a.tensor_budget if flat else a.tensor_budget // max(4, len(entries))
            meta["tensors"] = merge_tensors(dst, ref if flat else None, budget, meta.get("tensors"))
        except Exception as ex:
            meta.setdefault("errors", []).append(f"tensors: {type(ex).__name__}: {ex}")
        if flat:
            meta.setdefault("timings", {}).update(info.get("timings", {}))
            meta["description"] = info.get("what", meta.get("description"))
        meta["case"] = name if flat else f"{name}/{e}"
        with open(meta_path, "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=1, default=str)
            f.write("\n")
    failed = os.path.join(extras, f"{name}.failed")
    if os.path.isdir(failed):
        shutil.copytree(failed, os.path.join(dest, "thunder_jit_failed"))
    zoo = {"schema": "thunder-wb/zoo-case", "version": 1, "case": name,
           "what": c["what"], "family": c["family"], "training": c["training"], "dtype": c["dtype"],
           "executors": c["executors"], "frontend": c["frontend"], "thunder": c["thunder"],
           "status": info.get("status", "not recorded"), "entries": entries, "layout": "flat" if flat else "entries",
           "record_exit": rec.get("rc"), "record_wall_s": rec.get("wall_s"), "command": rec.get("command"),
           "versions": info.get("versions"), "num_parameters": info.get("num_parameters"),
           "reference_precision": info.get("reference_precision"), "timings": info.get("timings", {}), "errors": info.get("errors", []), "retry": info.get("retry"),
           "log_tail": rec.get("log", "")[-3000:]}
    with open(os.path.join(dest, "zoo.json"), "w", encoding="utf-8") as f:
        json.dump(zoo, f, indent=1, default=str)
        f.write("\n")
    if a.pack:
        os.makedirs(a.pack, exist_ok=True)
        with tarfile.open(os.path.join(a.pack, f"{name}.tar.xz"), "w:xz", preset=9) as tf:
            tf.add(dest, arcname=name, filter=_reset)
    return zoo


def _reset(ti):
    ti.uid = ti.gid = 0
    ti.uname = ti.gname = ""
    ti.mtime = 0
    return ti


def main():
    a = parse_args()
    import cases

    names = order(a.cases or cases.names())
    if a.deadline:
        a.deadline = time.time() + a.deadline
    unknown = [n for n in names if n not in cases.CASES]
    if unknown:
        print(f"record_zoo: unknown cases: {unknown}", file=sys.stderr)
        return 2
    work = a.work or a.out.rstrip("/") + ".work"
    os.makedirs(os.path.join(work, "extras"), exist_ok=True)
    os.makedirs(a.out, exist_ok=True)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futs = {pool.submit(record, a, n, cases.CASES[n], work): n for n in names}
        for fut in concurrent.futures.as_completed(futs):
            n = futs[fut]
            rec = fut.result()
            z = assemble(a, n, cases.CASES[n], work, rec)
            t = z["timings"]
            med = lambda k: ("%.3f" % t[k]["median_ms"]) if k in t else "-"
            print(f"{n:32s} {z['status']:34s} rc={rec.get('rc')!s:7s} {rec.get('wall_s', 0):6.1f}s  eager {med('eager')}"
                  f"  compile {med('torch_compile')}  thunder {med('thunder')}  entries {len(z['entries'])}", flush=True)
            results[n] = z
    with open(os.path.join(a.out, "zoo-record.json"), "w", encoding="utf-8") as f:
        json.dump({n: {k: results[n][k] for k in ("status", "record_exit", "record_wall_s", "entries")}
                   for n in sorted(results)}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
