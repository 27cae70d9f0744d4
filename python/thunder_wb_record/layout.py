# layout.py — writes one captured case laid out like ../shared/traces/<case>/ and the capture's manifest
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A capture directory (THUNDER_WB_RECORD_DIR) holds:
#   record.json          the manifest: schema "thunder-wb/record" version 1, the Python/PyTorch/Thunder
#                        versions, and one record per case ({"name", "dir", "function", "counts",
#                        "profile", "errors"}); rewritten atomically after every case
#   env-<pid>.json       only when a process could not import torch or thunder ({"missing": [...]})
#   <case>/              one folder per compiled entry of a jitted function:
#     prologue_NN.py     str(trace) of every trace of thunder.last_prologue_traces(jfn), NN = list index
#     forward_NN.py      every trace of thunder.last_traces(jfn)
#     backward_NN.py     every trace of thunder.last_backward_traces(jfn) (training only)
#     epilogue_NN.py     the epilogue trace(s)
#     stages/NN_<label>.py  the intermediate traces Thunder computes but does not keep
#     meta.json          inputs, parameters, outputs, executors, one record per trace file, timings
#     tensors.safetensors  with --save-inputs: input.<arg>, param.<name>, buffer.<name>
#     profile.json       with --profile: Thunder's own per-region kernel times (see profile.py)
# A distributed program (distributed.py: torchrun's RANK/WORLD_SIZE, or torch.distributed initialised)
# is recorded per rank instead, so that ranks never write the same file:
#   record-rank<R>.json  rank R's manifest: as record.json, with "distributed" ({"world_size", "rank",
#                        "local_rank", "backend", "launcher"}) and per case "dir": "<case>/rank<R>",
#                        "case": "<case>", "rank": R
#   <case>/rank<R>/      rank R's case folder, laid out as <case>/ above; the same compiled entry gets
#                        the same <case> name on every rank (names are taken per rank)
# `thunder-wb record` then writes record.json listing every rank's cases (with "ranks").

import json
import os
import re

KINDS = ("prologue", "forward", "backward", "epilogue")

MANIFEST = "record.json"
SCHEMA = "thunder-wb/record"
SCHEMA_VERSION = 1


def safe_name(text, fallback="case"):
    """A folder or file name from @text: letters, digits, '_', '-' and '.', never starting with '.'."""
    s = re.sub(r"[^A-Za-z0-9_.-]+", "_", str(text)).strip("._")
    return s[:80] or fallback


def stage_file_name(index, label):
    """stages/NN_<label>.py as ../shared/traces does it: every character but letters and digits -> '_'."""
    return "%02d_%s.py" % (index, re.sub(r"[^A-Za-z0-9]", "_", label))


def write_json(path, obj):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1, sort_keys=False, default=str)
        f.write("\n")
    os.replace(tmp, path)


def write_text(path, text):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(tmp, path)


def _first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line
    return ""


def _provenance(text):
    line = text.split("\n", 1)[0]
    return line if line.startswith("# Constructed by") else None


def write_case(case_dir, traces, stages=(), meta=None):
    """Writes the trace files of one case into @case_dir (created).

    @traces: dict kind -> list of trace objects or texts (str() is taken), kind in KINDS.
    @stages: sequence of (label, trace or text).
    @meta: dict merged into meta.json; "traces", "num_traces" and "captured_stages" are filled here.
    Returns the meta dict written."""
    os.makedirs(case_dir, exist_ok=True)
    records = []
    counts = {}
    for kind in KINDS:
        items = traces.get(kind) or []
        counts[kind] = len(items)
        for i, t in enumerate(items):
            text = t if isinstance(t, str) else str(t)
            if not text.endswith("\n"):
                text += "\n"
            name = "%s_%02d.py" % (kind, i)
            write_text(os.path.join(case_dir, name), text)
            records.append({
                "file": name, "kind": kind, "index": i, "provenance": _provenance(text),
                "first_line": _first_line(text), "chars": len(text),
            })
    stage_records = []
    if stages:
        os.makedirs(os.path.join(case_dir, "stages"), exist_ok=True)
        for i, (label, t) in enumerate(stages):
            text = t if isinstance(t, str) else str(t)
            if not text.endswith("\n"):
                text += "\n"
            name = stage_file_name(i, label)
            write_text(os.path.join(case_dir, "stages", name), text)
            stage_records.append({"file": "stages/" + name, "stage": label, "provenance": _provenance(text),
                                  "chars": len(text)})
    counts["stages"] = len(stage_records)
    out = dict(meta or {})
    th = dict(out.get("thunder") or {})
    th["traces"] = records
    th["num_traces"] = {k: counts[k] for k in KINDS}
    th["captured_stages"] = stage_records
    out["thunder"] = th
    write_json(os.path.join(case_dir, "meta.json"), out)
    return out, counts


def rank_manifest_name(rank):
    """record-rank<R>.json: the manifest rank @rank of a distributed program writes."""
    return "record-rank%d.json" % int(rank)


class Manifest:
    """record.json of a capture directory, rewritten after every change."""

    def __init__(self, capture_dir, info=None, rank=None):
        """@rank: None for one process's capture (record.json), else this rank's (record-rank<R>.json)."""
        self.dir = capture_dir
        self.rank = rank
        self.file = MANIFEST if rank is None else rank_manifest_name(rank)
        self.data = {"schema": SCHEMA, "version": SCHEMA_VERSION, "cases": []}
        self.data.update(info or {})
        path = os.path.join(capture_dir, self.file)
        if os.path.exists(path):  # another process of the same command (or a restart) wrote it first
            try:
                with open(path, encoding="utf-8") as f:
                    old = json.load(f)
                if old.get("schema") == SCHEMA:
                    self.data["cases"] = list(old.get("cases") or [])
            except (OSError, ValueError):
                pass

    def names(self):
        return {c.get("case", c.get("dir")) for c in self.data["cases"]}

    def case_path(self, name):
        """The folder of case @name relative to the capture directory: <case> or <case>/rank<R>."""
        return name if self.rank is None else f"{name}/rank{self.rank}"

    def new_case_dir(self, base):
        """Creates a fresh case folder from @base (base, base_1, base_2...) and returns its name."""
        base = safe_name(base)
        taken = self.names()
        name, k = base, 0
        while True:
            if name not in taken:
                try:
                    if self.rank is not None:
                        os.makedirs(os.path.join(self.dir, name), exist_ok=True)  # shared by the ranks
                    os.mkdir(os.path.join(self.dir, self.case_path(name)))  # atomic: one folder per process
                    return name
                except FileExistsError:
                    pass
            k += 1
            name = f"{base}_{k}"

    def add_case(self, record):
        self.data["cases"].append(record)
        self.save()

    def save(self):
        # re-read what other processes added, keep ours, write back
        path = os.path.join(self.dir, self.file)
        try:
            with open(path, encoding="utf-8") as f:
                old = json.load(f)
            mine = {c.get("dir") for c in self.data["cases"]}
            for c in old.get("cases") or []:
                if c.get("dir") not in mine:
                    self.data["cases"].append(c)
        except (OSError, ValueError):
            pass
        write_json(path, self.data)
