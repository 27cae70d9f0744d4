# record_dist_zoo.py — records the zoo's distributed cases: each case of record_dist.py at each world size
# through `thunder-wb record` and torchrun, then one folder per case and world size
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   python3 tools/zoo/record_dist_zoo.py --wb build/app/thunder-wb --out ZOO [--nproc 1,2] [--device cuda]
#                                        [--timeout 150] [--thunder-main DIR] [CASE ...]
#
# For each CASE (record_dist.py's: ddp_llama, fsdp2_convnext, ...; CASE_thunder_main runs it with
# Thunder's main branch from --thunder-main) and each world size W it runs, one at a time (they share the
# GPUs),
#   thunder-wb record --out WORK/cap/CASE_wW --save-inputs --python PY -- \
#     torchrun --standalone --nproc-per-node W tools/zoo/record_dist.py CASE --extras WORK/extras/CASE_wW
# in a session of its own, killed as a whole after --timeout seconds, then lays out ZOO/CASE_wW/:
#   rank<R>/    rank R's case folder, as ../shared/traces/<case>/ (prologue_NN.py, forward_NN.py,
#               backward_NN.py, stages/, meta.json with "distributed" and the rank's timings,
#               tensors.safetensors with the inputs, the rank's parameters and the eager reference of
#               PyTorch's own DDP / FSDP2 / DTensor step: output.0, grad_output, grad.param.<name>, and
#               for sharded parameters grad.full.param.<name>); when Thunder compiled several entries
#               on a rank (ThunderFX subgraphs), one sub-folder per entry: rank<R>/<entry>/
#   zoo.json    the case, world size, transform, model, commands, versions, per rank the timings (PyTorch's
#               and Thunder's step, median ms of 20 after 3 warm-ups), status and errors, the log's tail
# A case that fails or runs past its time keeps its error in zoo.json, and the next one starts.
# ZOO/zoo-dist-record.json sums up every case.

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--wb", required=True, help="the thunder-wb binary")
    p.add_argument("--out", required=True, help="the zoo folder to write (one folder per case and world size)")
    p.add_argument("--work", default=None, help="scratch folder (default OUT.work)")
    p.add_argument("--nproc", default="1,2", help="world sizes, comma separated (default 1,2)")
    p.add_argument("--device", default="cuda")
    p.add_argument("--timeout", type=int, default=150, help="seconds per case and world size")
    p.add_argument("--python", default=sys.executable)
    p.add_argument("--thunder-main", default=None, help="a folder holding Thunder's main branch as thunder/")
    p.add_argument("--tensor-budget", type=int, default=2 << 20, help="bytes of tensors per rank")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--deadline", type=float, default=0, help="seconds: runs not started by then are left out")
    p.add_argument("cases", nargs="*")
    return p.parse_args()


def torchrun(python):
    """The torchrun beside @python, else `python -m torch.distributed.run` (the same program)."""
    t = os.path.join(os.path.dirname(python), "torchrun")
    return [t] if os.access(t, os.X_OK) else [python, "-m", "torch.distributed.run"]


def _text(b):
    return b.decode(errors="replace") if isinstance(b, bytes) else (b or "")


