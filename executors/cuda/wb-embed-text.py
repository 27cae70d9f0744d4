#!/usr/bin/env python3
# wb-embed-text.py — writes a C header defining NAME as the text of INPUT (a string literal per line).
# SPDX-License-Identifier: GPL-3.0-or-later
import sys

src, dst, name = sys.argv[1], sys.argv[2], sys.argv[3]
with open(src, encoding='utf-8') as f:
    lines = f.read().splitlines()
with open(dst, 'w', encoding='utf-8') as out:
    out.write('/* generated from %s by wb-embed-text.py: do not edit */\n' % src.split('/')[-1])
    out.write('static const char %s[] =\n' % name)
    for line in lines:
        esc = line.replace('\\', '\\\\').replace('"', '\\"')
        out.write('  "%s\\n"\n' % esc)
    out.write('  ;\n')
