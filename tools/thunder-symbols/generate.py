#!/usr/bin/env python3
# generate.py — the symbols Thunder defines, read from Thunder's own source, as a table (TSV)
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   python3 tools/thunder-symbols/generate.py THUNDER_PACKAGE_DIR > compiler/thunder-symbols/VERSION.tsv
#
# THUNDER_PACKAGE_DIR is the folder `thunder/` of a Lightning Thunder checkout or wheel. The source is read
# with Python's ast (nothing is imported, so neither torch nor Thunder need be installed). Rows, one per
# symbol, sorted: NAME <tab> MODULE <tab> SIGNATURE <tab> CATEGORY, where
#   - prims:  every make_prim(PrimIDs.X, "name", ...) of thunder/core/prims.py  -> prims.NAME, category prim;
#   - ltorch: every module-level function of thunder/torch/__init__.py decorated with @torchsymbol(...)
#             (also under a module-level if/try)
#             -> ltorch.NAME, its Python signature, category torch;
#   - torch executor: every _register_torch_operation("name", module=M) of thunder/executors/torchex.py
#             -> M.NAME as Thunder prints it (torch.NAME by default), category torch-executor;
#   - auto:   every torch function of thunder/torch/default_torch_ops.py, which Thunder registers
#             automatically and prints as ltorch.NAME -> ltorch.NAME, module auto, category torch-auto.
# Symbols Thunder makes in loops at import time (some in-place variants) are not in the source as such
# and are not listed. tests/compiler/test-thunder-symbols.c measures the workbench's meta coverage on it.
import ast
import os
import sys


def signature(fn):
    a = fn.args
    parts = []
    pos = a.posonlyargs + a.args
    defaults = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    for i, (arg, d) in enumerate(zip(pos, defaults)):
        parts.append(arg.arg + ("=" + ast.unparse(d) if d is not None else ""))
        if a.posonlyargs and i == len(a.posonlyargs) - 1:
            parts.append("/")
    if a.vararg:
        parts.append("*" + a.vararg.arg)
    elif a.kwonlyargs:
        parts.append("*")
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        parts.append(arg.arg + ("=" + ast.unparse(d) if d is not None else ""))
    if a.kwarg:
        parts.append("**" + a.kwarg.arg)
    return "(" + ", ".join(parts) + ")"


def parse(path):
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def prims(root):
    rows = []
    for node in ast.walk(parse(os.path.join(root, "core", "prims.py"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "make_prim" and len(node.args) >= 2:
            name = node.args[1]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                rows.append(("prims." + name.value, "prims", "", "prim"))
    return rows


def module_level_functions(body):
    """Function definitions at module level, including those under a module-level `if` (optional ops
    such as scaled_mm) or `try`."""
    for node in body:
        if isinstance(node, ast.FunctionDef):
            yield node
        elif isinstance(node, (ast.If, ast.Try)):
            yield from module_level_functions(node.body)
            yield from module_level_functions(node.orelse)


def ltorch(root):
    rows = []
    for node in module_level_functions(parse(os.path.join(root, "torch", "__init__.py")).body):
        for d in node.decorator_list:
            f = d.func if isinstance(d, ast.Call) else d
            if getattr(f, "id", None) == "torchsymbol":
                rows.append(("ltorch." + node.name, "ltorch", signature(node), "torch"))
                break
    return rows


def torchex(root):
    rows = []
    for node in ast.walk(parse(os.path.join(root, "executors", "torchex.py"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_register_torch_operation" and node.args:
            name = node.args[0]
            if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
                continue
            module = "torch"
            for k in node.keywords:
                if k.arg == "module":
                    module = ast.unparse(k.value)
            rows.append((module + "." + name.value, module, "", "torch-executor"))
    return rows


def auto_registered(root, defined):
    """The torch functions Thunder registers automatically (thunder/torch/default_torch_ops.py), printed
    ltorch.NAME; their meta in Thunder runs PyTorch on meta tensors. Names ltorch already defines are
    left out."""
    path = os.path.join(root, "torch", "default_torch_ops.py")
    if not os.path.exists(path):
        return []
    rows = []
    for node in ast.walk(parse(path)):
        if isinstance(node, ast.Dict):
            for value in node.values:
                for item in getattr(value, "elts", []):
                    if isinstance(item, ast.Attribute):
                        name = "ltorch." + item.attr
                        if name not in defined:
                            rows.append((name, "auto", "", "torch-auto"))
    return rows


def main():
    root = sys.argv[1]
    rows = prims(root) + ltorch(root) + torchex(root)
    rows = sorted(set(rows + auto_registered(root, {r[0] for r in rows})))
    print("# name\tmodule\tsignature\tcategory  (tools/thunder-symbols/generate.py %s)" % os.path.basename(
        os.path.dirname(os.path.abspath(root))))
    for r in rows:
        print("\t".join(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
