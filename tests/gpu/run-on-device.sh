#!/bin/sh
# run-on-device.sh — the gpu suite on the GPU machine from a bundle made by tools/gpu-bundle.sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# usage: tests/gpu/run-on-device.sh BUNDLE.tar.gz [OUTDIR]
# Unpacks the bundle, points LD_LIBRARY_PATH at its libraries and the machine's CUDA, and runs
# test-cuda-codegen (and its -pointwise, -reduce), test-cuda-conformance, test-cuda-conformance-attention, test-cuda-conformance-conv and
# test-cuda-runner, then the profile scripts
# (test-cuda-profile.sh, test-cuda-cupti.sh) and, with gpt2_block/llama_layer bundled,
# tests/bench/bench-gpu-overhead.sh. A conformance case that faults ends its
# process on purpose (the CUDA context is lost); the run resumes after it. Prints a summary table and the
# failures; the full TAP logs go to OUTDIR.
set -u
bundle=$1
out=${2:-/tmp/wb-gpu-out}
root=/tmp/wb-bundle
mkdir -p "$root" "$out"
tar -C "$root" -xzf "$bundle"
export LD_LIBRARY_PATH="$root/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export WB_BUILD_ROOT="$root" WB_TRACES_DIR="$root/traces" WB_KERNEL_CACHE_DIR="$root/kcache"
export G_DEBUG=gc-friendly MALLOC_CHECK_=2
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo "nvidia-smi: not available"
python3 - "$root" "$out" <<'PY'
import os, re, subprocess, sys, time
root, out = sys.argv[1], sys.argv[2]
summary = []
def run(name, args, timeout, env=None, label=None):
    label = label or name
    skip, log, t0, crashes = [], open(f"{out}/{label}.log", "w"), time.time(), []
    results = {}
    while True:
        cmd = [f"{root}/tests/gpu/{name}", "--tap", "--keep-going"] + args
        for s in skip:
            cmd += ["-s", s]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=dict(os.environ, **(env or {})))
            text, rc = p.stdout + p.stderr, p.returncode
        except subprocess.TimeoutExpired as e:
            text, rc = (e.stdout or b"").decode(errors="replace") + "\nTIMEOUT\n", -999
        log.write(f"$ {' '.join(cmd[:3])} (+{len(skip)} skipped)\n{text}\n")
        for m in re.finditer(r"^(ok|not ok) \d+ (\S+)(.*)$", text, re.M):
            if "by request" in m.group(3) and m.group(2) in results:
                continue
            results[m.group(2)] = ("skip" if "# SKIP" in m.group(3) else m.group(1))
        if rc in (0, 1):
            break
        # crashed (a fault ends the process on purpose): find the case that was running, resume after it
        listed = subprocess.run([f"{root}/tests/gpu/{name}", "-l"] + args, capture_output=True, text=True).stdout.split()
        pending = [t for t in listed if t.startswith("/") and t not in results and t not in skip]
        if not pending or rc == -999:
            break
        crashes.append(pending[0])
        results[pending[0]] = "not ok"
        skip = [t for t in listed if t in results]
        tail = "\n".join(text.strip().splitlines()[-6:])
        print(f"{label}: {pending[0]} ended the process (status {rc}):\n{tail}\n")
    n = {k: sum(1 for v in results.values() if v == k) for k in ("ok", "not ok", "skip")}
    summary.append((label, n["ok"], n["not ok"], n["skip"], len(crashes), time.time() - t0))
    fails = [k for k, v in results.items() if v == "not ok"]
    if fails:
        print(f"{label}: FAILED {len(fails)}: " + " ".join(fails[:60]))
        lines = open(f"{out}/{label}.log").read().splitlines()
        shown = 0
        for i, l in enumerate(lines):
            m = re.match(r"^not ok \d+ (\S+)", l)
            if m and shown < 14:
                shown += 1
                msg = [x for x in lines[max(0, i - 12):i] if x.startswith("#") and not x.startswith("# Start") and not x.startswith("# End")]
                print(f"--- {m.group(1)}\n" + "\n".join(x[:400] for x in msg[-8:]))
