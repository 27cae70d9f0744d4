#!/usr/bin/env python3
"""The static memory plan's live peak of a training case, walked in Python from the trace text.

An independent check of executors/wb-memory-plan*.c (issue 44): this reads the printed forward and
backward traces of a zoo case (the last forward_NN.py and backward_00.py) with Python's own parser and
follows the lifetimes the plan's header describes (wb-memory-plan.h), written again here from that text:

  - a step is each top-level statement (comments and type annotations included) of the forward, then of
    the backward; a name lives from the step that binds it to the last step that reads it (its call's
    arguments, its subsymbols' arguments, a del, a return, an annotation); a name bound and never read
    after in its trace until that trace's end; a name the program returns (the forward's first returned
    item, the backward's gradients) until the last step;
  - views, in-place writes and same-dtype conversions share their argument's buffer (an alias group
    lives as long as its latest member); a clone, contiguous or a sum over dims of extent 1 has its own
    buffer and keeps its argument's alive as long as itself; a region's output that its subsymbols make a
    view of an argument or another output is that one's alias;
  - identity-shaped calls (a flip whose flipped dims all have extent 1, a pad of zero widths, a cat of
    one tensor) are aliases of their argument unless --identity-copies is given (then they are new
    tensors, as before issue 44's change);
  - groups holding a program input, a cotangent or an unpacked value are not planned;
  - outputs of one call with the same size live as long as the longest of them;
  - sizes rounded up to 512 bytes.

Prints the live peak (bytes and MiB), the step and the number of buffers. Usage:
  memory-plan-walk.py CASE_DIR [--identity-copies]
"""
import ast
import glob
import io
import os
import re
import sys
import tokenize

ALIGN = 512
DTYPE_BYTES = {"f64": 8, "f32": 4, "f16": 2, "bf16": 2, "i64": 8, "i32": 4, "i16": 2, "i8": 1, "ui8": 1, "u8": 1,
               "b8": 1, "bool": 1, "c64": 8, "c128": 16, "f8_e4m3fn": 1, "f8_e5m2": 1}
VIEWS = {"reshape", "torch_prims_reshape_impl", "view", "view_as", "_unsafe_view", "transpose", "permute", "expand",
         "expand_as", "broadcast_in_dim", "squeeze", "unsqueeze", "slice", "slice_prim", "torch_slice_prim_impl",
         "narrow", "flatten", "unflatten", "movedim", "t", "T", "mT", "split", "chunk", "tensor_split", "unbind",
         "diagonal", "detach", "alias", "shallow_copy", "unfold", "as_strided", "select", "real", "view_as_real",
         "view_as_complex", "unpack_trivial"}
CONVERSIONS = {"to", "type_as", "type", "torch_type", "convert_element_type", "clone", "contiguous", "float", "half",
               "bfloat16", "double", "long", "int", "cuda"}
COPIES = {"clone", "contiguous"}
UNIT_REDUCTIONS = {"sum", "prod", "amax", "amin"}
UTILITY = {"clear_mutable_collection", "get_grad", "python_return", "python_del"}
TYPE_RE = re.compile(r'#\s*([A-Za-z_][A-Za-z_0-9]*): "([^"]*)"\s*$')
TENSOR_RE = re.compile(r'^\S+ ([a-z0-9_]+)\[([0-9, ]*)\]')


def tensor_type(text):
    """(dtype, shape) of an annotation's text, or None"""
    m = TENSOR_RE.match(text or "")
    if not m:
        return None
    shape = tuple(int(x) for x in m.group(2).split(",") if x.strip())
    return m.group(1), shape


def nbytes(t):
    n = DTYPE_BYTES[t[0]]
    for d in t[1]:
        n *= d
    return n


def split_comment(text):
    """the code of a statement and its trailing comment (or None)"""
    comment = None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                comment = tok.string
                break
    except (tokenize.TokenError, IndentationError):
        pass
    if comment is None:
        return text, None
    idx = text.rfind(comment)
    return text[:idx], comment


def names_in(node):
    return [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]


def call_name(func):
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
    return ".".join(reversed(parts))


class Stmt:
    def __init__(self, kind):
        self.kind = kind  # call, unpack, annot, comment, del, return, expr
        self.targets = []
        self.uses = set()
        self.call = None  # ast.Call
        self.name = ""
        self.type = None  # the statement's own annotation text
        self.subs = []  # first-level subsymbols: Stmt of kind call


def parse_stmt(code):
    tree = ast.parse(code.strip().replace("\\\n", " "))
    return tree.body[0]


def targets_of(node):
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        out = []
        for e in node.elts:
            out += targets_of(e)
        return out
    return []


