# hook.py — patches Thunder when the program imports it (an import hook on sys.meta_path)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# install() puts a finder in front of sys.meta_path that wraps the loader of the modules "thunder" and
# "thunder.dynamo.compiler": once such a module has run, the recorder patches it (thunder.jit, the stage
# hooks; ThunderFX's ThunderCompiler). Nothing is imported ahead of the program, so a program that never
# imports Thunder runs exactly as before. A failure to import thunder or torch is written to the capture
# directory as env-<pid>.json, so `thunder-wb record` can say why nothing was captured.

import importlib.abc
import importlib.util
import json
import os
import sys

from . import settings as _settings

_TARGETS = ("thunder", "thunder.dynamo.compiler")
_installed = None


def _capture_dir():
    return os.environ.get(_settings.ENV_DIR, "")


def report_environment(missing=(), failed=None):
    """Writes <capture>/env-<pid>.json: modules that are missing or failed to import."""
    d = _capture_dir()
    if not d:
        return
    info = {"python": sys.executable, "version": sys.version.split()[0], "argv": list(sys.argv),
            "missing": list(missing), "failed": dict(failed or {})}
    try:
        path = os.path.join(d, "env-%d.json" % os.getpid())
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            json.dump(info, f, indent=1)
        os.replace(path + ".tmp", path)
    except OSError:
        pass


def check_environment():
    """Reports torch and thunder that the python cannot find (cheap: no import)."""
    missing = [n for n in ("torch", "thunder") if importlib.util.find_spec(n) is None]
    if missing:
        report_environment(missing=missing)
    return missing


class _Loader(importlib.abc.Loader):
    def __init__(self, inner, name):
        self._inner = inner
        self._name = name

    def __getattr__(self, attr):  # get_source, get_filename, is_package, resource readers...
        return getattr(self._inner, attr)

    def create_module(self, spec):
        return self._inner.create_module(spec)

    def exec_module(self, module):
        try:
            self._inner.exec_module(module)
        except BaseException as e:
            if self._name == "thunder" and not isinstance(e, (KeyboardInterrupt, SystemExit)):
                report_environment(failed={"thunder": "%s: %s" % (type(e).__name__, e)})
            raise
        try:
            from . import recorder

            if self._name == "thunder":
                recorder.get().patch_thunder(module)
            elif self._name == "thunder.dynamo.compiler":
                recorder.get().patch_thunderfx(module)
        except Exception as e:  # never break the program
            print("thunder-wb record: cannot patch %s: %s: %s" % (self._name, type(e).__name__, e), file=sys.stderr)


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self):
        self._busy = set()

    def find_spec(self, fullname, path, target=None):
        if fullname not in _TARGETS or fullname in self._busy:
            return None
        self._busy.add(fullname)
        try:
            spec = None
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(fullname, path, target)
                if spec is not None:
                    break
        finally:
            self._busy.discard(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = _Loader(spec.loader, fullname)
        return spec


def install():
    """Installs the import hook once; patches at once what is already imported."""
    global _installed
    if _installed is not None:
        return _installed
    _installed = _Finder()
    sys.meta_path.insert(0, _installed)
    from . import recorder

    if "thunder" in sys.modules:
        recorder.get().patch_thunder(sys.modules["thunder"])
    if "thunder.dynamo.compiler" in sys.modules:
        recorder.get().patch_thunderfx(sys.modules["thunder.dynamo.compiler"])
    return _installed
