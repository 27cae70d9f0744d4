#!/usr/bin/env python3
# tools/cuda-graph.py — the include graph and the file-level call graph of executors/cuda, from the sources
#
#   tools/cuda-graph.py [--dir executors/cuda] [--dot] [--check-cycles PREFIX [--allow FILE]]
#
# Includes: the #include "..." lines of every .c, .cc, .h and .cuh file. Calls: every function or object
# defined at file scope in a .c/.cc file (a name at column 0 followed by " (" or a "const T NAME =" object),
# and, in every other .c/.cc file, each use of such a name (an identifier token outside comments and
# strings): file A -> file B when A uses a name B defines. Only names of the project's cross-file form count
# (wb_... and _wb_..., not static). No compiler is needed: the regexes follow the
# project's layout (GNU style: the return type on its own line, the name at column 0).
#
# --check-cycles PREFIX: the cycles (strongly connected components of more than one file) of the call graph
# among the files whose name starts with PREFIX; exit 1 if there is one that --allow FILE does not list
# (one cycle per line: its files sorted, separated by spaces; '#' starts a comment). Prints each cycle.
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
FUNC_DEF = re.compile(r'^([A-Za-z_]\w*) \(', re.M)
OBJ_DEF = re.compile(r'^(?!static)(?:const\s+)?\w+\s+(?:const\s+)?\*?\s*([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*=', re.M)
TOKEN = re.compile(r'[A-Za-z_]\w*')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'defined', 'G_DEFINE_QUARK', 'G_DEFINE_AUTOPTR_CLEANUP_FUNC'}


def strip(text):
    """The text without comments and string or character literals (kept as spaces, lines preserved)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + re.sub(r'[^\n]', ' ', text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def load(directory):
    files = sorted(f for f in os.listdir(directory) if f.endswith(('.c', '.cc', '.h', '.cuh')))
    texts = {f: strip(open(os.path.join(directory, f), encoding='utf-8').read()) for f in files}
    raw = {f: open(os.path.join(directory, f), encoding='utf-8').read() for f in files}
    includes = {f: sorted(set(i for i in INCLUDE.findall(raw[f]) if i in texts)) for f in files}
    defined = {}
    for f in files:
        if not f.endswith(('.c', '.cc')):
            continue
        for name in FUNC_DEF.findall(texts[f]) + OBJ_DEF.findall(texts[f]):
            # cross-file names follow the convention wb_<noun>_<verb> / _wb_<...> (model-codebases.md)
            if name not in KEYWORDS and (name.startswith('wb_') or name.startswith('_wb_')):
                defined.setdefault(name, f)
    # static functions are private to their file: a name defined static is not a cross-file target
    statics = {}
    for f in files:
        for m in re.finditer(r'^static[^\n;{]*\n([A-Za-z_]\w*) \(', texts[f], re.M):
            statics.setdefault(m.group(1), set()).add(f)
    calls = {f: set() for f in files}
    for f in files:
        if not f.endswith(('.c', '.cc')):
            continue
        for tok in set(TOKEN.findall(texts[f])):
            g = defined.get(tok)
            if g is None or g == f or g in statics.get(tok, ()):
                continue
            calls[f].add(g)
    return files, includes, {f: sorted(c) for f, c in calls.items()}


def cycles(nodes, edges):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in nodes:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sorted(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--dir', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'executors', 'cuda'))
    ap.add_argument('--dot', action='store_true', help='print the call graph as Graphviz dot')
    ap.add_argument('--check-cycles', metavar='PREFIX')
    ap.add_argument('--allow', metavar='FILE')
    args = ap.parse_args()
    files, includes, calls = load(args.dir)

    if args.check_cycles:
        nodes = {f for f in files if f.startswith(args.check_cycles)}
        allowed = set()
        if args.allow:
            for line in open(args.allow, encoding='utf-8'):
                line = line.split('#', 1)[0].split()
                if line:
                    allowed.add(tuple(sorted(line)))
        found = cycles(nodes, calls)
        new = [c for c in found if tuple(c) not in allowed]
        for c in found:
            print(('cycle: ' if tuple(c) not in allowed else 'cycle (allowed): ') + ' '.join(c))
        for c in sorted(allowed - {tuple(c) for c in found}):
            print('allowed cycle no longer there (remove it from the list): ' + ' '.join(c))
        if not found:
            print(f'no cycle among the {len(nodes)} files {args.check_cycles}*')
        return 1 if new else 0

    if args.dot:
        print('digraph cuda {')
        for f in files:
            for g in calls[f]:
                print(f'  "{f}" -> "{g}";')
        print('}')
        return 0
    print('# includes (file: the files of this folder it includes)')
    for f in files:
        if includes[f]:
            print(f'{f}: {" ".join(includes[f])}')
    print('\n# calls (file: the files whose functions or objects it uses)')
    for f in files:
        if calls[f]:
            print(f'{f}: {" ".join(calls[f])}')
    print('\n# cycles of the call graph')
    for c in cycles(set(files), calls):
        print(' '.join(c))
    return 0


if __name__ == '__main__':
    sys.exit(main())
