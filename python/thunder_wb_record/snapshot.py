# snapshot.py — the tensors a compiled call received, taken before it runs
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A compiled program may write what it receives: an input (T5's `relative_buckets += where(...)`, which
# ThunderFX hands a subgraph as an argument), a module's buffer (batch norm's running statistics, a copy_
# into a cache), rarely a parameter. tensors.safetensors must hold the values the call received, or the
# workbench replays the program on inputs it already wrote (T5: bucket indices past the embedding's 32
# rows). A Snapshot is taken before the call: copies (detach().clone(), on the tensor's device) of the
# tensor arguments and of the owner module's buffers, and the version counters of those and of the
# owner's parameters; after the call, written() names those whose counter moved. Parameters are not
# copied (a model's weights would be held twice on the device); one the call wrote is named, and saved as
# it was after the call.

import sys

__all__ = ["Snapshot", "version"]


def _torch_tensor_type():
    torch = sys.modules.get("torch")
    return None if torch is None else torch.Tensor


def _is_tensor(v):
    t = _torch_tensor_type()
    return t is not None and isinstance(v, t)


def version(v):
    """The version counter of tensor @v (bumped by each in-place write), or None: not a tensor, or an
    inference tensor (which has none)."""
    if not _is_tensor(v):
        return None
    try:
        return int(v._version)
    except Exception:
        return None


def _copy(v):
    return v.detach().clone() if _is_tensor(v) else v


def _named(owner, what):
    fn = getattr(owner, what, None)
    if fn is None:
        return []
    try:
        return list(fn())
    except Exception:
        return []


class Snapshot:
    """What a call received. @copy: hold copies of the tensor args, kwargs and @owner's buffers (else only
    the args' and kwargs' version counters: the cheap form for calls that are not expected to write).
    @owner: the module whose named_parameters()/named_buffers() the program reads, or None. Raises what
    clone() raises (out of memory): the caller then saves the values as they are after the call."""

    def __init__(self, args, kwargs, owner=None, copy=True):
        self.copied = bool(copy)
        self.n_args = len(args)
        self.kw_names = list(kwargs)
        self.arg_versions = [version(a) for a in args]
        self.kw_versions = {k: version(v) for k, v in kwargs.items()}
        self.args = [_copy(a) for a in args] if copy else None
        self.kwargs = {k: _copy(v) for k, v in kwargs.items()} if copy else None
        self.buffer_versions = {}
        self.buffers = {}
        self.param_versions = {}
        if copy and owner is not None:
            for n, b in _named(owner, "named_buffers"):
                self.buffer_versions[n] = version(b)
                self.buffers[n] = _copy(b)
            for n, p in _named(owner, "named_parameters"):
                self.param_versions[n] = version(p)

    def matches(self, args, kwargs):
        """Whether @args/@kwargs are the call this snapshot was taken for (same count and keywords)."""
        return len(args) == self.n_args and set(kwargs) == set(self.kw_names)

    def written(self, args, kwargs, names, owner=None):
        """The tensors.safetensors keys of what the call wrote in place ("input.<name>", "buffer.<name>",
        "param.<name>"), @names being the positional arguments' names; version counters decide."""
        out = []
        if not self.matches(args, kwargs):
            return out
        for a, n, ver in zip(args, names, self.arg_versions):
            if ver is not None and version(a) != ver:
                out.append(f"input.{n}")
        for k, v in kwargs.items():
            ver = self.kw_versions.get(k)
            if ver is not None and version(v) != ver:
                out.append(f"input.{k}")
        if owner is not None and (self.buffer_versions or self.param_versions):
            for n, b in _named(owner, "named_buffers"):
                ver = self.buffer_versions.get(n)
                if ver is not None and version(b) != ver:
                    out.append(f"buffer.{n}")
            for n, p in _named(owner, "named_parameters"):
                ver = self.param_versions.get(n)
                if ver is not None and version(p) != ver:
                    out.append(f"param.{n}")
        return out

    def inputs(self, args, kwargs):
        """The args and kwargs to save: the copies when this snapshot holds them, else @args/@kwargs."""
        if self.copied and self.matches(args, kwargs):
            return self.args, self.kwargs
        return args, kwargs

    def buffer(self, name, current):
        """Buffer @name as the call received it, when copied, else @current."""
        return self.buffers.get(name, current) if self.copied else current

    def wrote(self, args, kwargs, owner=None):
        """Whether the call wrote any tensor this snapshot watched."""
        return bool(self.written(args, kwargs, [f"arg{i}" for i in range(len(args))], owner))
