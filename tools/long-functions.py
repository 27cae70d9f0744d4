#!/usr/bin/env python3
# long-functions.py — the functions of the C sources longer than a limit (default 150 lines)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# usage: tools/long-functions.py [LIMIT] [PATH...]   (default: every *.c under the source tree but build*/ and
# third_party/). A function is a '{' at column 0 up to the next '}' at column 0 (the project's GNU style puts
# both there; types and tables, whose brace follows typedef/struct or '=', are skipped), named by the last line before the brace that holds "name (". Its length is
# the lines from the brace to the closing brace, both counted. Prints "LINES FILE:LINE NAME", longest first.
import os
import re
import sys

limit = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 150
paths = [p for p in sys.argv[1:] if not p.isdigit()]
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
if not paths:
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith(("build", ".", "third_party")))
        paths += [os.path.join(d, f) for f in sorted(files) if f.endswith(".c")]
found = []
for path in paths:
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i] == "{" and (i == 0 or re.match(r"^(typedef|struct|union|enum)\b", lines[i - 1]) or lines[i - 1].rstrip().endswith("=")):
            # a type or a table's initialiser: skip to its closing brace at column 0 ("} Name;", "};")
            i += 1
            while i < len(lines) and not lines[i].startswith("}"):
                i += 1
        elif lines[i] == "{":
            name = "?"
            for k in range(i - 1, max(i - 8, -1), -1):
                m = re.match(r"^\s*([A-Za-z_]\w*) \(", lines[k])
                if m:
                    name = m.group(1)
                    break
            j = i + 1
            while j < len(lines) and lines[j] != "}":
                j += 1
            n = j - i + 1
            if n > limit:
                found.append((n, os.path.relpath(path, root), i + 1, name))
            i = j
        i += 1
for n, path, line, name in sorted(found, key=lambda x: (-x[0], x[1])):
    print(f"{n:5} {path}:{line} {name}")
