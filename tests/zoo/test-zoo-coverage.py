#!/usr/bin/env python3
# test-zoo-coverage.py — `thunder-wb --headless coverage` over the zoo, at the levels that need no GPU (TAP)
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   test-zoo-coverage.py THUNDER_WB ZOO_DIR BASELINE.json OUT_DIR
#
# Runs coverage over every case of the unpacked zoo (tests/zoo/cases, tools/zoo/README.md) with the levels
# load, check, roundtrip, recompile and run-cpu, writes OUT_DIR/coverage.json and OUT_DIR/coverage.md, and
# checks:
#   - coverage ran to its end (exit 0 or 1: not a crash, not bad usage) and wrote its JSON report;
#   - every case folder of the zoo is in the report, as cases or as a folder without traces;
#   - the summary's counts are those of the per-case results;
#   - no case crashed or hung (a crash at any level is a defect whatever the input);
#   - per level, the cases and trace files passing are at least BASELINE's (a ratchet: raise BASELINE
#     when coverage improves; this test says so when it does).
# The summary is printed as TAP comments, so that it is in the test log (and .ci/run prints it).
import json
import os
import subprocess
import sys

LEVELS = ["load", "check", "roundtrip", "recompile", "run-cpu"]


def main():
    wb, zoo, baseline_path, out = sys.argv[1:5]
    os.makedirs(out, exist_ok=True)
    report = os.path.join(out, "coverage.json")
    if os.path.exists(report):
        os.unlink(report)
    jobs = str(min(4, os.cpu_count() or 1))
    cmd = [wb, "--headless", "coverage", zoo, "--levels", ",".join(LEVELS), "--jobs", jobs, "--timeout", "300",
           "--format", "json", "-o", report]
    p = subprocess.run(cmd, capture_output=True, text=True)
    with open(os.path.join(out, "coverage.md"), "w", encoding="utf-8") as f:
        f.write(p.stdout)
    results = []

    def check(ok, what, detail=""):
        results.append((bool(ok), what, detail))

    check(p.returncode in (0, 1) and os.path.exists(report), "coverage ran to its end and wrote its report",
          f"exit {p.returncode}; stderr: {p.stderr[-2000:]}")
    r = {}
    if os.path.exists(report):
        with open(report, encoding="utf-8") as f:
            r = json.load(f)
    cases = r.get("cases", [])
    skipped = r.get("skipped", [])
    tops = sorted(d for d in os.listdir(zoo) if os.path.isdir(os.path.join(zoo, d)))
    listed = {c["name"].split("/")[0] for c in cases} | {s["name"].split("/")[0] for s in skipped}
    missing = [t for t in tops if t not in listed]
    check(tops and not missing, f"all {len(tops)} zoo case folders are in the report", f"missing: {missing}")

    summary = r.get("summary", {}).get("levels", {})
    bad = []
    for level in LEVELS:
        ok = sum(1 for c in cases if c["levels"].get(level, {}).get("status") == "ok")
        failed = sum(1 for c in cases if c["levels"].get(level, {}).get("status") == "fail")
        s = summary.get(level, {})
        if s.get("cases_ok") != ok or s.get("cases_failed") != failed:
            bad.append(f"{level}: summary {s.get('cases_ok')}/{s.get('cases_failed')}, cases {ok}/{failed}")
    check(summary and not bad, "the summary counts are the per-case results", "; ".join(bad))

    crashed = [f"{c['name']} at {lv}: {v.get('error', '')[:200]}" for c in cases for lv, v in c["levels"].items()
               if "crashed" in (v.get("error") or "") or ("timed out" in (v.get("error") or "")
                                                           and v.get("status") == "fail")]
    check(not crashed, "no case crashed or hung", "; ".join(crashed[:10]))

    with open(baseline_path, encoding="utf-8") as f:
        base = json.load(f)["levels"]
    drops, gains = [], []
    for level in LEVELS:
        s, b = summary.get(level, {}), base.get(level, {})
        for key in ("cases_ok", "files_ok"):
            if key not in b:
                continue
            now = s.get(key, 0)
            if now < b[key]:
                drops.append(f"{level} {key} {now} < baseline {b[key]}")
            elif now > b[key]:
                gains.append(f"{level} {key} {b[key]} -> {now}")
    check(not drops, "no level passes fewer cases or trace files than coverage-baseline.json", "; ".join(drops))

    print(f"1..{len(results)}")
    for i, (ok, what, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}")
        if not ok and detail:
            for line in detail.splitlines():
                print(f"#   {line}")
    if gains:
        print("# coverage improved over tests/zoo/coverage-baseline.json (raise it): " + "; ".join(gains))
    summary_md = p.stdout[p.stdout.find("## SUMMARY"):] if "## SUMMARY" in p.stdout else p.stdout
    for line in summary_md.splitlines():
        print(f"# {line}")
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
