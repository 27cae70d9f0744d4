#!/usr/bin/env python3
# tests/compiler/test-function-length.py — no function of the program is over 200 lines (issue 42)
#
#   test-function-length.py SOURCE_ROOT [--limit N] [--table [MIN]]
#
# Every .c file under SOURCE_ROOT except tests/, third_party/, build folders and hidden folders. A function
# is what clang-format's GNU style makes of it: its body opens with '{' at column 0 and closes with the next
# '}' at column 0; its length is the lines from the one to the other, both counted. Initialisers of tables
# at file scope ("= {" at the end of a line) are not functions. The project's convention is functions under
# 150 lines; this test is the hard limit. Prints TAP: one test per file, failing with each function over.
# --table [MIN] prints every function of MIN lines or more (default 150), longest first, and exits 0.
import os
import re
import sys

SKIP_DIRS = {'tests', 'third_party', 'po', 'python'}
NAME = re.compile(r'^\**([A-Za-z_]\w*)\s*\(')


def sources(root):
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        keep = []
        for x in sorted(dirs):
            if x.startswith('.') or (rel == '.' and x in SKIP_DIRS):
                continue
            if os.path.exists(os.path.join(d, x, 'build.ninja')) or os.path.isdir(os.path.join(d, x, 'meson-private')):
                continue  # a build folder
            keep.append(x)
        dirs[:] = keep
        for f in sorted(files):
            if f.endswith('.c'):
                yield os.path.normpath(os.path.join(rel, f))


def functions(text):
    """(name, first line of the body, length in lines) for each function of a clang-formatted C file."""
    lines = text.split('\n')
    out = []
    i = 0
    while i < len(lines):
        if lines[i].startswith('{'):
            # the name: the nearest line above at column 0 that starts an identifier and a '('
            name = '?'
            for j in range(i - 1, max(i - 40, -1), -1):
                m = NAME.match(lines[j])
                if m:
                    name = m.group(1)
                    break
            prev = lines[i - 1].rstrip() if i > 0 else ''
            k = i + 1
            while k < len(lines) and not lines[k].startswith('}'):
                k += 1
            if not prev.endswith('='):
                out.append((name, i + 1, k - i + 1))
            i = k + 1
        else:
            i += 1
    return out


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    root = args[0]
    limit = 200
    table = None
    if '--limit' in args:
        limit = int(args[args.index('--limit') + 1])
    if '--table' in args:
        k = args.index('--table')
        table = int(args[k + 1]) if k + 1 < len(args) and args[k + 1].isdigit() else 150
    found = []
    files = list(sources(root))
    if not files:
        print(f'no .c file under {root}', file=sys.stderr)
        return 2
    for f in files:
        with open(os.path.join(root, f), encoding='utf-8') as fh:
            for name, line, n in functions(fh.read()):
                found.append((f, name, line, n))
    if table is not None:
        for f, name, line, n in sorted(found, key=lambda r: -r[3]):
            if n >= table:
                print(f'{n:5d}  {f}:{line}  {name}')
        return 0
    print(f'1..{len(files)}')
    failed = 0
    for k, f in enumerate(files, 1):
        over = [r for r in found if r[0] == f and r[3] > limit]
        if over:
            failed += 1
            print(f'not ok {k} {f}')
            for _, name, line, n in over:
                print(f'# {f}:{line}: {name}: {n} lines (limit {limit}): split it into helpers by what they do')
        else:
            print(f'ok {k} {f}')
    print(f'# {len(files)} files, {len(found)} functions, {failed} files with a function over {limit} lines')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