run("test-cuda-codegen", [], 300)
run("test-cuda-codegen-pointwise", [], 300)
run("test-cuda-codegen-reduce", [], 300)
run("test-cuda-conformance", [], 500)
run("test-cuda-conformance-attention", [], 500)
# the backward's dQ from its own kernel instead of atomic adds
run("test-cuda-conformance-attention", [], 500, {"WB_CUDA_ATTN": "deterministic"}, "test-cuda-conformance-attention-det")
run("test-cuda-conformance-conv", [], 300)
run("test-cuda-runner", [], 300)
run("test-cuda-vector", [], 300)
print(f"\n{'test':<38}{'ok':>6}{'fail':>6}{'skip':>6}{'crash':>7}{'s':>8}")
for row in summary:
    print(f"{row[0]:<38}{row[1]:>6}{row[2]:>6}{row[3]:>6}{row[4]:>7}{row[5]:>8.1f}")
PY

# the conformance table: per op, executor and dtype, the cases within tolerance and the worst error
echo; echo "== conformance table"
python3 "$root/tests/gpu/conformance-table.py" "$out"/test-cuda-conformance*.log

# profiling through the runner: region times (test-cuda-profile.sh) and CUPTI's kernel records and their
# attribution to regions, with the CUDA-event fallback (test-cuda-cupti.sh); each ends with "ok: ..."
for t in test-cuda-profile test-cuda-cupti; do
  [ -x "$root/tests/gpu/$t.sh" ] || continue
  echo; echo "== $t.sh"
  timeout 300 "$root/tests/gpu/$t.sh" > "$out/$t.log" 2>&1
  rc=$?
  grep -E "^(ok|skip)|^- (kernel records|Attribution)|^  cuBLASLt|Error|assert|exited" "$out/$t.log" | cut -c1-600
  echo "$t.sh: exit $rc (0 pass, 77 skip; log in $out/$t.log)"
done

# --cuda-graphs (test-cuda-graphs.sh): the graph's note, the medians with and without it, the refused capture
if [ -f "$root/tests/gpu/test-cuda-graphs.sh" ]; then
  echo; echo "== test-cuda-graphs.sh"
  timeout 300 sh "$root/tests/gpu/test-cuda-graphs.sh" > "$out/test-cuda-graphs.log" 2>&1
  rc=$?
  grep -E "^(graphs note|graph replay kernels|note|fallback note|iteration median|ok|skip)|Error|assert|exited" "$out/test-cuda-graphs.log" | cut -c1-700
  echo "test-cuda-graphs.sh: exit $rc (0 pass, 77 skip; log in $out/test-cuda-graphs.log)"
fi

# the second stream (test-cuda-streams.sh): gpt2_block's weight-gradient matmuls there, the same results
if [ -f "$root/tests/gpu/test-cuda-streams.sh" ]; then
  echo; echo "== test-cuda-streams.sh"
  timeout 300 sh "$root/tests/gpu/test-cuda-streams.sh" > "$out/test-cuda-streams.log" 2>&1
  rc=$?
  cat "$out/test-cuda-streams.log" | cut -c1-400
  echo "test-cuda-streams.sh: exit $rc (0 pass, 77 skip; log in $out/test-cuda-streams.log)"
fi

# the acceptance runs, printed in full: Thunder's final stages and the workbench's recomputed ones
for c in mlp_small elementwise_chain_small; do
  t="$root/traces/$c/tensors.safetensors"
  [ -f "$t" ] || continue
  echo; echo "== run $c --device cuda --compare tensors.safetensors"
  WB_CUDA_ITERS=30 "$root/app/thunder-wb" --headless run "$root/traces/$c" --device cuda --inputs "$t" --compare "$t" 2>&1 | tail -14
  echo "exit $?"
  echo "== run $c with every op on the per-op cuda executor (--default-executor cuda)"
  WB_CUDA_ITERS=30 "$root/app/thunder-wb" --headless run "$root/traces/$c" --device cuda --default-executor cuda --inputs "$t" --compare "$t" 2>&1 | grep -E "executed|NVRTC|time: median|compared"
  k=$("$root/app/thunder-wb" --headless stages "$root/traces/$c" --recompile | awk '/workbench/ && /Delete Last Used/ && ($2 == "forward" || $2 == "computation") { k = $1 } END { print k }')
  echo "== run $c --recompile --stage $k (nvrtc regions) --device cuda --compare"
  WB_CUDA_ITERS=30 "$root/app/thunder-wb" --headless run "$root/traces/$c" --recompile --stage "$k" --device cuda --inputs "$t" --compare "$t" 2>&1 | tail -14
done

