#!/bin/sh
# test-html-screenshot.sh — the HTML profile report renders in headless Chromium: profile mlp_small,
# write report.html, take a screenshot (tests/profiler/html-screenshot.png in the build folder) and check
# that it is a non-trivial PNG. Exit 77 (skip) when chromium is not installed (tools/setup.sh installs it).
set -eu

browser=""
for b in chromium chromium-browser google-chrome google-chrome-stable; do
  if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
  echo "chromium is not installed: skipping" >&2
  exit 77
fi

build=${WB_BUILD_ROOT:?WB_BUILD_ROOT is not set}
src=${WB_SOURCE_ROOT:?WB_SOURCE_ROOT is not set}
out="$build/tests/profiler"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$build/app/thunder-wb" --headless profile "$src/data/samples/mlp_small" --device cpu --iters 5 --warmup 1 \
  --report "$work/report.html" -q

rm -f "$out/html-screenshot.png"
# --no-sandbox: CI containers run as root; a fresh profile dir keeps it from touching the user's
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" \
  --window-size=1200,1800 --screenshot="$out/html-screenshot.png" "file://$work/report.html" >"$work/log" 2>&1 || {
  cat "$work/log" >&2
  exit 1
}
test -s "$out/html-screenshot.png" || { echo "no screenshot" >&2; cat "$work/log" >&2; exit 1; }
# a PNG signature and more than a blank page's few kilobytes
head -c 8 "$out/html-screenshot.png" | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a$'
size=$(wc -c <"$out/html-screenshot.png")
if [ "$size" -lt 20000 ]; then
  echo "screenshot is only $size bytes: the report did not render" >&2
  exit 1
fi
echo "screenshot: $out/html-screenshot.png ($size bytes)"