def make_call_stmt(node, comment):
    s = Stmt("call")
    if isinstance(node, ast.Assign):
        for t in node.targets:
            s.targets += targets_of(t)
        value = node.value
    else:
        value = node.value
    s.call = value
    s.name = call_name(value.func)
    for a in value.args:
        s.uses.update(names_in(a))
    for k in value.keywords:
        s.uses.update(names_in(k.value))
    if comment:
        m = TYPE_RE.search(comment)
        if m:
            s.type = (m.group(1), m.group(2))
    return s


def parse_trace(path):
    """(param names, steps) of the traced function in @path"""
    lines = open(path).read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("def "))
    sig = lines[start]
    params = [p.strip().split(":")[0] for p in sig[sig.index("(") + 1:sig.rindex(")")].split(",") if p.strip()]
    steps = []
    j = start + 1
    while j < len(lines):
        line = lines[j]
        if not line.strip():
            j += 1
            continue
        indent = len(line) - len(line.lstrip(" "))
        body = line.strip()
        if indent == 0:
            break
        if indent > 2:
            # a subsymbol of the previous statement: its uses are the statement's
            if body.startswith("#") and steps:
                code, comment = split_comment(body[1:].strip())
                try:
                    node = parse_stmt(code)
                except SyntaxError:
                    node = None
                if node is not None and isinstance(getattr(node, "value", None), ast.Call):
                    sub = make_call_stmt(node, comment)
                    steps[-1].uses.update(sub.uses)
                    if indent == 4:
                        steps[-1].subs.append(sub)
            j += 1
            continue
        if body.startswith("#"):
            m = TYPE_RE.match(body)
            if m:
                s = Stmt("annot")
                s.targets = [m.group(1)]
                s.type = (m.group(1), m.group(2))
                s.uses = {m.group(1)}
            else:
                s = Stmt("comment")
            steps.append(s)
            j += 1
            continue
        text = line
        while text.rstrip().endswith("\\"):
            j += 1
            text += "\n" + lines[j]
        j += 1
        code, comment = split_comment(text)
        node = parse_stmt(code)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            steps.append(make_call_stmt(node, comment))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            steps.append(make_call_stmt(node, comment))
        elif isinstance(node, ast.Assign):
            s = Stmt("unpack")
            for t in node.targets:
                s.targets += targets_of(t)
            s.uses.update(names_in(node.value))
            steps.append(s)
        elif isinstance(node, ast.Delete):
            s = Stmt("del")
            for t in node.targets:
                s.uses.update(names_in(t))
            steps.append(s)
        elif isinstance(node, ast.Return):
            s = Stmt("return")
            s.value = node.value
            s.uses.update(names_in(node.value) if node.value is not None else [])
            steps.append(s)
        else:
            s = Stmt("comment")
            s.uses.update(n for n in names_in(node))
            steps.append(s)
    return params, steps


def ints(node):
    """a tuple or list of int literals (or one int), or None"""
    try:
        v = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return None
    if isinstance(v, int) and not isinstance(v, bool):
        return [v]
    if isinstance(v, (tuple, list)) and all(isinstance(x, int) for x in v):
        return list(v)
    return None


def arg(call, pos, kw):
    if pos is not None and pos < len(call.args):
        return call.args[pos]
    for k in call.keywords:
        if k.arg == kw:
            return k.value
    return None


def identity_source(s, types):
    """the argument name a flip over extent-1 dims, a zero-width pad or a cat of one tensor returns"""
    base = s.name.split(".")[-1]
    c = s.call
    if base == "cat":
        lst = arg(c, 0, "tensors")
        if isinstance(lst, (ast.List, ast.Tuple)) and len(lst.elts) == 1 and isinstance(lst.elts[0], ast.Name):
            return lst.elts[0].id if lst.elts[0].id in types else None
        return None
    a = arg(c, 0, "a")
    if not isinstance(a, ast.Name) or a.id not in types:
        return None
    shape = types[a.id][1]
    rank = len(shape)
    if base == "flip":
        if len(c.args) > 2:
            dims = [x for n in c.args[1:] for x in (ints(n) or [None])]
        elif len(c.args) == 2 or arg(c, None, "dims") is not None:
            dims = ints(arg(c, 1, "dims"))
        else:
            dims = list(range(rank))
        if dims is None or None in dims:
            return None
        return a.id if all(-rank <= d < rank and shape[d] <= 1 for d in dims) else None
    if base in ("pad", "torch_pad_prim_impl") and s.name != "torch.nn.functional.pad" and not s.name.startswith("ltorch"):
        try:
            cfg = ast.literal_eval(arg(c, 2, "padding_config"))
        except (ValueError, SyntaxError, TypeError):
            return None
        if len(cfg) != rank:
            return None
        ok = all(lo == 0 and hi == 0 and (inner == 0 or shape[d] <= 1) for d, (lo, hi, inner) in enumerate(cfg))
        return a.id if ok else None
    if base == "pad":  # ltorch.pad / torch.nn.functional.pad
        widths = ints(arg(c, 1, "pad"))
        mode = arg(c, 2, "mode")
        if mode is not None and not (isinstance(mode, ast.Constant) and mode.value == "constant"):
            return None
        return a.id if widths is not None and len(widths) % 2 == 0 and all(w == 0 for w in widths) else None
    return None