# larger cases, when bundled: the cpu executor's results on the same inputs are the reference
for c in gpt2_block llama_layer; do
  [ -d "$root/traces/$c" ] || continue
  echo; echo "== $c: cpu reference, then --device cuda --compare"
  s=$(date +%s)
  "$root/app/thunder-wb" --headless run "$root/traces/$c" --save-outputs "/tmp/$c-cpu.safetensors" > /tmp/$c-cpu.log 2>&1 || { tail -5 /tmp/$c-cpu.log; continue; }
  echo "cpu run: $(( $(date +%s) - s )) s"
  s=$(date +%s)
  timeout 240 "$root/app/thunder-wb" --headless run "$root/traces/$c" --device cuda --inputs "/tmp/$c-cpu.safetensors" --compare "/tmp/$c-cpu.safetensors" > "$out/$c-cuda.log" 2>&1
  rc=$?
  grep -v "^inputs:" "$out/$c-cuda.log" | tail -40
  echo "exit $rc after $(( $(date +%s) - s )) s"
  # attention runs on the GPU (wb-cuda-attention.c): no sdpa op may fall back to the cpu
  echo "$c attention cpu fallbacks: $(grep -c 'cpu fallback: .*scaled_dot_product' "$out/$c-cuda.log") (expect 0)"
  k=$("$root/app/thunder-wb" --headless stages "$root/traces/$c" --recompile | awk '/workbench/ && /Delete Last Used/ && ($2 == "forward" || $2 == "computation") { k = $1 } END { print k }')
  echo "== $c --recompile --stage $k: cpu reference, then --device cuda --compare"
  "$root/app/thunder-wb" --headless run "$root/traces/$c" --recompile --stage "$k" --save-outputs "/tmp/$c-wb-cpu.safetensors" > /tmp/$c-wb-cpu.log 2>&1 || { tail -5 /tmp/$c-wb-cpu.log; continue; }
  timeout 240 "$root/app/thunder-wb" --headless run "$root/traces/$c" --recompile --stage "$k" --device cuda --inputs "/tmp/$c-wb-cpu.safetensors" --compare "/tmp/$c-wb-cpu.safetensors" > "$out/$c-wb-cuda.log" 2>&1
  rc=$?
  grep -E "executed|cpu fallback|not generated|time: median|compared|mismatch|FAIL|rror" "$out/$c-wb-cuda.log" | head -20
  echo "exit $rc; $c (workbench stages) attention cpu fallbacks: $(grep -c 'cpu fallback: .*scaled_dot_product' "$out/$c-wb-cuda.log") (expect 0)"
done

# the hand-written kernels (wb-cuda-kernels.c), when misc_ops / ce_loss are bundled: topk, uniform (Philox, bit
# for bit), empty, update_aliases, nll_loss_backward run on the GPU; the cpu run of the same stage is the reference
for c in misc_ops ce_loss; do
  [ -d "$root/traces/$c" ] || continue
  for ex in nvrtc cuda; do
    echo; echo "== $c (default executor $ex): cpu reference, then --device cuda --compare"
    "$root/app/thunder-wb" --headless run "$root/traces/$c" --save-outputs "/tmp/$c-cpu.safetensors" > /tmp/$c-cpu.log 2>&1 || { tail -5 /tmp/$c-cpu.log; continue; }
    timeout 240 "$root/app/thunder-wb" --headless run "$root/traces/$c" --device cuda --default-executor "$ex" --inputs "/tmp/$c-cpu.safetensors" --compare "/tmp/$c-cpu.safetensors" > "$out/$c-$ex-cuda.log" 2>&1
    rc=$?
    grep -E "executed|cpu fallback|compared|mismatch|FAIL|rror" "$out/$c-$ex-cuda.log" | head -20
    echo "exit $rc; $c ($ex) cpu fallbacks: $(grep -c '  cpu fallback: ' "$out/$c-$ex-cuda.log") (expect 0)"
  done
done

# what profiling costs (when gpt2_block / llama_layer are bundled): unprofiled vs CUPTI vs CUDA events
bench=""
for c in gpt2_block llama_layer; do
  [ -d "$root/traces/$c" ] && bench="$bench $c"
done
if [ -n "$bench" ] && [ -x "$root/tests/bench/bench-gpu-overhead.sh" ]; then
  echo; echo "== bench-gpu-overhead.sh$bench"
  timeout 500 "$root/tests/bench/bench-gpu-overhead.sh" $bench
fi