def record(a, case, world, work):
    zname = f"{case}_w{world}"
    base = case[: -len("_thunder_main")] if case.endswith("_thunder_main") else case
    cap = os.path.join(work, "cap", zname)
    extras = os.path.join(work, "extras", zname)
    shutil.rmtree(cap, ignore_errors=True)
    shutil.rmtree(extras, ignore_errors=True)
    env = dict(os.environ, PYTHONUNBUFFERED="1", OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    if case != base:
        if not a.thunder_main:
            return {"case": zname, "base": base, "world": world, "rc": None, "cap": cap, "extras": extras,
                    "thunder": "main", "error": "no --thunder-main folder for a case of Thunder's main"}
        env["PYTHONPATH"] = os.path.abspath(a.thunder_main) + os.pathsep + env.get("PYTHONPATH", "")
    script = [os.path.join(HERE, "record_dist.py"), base, "--extras", extras, "--device", a.device,
              "--iters", str(a.iters), "--warmup", str(a.warmup)]
    cmd = [a.wb, "record", "--out", cap, "--save-inputs", "--python", a.python, "--"] + torchrun(a.python) + \
        ["--standalone", "--nproc-per-node", str(world)] + script
    shown = ["thunder-wb", "record", "--out", "CAP", "--save-inputs", "--", "torchrun", "--standalone",
             "--nproc-per-node", str(world), "tools/zoo/record_dist.py", base, "--extras", "EXTRAS", "--device",
             a.device]
    t0 = time.time()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=a.timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        kill_tree(p.pid)
        out, _ = p.communicate()
        rc = "timeout"
    return {"case": zname, "base": base, "world": world, "rc": rc, "wall_s": time.time() - t0,
            "log": _text(out)[-12000:], "command": " ".join(shown), "cap": cap, "extras": extras,
            "thunder": "main" if case != base else "release"}


def descendants(pid):
    """Every process below @pid (read from /proc): torchrun starts each rank in a session of its own, so
    killing thunder-wb's process group does not reach them."""
    children = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat", encoding="utf-8") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(d))
            except (OSError, ValueError, IndexError):
                pass
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def kill_tree(pid):
    """SIGTERM to @pid's process group and every descendant, then SIGKILL to what is left after 5 s."""
    procs = [pid] + descendants(pid)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for q in procs:
            try:
                os.kill(q, sig)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            os.killpg(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        if sig == signal.SIGTERM:
            time.sleep(5)


def _load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def rank_entries(cap, rank):
    """The case names rank @rank captured (its record-rank<R>.json, or record.json's cases of that rank)."""
    m = _load(os.path.join(cap, f"record-rank{rank}.json"))
    if m is None:
        m = _load(os.path.join(cap, "record.json")) or {}
        return [c.get("case") for c in m.get("cases", []) if c.get("rank") == rank and c.get("case")]
    return [c.get("case") or c.get("dir", "").split("/")[0] for c in m.get("cases", [])]


def assemble_rank(a, rec, rank, dest, info):
    """ZOO/CASE_wW/rank<R>/ from the capture and the rank's extras; returns the entries."""
    from record_zoo import merge_tensors

    cap, extras, base = rec["cap"], rec["extras"], rec["base"]
    entries = [e for e in rank_entries(cap, rank) if e and os.path.isdir(os.path.join(cap, e, f"rank{rank}"))]
    flat = len(entries) == 1
    rdir = os.path.join(dest, f"rank{rank}")
    os.makedirs(rdir, exist_ok=True)
    ref = os.path.join(extras, f"{base}.rank{rank}.ref.safetensors")
    for e in entries:
        src = os.path.join(cap, e, f"rank{rank}")
        dst = rdir if flat else os.path.join(rdir, e)
        shutil.copytree(src, dst, dirs_exist_ok=True)
        meta = _load(os.path.join(dst, "meta.json")) or {}
        try:
            budget = a.tensor_budget if flat else a.tensor_budget // max(4, len(entries))
            meta["tensors"] = merge_tensors(dst, ref if flat else None, budget, meta.get("tensors"))
        except Exception as ex:
            meta.setdefault("errors", []).append(f"tensors: {type(ex).__name__}: {ex}")
        if flat:
            meta.setdefault("timings", {}).update(info.get("timings", {}))
            meta["description"] = info.get("what", meta.get("description"))
        meta["case"] = f"{rec['case']}/rank{rank}" + ("" if flat else f"/{e}")
        with open(os.path.join(dst, "meta.json"), "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=1, default=str)
            f.write("\n")
    if not flat and os.path.exists(ref):  # the reference stays beside the entries, whole
        shutil.copy2(ref, os.path.join(rdir, "reference.safetensors"))
    return entries


def assemble(a, rec):
    import record_dist

    zname, world = rec["case"], rec["world"]
    dest = os.path.join(a.out, zname)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    transform, model = record_dist.split_case(rec["base"])
    ranks = {}
    for r in range(world):
        info = _load(os.path.join(rec["extras"], f"{rec['base']}.rank{r}.json")) or {}
        try:
            entries = assemble_rank(a, rec, r, dest, info)
        except Exception as ex:
            entries = []
            info.setdefault("errors", []).append({"stage": "assemble", "error": f"{type(ex).__name__}: {ex}"})
        ranks[str(r)] = {"status": info.get("status", "not recorded"), "entries": entries,
                         "layout": "flat" if len(entries) == 1 else "entries", "timings": info.get("timings", {}),
                         "frontend": info.get("frontend"), "thunder_mode": info.get("thunder_mode"),
                         "rows": info.get("rows"), "errors": info.get("errors", []), "backend": info.get("backend")}
    r0 = _load(os.path.join(rec["extras"], f"{rec['base']}.rank0.json")) or {}
    statuses = sorted({v["status"] for v in ranks.values()})
    status = statuses[0] if len(statuses) == 1 else "ranks differ: " + " | ".join(statuses)
    if rec.get("error") and statuses == ["not recorded"]:
        status = rec["error"]
    if rec.get("rc") == "timeout":
        status = f"timed out after {a.timeout} s; " + status
    zoo = {"schema": "thunder-wb/zoo-case", "version": 1, "case": zname, "what": r0.get("what", f"{transform} {model}"),
           "family": "torchvision" if model == "convnext" else "torch", "training": True, "dtype": "float32",
           "executors": "default", "frontend": r0.get("frontend", "jit"), "thunder": rec.get("thunder"),
           "distributed": {"world_size": world, "transform": transform, "model": model,
                           "backend": r0.get("backend"), "global_batch": r0.get("global_batch")},
           "status": status, "ranks": ranks, "record_exit": rec.get("rc"), "record_wall_s": rec.get("wall_s"),
           "command": rec.get("command"), "versions": r0.get("versions"), "num_parameters": r0.get("num_parameters"),
           "reference_precision": r0.get("reference_precision"),
           "error": rec.get("error"), "log_tail": rec.get("log", "")[-4000:]}
    with open(os.path.join(dest, "zoo.json"), "w", encoding="utf-8") as f:
        json.dump(zoo, f, indent=1, default=str)
        f.write("\n")
    return zoo


def summary_line(z):
    def med(r, k):
        t = z["ranks"][r]["timings"]
        return ("%.2f" % t[k]["median_ms"]) if k in t else "-"

    per = "  ".join(f"r{r}: eager {med(r, 'eager')} thunder {med(r, 'thunder')} ms" for r in sorted(z["ranks"]))
    first = next((e["error"] for r in z["ranks"].values() for e in r["errors"]), z.get("error") or "")
    first = re.sub(r"\s+", " ", first)[:100]
    line = f"{z['case']:30s} {z['status'][:52]:52s} rc={z['record_exit']!s:7s} {z['record_wall_s'] or 0:6.1f}s  {per}"
    return line + (f"  [{first}]" if first else "")


def main():
    a = parse_args()
    import record_dist

    names = a.cases or record_dist.case_names() + (["tp_mlp_thunder_main"] if a.thunder_main else [])
    for n in names:
        record_dist.split_case(n[: -len("_thunder_main")] if n.endswith("_thunder_main") else n)
    worlds = [int(w) for w in a.nproc.split(",") if w.strip()]
    deadline = time.time() + a.deadline if a.deadline else 0
    work = a.work or a.out.rstrip("/") + ".work"
    os.makedirs(a.out, exist_ok=True)
    results = {}
    for n in names:
        for w in worlds:
            if deadline and time.time() > deadline:
                rec = {"case": f"{n}_w{w}", "base": n.replace("_thunder_main", ""), "world": w, "rc": None,
                       "error": "not started: the recording's deadline had passed", "cap": "", "extras": "",
                       "thunder": "main" if n.endswith("_thunder_main") else "release"}
            else:
                rec = record(a, n, w, work)
            try:
                z = assemble(a, rec)
            except Exception as e:  # the next case still runs
                print(f"{rec.get('case')}: cannot assemble: {type(e).__name__}: {e}", flush=True)
                results[rec.get("case")] = {"status": f"cannot assemble: {type(e).__name__}: {e}"}
                continue
            print(summary_line(z), flush=True)
            results[z["case"]] = {k: z[k] for k in ("status", "record_exit", "record_wall_s")}
            results[z["case"]]["timings"] = {r: v["timings"] for r, v in z["ranks"].items()}
    with open(os.path.join(a.out, "zoo-dist-record.json"), "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