def classify(s, types, identity):
    """('fresh' | 'alias' | 'maybe' | 'external', source) of call statement @s"""
    base = s.name.split(".")[-1]
    c = s.call
    if base in UTILITY or s.name == "prims.get_grad":
        return "external", None
    if base == "copy_":
        dst = arg(c, 1, "copy_to")
        return ("alias", dst.id) if isinstance(dst, ast.Name) else ("external", None)
    if base == "update_aliases":
        return "alias", [e.id if isinstance(e, ast.Name) else None for e in c.args[0].elts]
    if base.endswith("_") and not base.endswith("__"):
        return ("alias", c.args[0].id) if c.args and isinstance(c.args[0], ast.Name) else ("external", None)
    src0 = c.args[0].id if c.args and isinstance(c.args[0], ast.Name) else None
    if base in ("getitem", "__getitem__") and len(c.args) > 1 and any(n in types for n in names_in(c.args[1])):
        return "fresh", None
    if base in VIEWS:
        return ("alias", src0) if c.args else ("external", None)
    if identity:
        src = identity_source(s, types)
        if src is not None:
            return "alias", src
    out = types.get(s.targets[0]) if len(s.targets) == 1 else None
    if src0 is not None and base in CONVERSIONS:
        copy = any(k.arg == "copy" and not (isinstance(k.value, ast.Constant) and k.value.value is False) for k in c.keywords)
        a = types.get(src0)
        if a is not None and out is not None and a[0] == out[0] and base not in COPIES and not copy:
            return "alias", src0
        if (a is None or out is None or a[0] == out[0]) and not copy:
            return "maybe", src0
    if src0 is not None and base in UNIT_REDUCTIONS:
        a = types.get(src0)
        if a is not None and out is not None and a[0] == out[0] and nbytes(a) == nbytes(out):
            return "maybe", src0
    return "fresh", None


def region_output(s, name, types, identity):
    """what output @name of region @s is, through the chain of its first-level subsymbols"""
    kind = "alias"
    cur = name
    region_args = set()
    for a in s.call.args:
        region_args.update(names_in(a))
    for _ in range(32):
        d = next((x for x in reversed(s.subs) if cur in x.targets), None)
        if d is None:
            return "fresh", None
        k, src = classify(d, types, identity)
        if k not in ("alias", "maybe") or not isinstance(src, str):
            return "fresh", None
        if k == "maybe":
            kind = "maybe"
        cur = src
        if cur in region_args or (cur != name and cur in s.targets):
            return kind, cur
    return "fresh", None


