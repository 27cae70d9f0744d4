#!/usr/bin/env python3
# wb-embed-text.py — writes a C header defining NAME as the text of INPUT... joined in order (a string
# literal per line). Usage: wb-embed-text.py INPUT... OUTPUT NAME
# SPDX-License-Identifier: GPL-3.0-or-later
import sys

srcs, dst, name = sys.argv[1:-2], sys.argv[-2], sys.argv[-1]
lines = []
for src in srcs:
    with open(src, encoding='utf-8') as f:
        lines += f.read().splitlines()
with open(dst, 'w', encoding='utf-8') as out:
    out.write('/* generated from %s by wb-embed-text.py: do not edit */\n' % ', '.join(s.split('/')[-1] for s in srcs))
    out.write('static const char %s[] =\n' % name)
    for line in lines:
        esc = line.replace('\\', '\\\\').replace('"', '\\"')
        out.write('  "%s\\n"\n' % esc)
    out.write('  ;\n')