def infer_types(traces, types):
    """types of unannotated outputs the case's files never print: max_pool2d_with_indices's (its output and
    int64 indices, [N, C, H', W'] with H' = (H + 2 p - d (k - 1) - 1) // s + 1)"""
    for _, steps in traces:
        for s in steps:
            if s.kind != "call" or s.name.split(".")[-1] != "max_pool2d_with_indices" or len(s.targets) != 2:
                continue
            a = s.call.args[0].id if isinstance(s.call.args[0], ast.Name) else None
            if a not in types:
                continue
            dtype, shape = types[a]
            spatial = len(shape) - 2

            def per_dim(pos, default):
                v = ints(s.call.args[pos]) if pos < len(s.call.args) else None
                v = v if v else default
                return v * spatial if len(v) == 1 else v
            k = per_dim(1, None)
            st = per_dim(2, k)
            pad = per_dim(3, [0])
            dil = per_dim(4, [1])
            out = tuple(shape[:2]) + tuple((shape[2 + i] + 2 * pad[i] - dil[i] * (k[i] - 1) - 1) // st[i] + 1 for i in range(spatial))
            types.setdefault(s.targets[0], (dtype, out))
            types.setdefault(s.targets[1], ("i64", out))


class Node:
    def __init__(self, name):
        self.name = name
        self.parent = None
        self.defn = None  # (step, output index, nbytes, call id)
        self.last = -1
        self.escapes = False
        self.returned = False
        self.defined = False
        self.bind_trace = -1
        self.used_since_bind = False
        self.maybe_of = None
        self.bind_step = 0


def root(n):
    while n.parent is not None:
        n = n.parent
    return n


def walk_case(case, identity=True):
    fw = sorted(glob.glob(os.path.join(case, "forward_*.py")))[-1]
    bw = os.path.join(case, "backward_00.py")
    types = {}
    # every annotation of the case's files, the program's own traces first
    for f in [fw, bw] + sorted(glob.glob(os.path.join(case, "**", "*.py"), recursive=True)):
        for line in open(f):
            m = TYPE_RE.search(line)
            if m and m.group(1) not in types:
                t = tensor_type(m.group(2))
                types[m.group(1)] = t
    types = {k: v for k, v in types.items() if v is not None}
    traces = [parse_trace(fw), parse_trace(bw)]
    infer_types(traces, types)
    nodes = {}

    def node(name):
        if name not in nodes:
            nodes[name] = Node(name)
        return nodes[name]

    for params, _ in traces:
        for p in params:
            n = node(p)
            n.escapes = n.defined = True
    # returned: the forward's first item, the backward's whole value
    for tix, (_, steps) in enumerate(traces):
        ret = next((s for s in reversed(steps) if s.kind == "return"), None)
        if ret is None or ret.value is None:
            continue
        v = ret.value
        if tix == 0 and isinstance(v, ast.Tuple) and len(v.elts) == 2:
            v = v.elts[0]
        for name in names_in(v):
            node(name).returned = True
    step = 0
    for tix, (_, steps) in enumerate(traces):
        for call_id, s in enumerate(steps):
            for u in s.uses:
                n = node(u)
                n.last = step
                n.used_since_bind = True
            if s.kind == "call" and s.targets:
                kind, src = classify(s, types, identity)
                for k, out in enumerate(s.targets):
                    if out == "_":
                        continue
                    n = node(out)
                    frm = src[k] if isinstance(src, list) else src
                    ok = kind
                    if kind == "fresh" and s.subs:
                        ok, frm = region_output(s, out, types, identity)
                    n.defined = True
                    n.bind_trace = tix
                    n.bind_step = step
                    n.used_since_bind = False
                    if ok == "maybe" and frm is not None:
                        n.maybe_of = node(frm)
                    t = types.get(out)
                    if ok == "alias" and frm is not None:
                        a, b = root(node(frm)), root(n)
                        if a is not b:
                            b.parent = a
                    elif ok in ("fresh", "maybe") and t is not None and nbytes(t) > 0 and n.defn is None:
                        n.defn = (step, k, nbytes(t), (tix, call_id))
                    else:
                        n.escapes = True
            elif s.kind == "unpack":
                for out in s.targets:
                    n = node(out)
                    if not n.defined:
                        n.escapes = True
                    n.defined = True
                    n.bind_trace = tix
                    n.bind_step = step
                    n.used_since_bind = False
            step += 1
        for n in nodes.values():
            if n.bind_trace == tix and not n.used_since_bind and step > 0:
                n.last = max(n.last, step - 1)
    n_steps = step
    end = n_steps - 1
    # groups: escapes, returned, a single allocation, the latest use
    bases = {}
    for n in nodes.values():
        r = root(n)
        r.escapes |= n.escapes
        r.returned |= n.returned
        if n.defn is not None:
            if r in bases and bases[r] is not n:
                r.escapes = True
            bases[r] = n
    for n in nodes.values():
        r = root(n)
        if r is not n:
            r.last = max(r.last, n.last)
    for n in nodes.values():
        if root(n) is n and n.returned:
            n.last = end
    for n in sorted((n for n in nodes.values() if n.maybe_of is not None), key=lambda n: -n.bind_step):
        r, src = root(n), root(n.maybe_of)
        last = end if r.escapes or r.returned else max(r.last, n.bind_step)
        if src is not r:
            src.last = max(src.last, last)
    buffers = []
    for r, n in bases.items():
        if r.escapes:
            continue
        first, out, size, call = n.defn
        buffers.append([first, out, (size + ALIGN - 1) // ALIGN * ALIGN, max(first, r.last), call, n.name])
    buffers.sort(key=lambda b: (b[0], b[1]))
    for i, a in enumerate(buffers):
        k = i + 1
        while k < len(buffers) and buffers[k][4] == a[4]:
            b = buffers[k]
            if b[2] == a[2] and b[3] != a[3]:
                a[3] = b[3] = max(a[3], b[3])
            k += 1
    delta = [0] * (n_steps + 2)
    for first, _, size, last, _, _ in buffers:
        delta[first] += size
        delta[last + 1] -= size
    live, most, at = 0, 0, 0
    for s in range(n_steps):
        live += delta[s]
        if live > most:
            most, at = live, s
    return most, at, len(buffers), n_steps


def main():
    case = sys.argv[1]
    identity = "--identity-copies" not in sys.argv[2:]
    most, at, n, n_steps = walk_case(case, identity)
    print(f"{case}: live peak {most} bytes ({most / 1048576:.2f} MiB) at step {at} of {n_steps}, {n} buffers"
          f" (identity calls {'as aliases' if identity else 'as copies'})")


if __name__ == "__main__":
    main()
