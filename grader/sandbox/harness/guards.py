"""In-sandbox instrumentation around the student's entry function.

- `TorchGuard` (a TorchDispatchMode) records every aten op the entry runs outside Triton
  launches, flags compute ops (however `torch.softmax` is spelled or aliased, it reaches the
  dispatcher as `aten._softmax`) and fills every fresh allocation with a poison value so an
  element the kernel never wrote cannot pass.
- Under the interpreter every tensor the entry's torch calls return in memory of their own
  (allocations, copies, `arange`, `torch.tensor`, allowed ops) is moved to fenced memory
  (`fenced.py`), and so is one that `resize_` grows: a kernel that steps past its end dies of
  SIGSEGV at once, whatever the heap's layout.
- Triton launches are counted, and the guard is suspended while Triton runs (its launcher
  copies tensors, which is not the student's compute).
- `Autotuner.run` is replaced so the harness picks the config: every pruned config is run and
  checked, not only the one the tuner would choose (under the interpreter the tuner cannot
  benchmark at all).

This runs inside the submission's process, so it is a detector, not a boundary: the verdict is
decided by the parent, which compares the returned bytes with a reference the child never saw.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import torch
from harness import fenced
from harness.forcer import ConfigForcer, LaunchError, same_heuristics
from harness.specialize import MAX_LAUNCHED, constexpr_names, problem, specialization
from torch.utils._python_dispatch import TorchDispatchMode, _disable_current_modes
from torch.utils._pytree import tree_leaves

ALLOC_OPS = {"empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided"}
# Allocation, views, copies, casts and metadata: everything a kernel wrapper needs.
HARMLESS_OPS = ALLOC_OPS | {
    "zeros",
    "zeros_like",
    "ones",
    "ones_like",
    "full",
    "full_like",
    "new_zeros",
    "new_ones",
    "new_full",
    "fill",
    "fill_",
    "zero",
    "zero_",
    "scalar_tensor",
    "arange",
    "view",
    "_unsafe_view",
    "_reshape_alias",
    "reshape",
    "as_strided",
    "t",
    "transpose",
    "permute",
    "expand",
    "expand_as",
    "contiguous",
    "clone",
    "copy",
    "copy_",
    "_to_copy",
    "to",
    "detach",
    "alias",
    "slice",
    "select",
    "unsqueeze",
    "squeeze",
    "flatten",
    "split",
    "split_with_sizes",
    "unbind",
    "narrow",
    "view_as",
    "lift_fresh",
    "lift_fresh_copy",
    "sym_size",
    "sym_stride",
    "sym_numel",
    "sym_storage_offset",
    "is_contiguous",
    "resize_",
    "set_",
    "record_stream",
    "_has_compatible_shallow_copy_type",
}


# An epilogue that reduces (a checkpoint's `sum`, `mean`) must reduce a kernel's output whole:
# a reduction along a dim would be a kernel's work done in torch (the row sums of a softmax).
REDUCTIONS = {"sum", "mean", "amax", "amin", "max", "min", "prod", "logsumexp", "norm"}


def _fresh(out: Any, args: Any, kwargs: Any) -> bool:
    """A CPU tensor in memory of its own: no view of, nor the same tensor as, an argument."""
    if (
        not isinstance(out, torch.Tensor)
        or out.device.type != "cpu"
        or out.layout != torch.strided  # sparse and the like have no storage of one piece
        or not out.numel()
    ):
        return False
    mine = out.untyped_storage().data_ptr()
    return all(
        a.untyped_storage().data_ptr() != mine
        for a in tree_leaves((args, kwargs))
        if isinstance(a, torch.Tensor) and a.layout == torch.strided
    )


def _poison_value(t: torch.Tensor, poison: float) -> float | int | bool:
    if t.dtype.is_floating_point:
        return poison
    if t.dtype == torch.bool:
        return True
    return torch.iinfo(t.dtype).max


class TorchGuard(TorchDispatchMode):
    """`fence` (under the interpreter): every tensor the entry gets in memory of its own is
    moved to fenced memory (`fenced.py`), so its kernels cannot read or write past its end
    unnoticed."""

    @classmethod
    def _should_skip_dynamo(cls) -> bool:
        # torch wraps a mode's __torch_dispatch__ so that Dynamo never traces it, and the
        # wrapper imports torch._dynamo (and sympy) on the first op: seconds in every sandboxed
        # child (docs/PERFORMANCE.md, "The figures behind the code's comments"). Nothing in the
        # child runs Dynamo: the static check refuses torch.compile and torch._dynamo.
        return False

    def __init__(
        self,
        allowed: set[str],
        poison: float,
        fence: bool = False,
        inputs: Any = (),
        launched: set[int] | None = None,
    ) -> None:
        super().__init__()
        self.allowed = HARMLESS_OPS | allowed
        self.epilogue = set(allowed)  # the checkpoint's ops: on the kernels' outputs only
        self.poison = poison
        self.fence = fence
        self.forbidden: list[str] = []
        # storages a kernel was handed: the epilogue's operands must be among them
        self.launched = launched if launched is not None else set()
        self.epilogue_out: set[int] = set()  # an epilogue's results: the entry's last step
        self.inputs = {
            a.untyped_storage().data_ptr()
            for a in tree_leaves(inputs)
            if isinstance(a, torch.Tensor) and a.layout == torch.strided
        }

    def _on_inputs(self, args: Any, kwargs: Any) -> bool:
        """An operand of an epilogue op that is not a kernel's output: an input, or a tensor
        no kernel was handed (a copy of an input, made on the host)."""
        ptrs = [
            a.untyped_storage().data_ptr()
            for a in tree_leaves((args, kwargs))
            if isinstance(a, torch.Tensor) and a.layout == torch.strided
        ]
        return any(p in self.inputs or p not in self.launched for p in ptrs)

    def _scaled_epilogue(self, name: str, args: Any, kwargs: Any) -> bool:
        """An epilogue's result (a whole reduction of a kernel's output) times or over a Python
        number, as Liger-Kernel writes a mean (`loss_1d.sum() / n_rows`): no value is read, and
        the number comes from shapes (the host cannot read one from a tensor)."""
        return (
            bool(self.epilogue)
            and name in {"div", "mul"}
            and not kwargs
            and len(args) == 2
            and isinstance(args[0], torch.Tensor)
            and args[0].layout == torch.strided
            and args[0].untyped_storage().data_ptr() in self.epilogue_out
            and type(args[1]) in (int, float)
        )

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        name = func.overloadpacket.__name__
        if (
            self.fence
            and name == "resize_"
            and args[0].layout == torch.strided
            and fenced.regrow(args[0], args[1], _poison_value(args[0], self.poison))
        ):
            return args[0]
        out = func(*args, **(kwargs or {}))
        # torch.tensor(data) is made outside the dispatcher, then handed over by lift_fresh
        lifted = name == "lift_fresh" and out.layout == torch.strided
        if self.fence and (lifted or _fresh(out, args, kwargs)):
            out = fenced.like(out) if name in ALLOC_OPS else fenced.clone(out)
        if name in ALLOC_OPS and isinstance(out, torch.Tensor) and out.numel():
            out.fill_(_poison_value(out, self.poison))
        elif self._scaled_epilogue(name, args, kwargs):  # `losses.sum() / n_rows`: a mean
            self.epilogue_out.add(out.untyped_storage().data_ptr())
        elif name not in self.allowed or (
            name in self.epilogue
            and name not in HARMLESS_OPS
            and (
                (name in REDUCTIONS and func._overloadname != "default")  # along a dim
                or self._on_inputs(args, kwargs)
            )
        ):
            qual = f"torch.ops.aten.{name}"
            if name == "_local_scalar_dense":
                qual += " (a value read on the host: .item(), float(t))"
            elif name in self.epilogue:
                qual += " (an epilogue: a whole reduction of a kernel's output only)"
            if qual not in self.forbidden:
                self.forbidden.append(qual)
        elif name in self.epilogue and isinstance(out, torch.Tensor):
            self.epilogue_out.add(out.untyped_storage().data_ptr())  # never to a kernel again
        return out


def _launch_arg_ok(a: Any) -> bool:
    """What a kernel may be handed: tensors, numbers, dtypes, constexprs, other kernels. Under
    the interpreter a kernel body runs as Python: a function or module passed in would let it
    run host code (the static check refuses calling one; this refuses passing one at all)."""
    import triton
    from triton.runtime.jit import JITFunction

    if a is None or isinstance(a, bool | int | float | str | torch.Tensor | torch.dtype):
        return True
    if isinstance(a, triton.language.constexpr):  # what it wraps reaches the body as it is
        inner = a.value
        return inner is None or isinstance(
            inner, bool | int | float | str | torch.dtype | triton.language.dtype
        )
    if isinstance(a, JITFunction | triton.language.dtype):
        return True
    return type(a).__name__ in {"TensorDescriptor", "InterpretedFunction"}


class LaunchCounter:
    """Counts Triton kernel launches and suspends dispatch modes while Triton runs, except
    while the grid function runs: that is the submission's host code, checked like the
    entry's."""

    def __init__(self) -> None:
        self.launches = 0
        self.active = True  # off while timing: no Python overhead added to the submission
        self.refused: list[str] = []
        # launches that raised in this call (what they raised): an entry that catches one and
        # goes on is refused (child.py), except where Triton's own autotuner caught it
        self.raised: list[str] = []
        self.touched: set[int] = set()  # storages handed to a kernel
        # With `record` on (under the interpreter, every config of every run): each launch's
        # specialization, once (`specialization`), for the parent's compile check, up to
        # MAX_LAUNCHED and then one `overflow`; `take()` hands over the new ones.
        self.record = False
        self.launched: dict[str, Any] = {}
        self._sent = 0
        self.as_imported: dict[int, str] = {}  # id(kernel object) -> its launch state

    def remember(self, module: Any) -> None:
        """Each kernel object of the module, as import left it (`changed_since_import`)."""
        from triton.runtime.jit import KernelInterface

        todo = [v for v in vars(module).values() if isinstance(v, KernelInterface)]
        while todo:
            k = todo.pop()
            self.as_imported[id(k)] = _launch_state(k)
            inner = getattr(k, "fn", None)
            if isinstance(inner, KernelInterface):
                todo.append(inner)

    def changed_since_import(self, kernel: Any) -> bool:
        was = self.as_imported.get(id(kernel))
        return was is not None and _launch_state(kernel) != was

    def note(self, spec: dict[str, Any]) -> None:
        key = repr(spec)
        if key not in self.launched and len(self.launched) == MAX_LAUNCHED:
            more = f"more than {MAX_LAUNCHED} distinct specializations"
            spec, key = problem(None, "overflow", more), "overflow"
        self.launched.setdefault(key, spec)

    def take(self) -> list[Any]:
        """The specializations recorded since the last call."""
        new = list(self.launched.values())[self._sent :]
        self._sent = len(self.launched)
        return new

    def wrap(self, run: Callable[..., Any]) -> Callable[..., Any]:
        counter = self

        def guarded_run(self_: Any, *args: Any, **kwargs: Any) -> Any:
            if not counter.active:
                return run(self_, *args, **kwargs)
            if not kwargs.get("warmup", False):
                counter.launches += 1
            named = {**dict(zip(getattr(self_, "arg_names", ()), args, strict=False)), **kwargs}
            consts = constexpr_names(self_)
            bad = [
                f"{type(a).__name__}{' for the constexpr ' + k if k in consts else ''}"
                for k, a in [*((str(i), a) for i, a in enumerate(args)), *named.items()]
                if k != "grid"
                and (not _launch_arg_ok(a) or (k in consts and isinstance(a, torch.Tensor)))
            ]
            fed = {
                a.untyped_storage().data_ptr()
                for a in [*args, *kwargs.values()]
                if isinstance(a, torch.Tensor) and a.layout == torch.strided
            }
            modes = _current_modes()
            if any(fed & m.epilogue_out for m in modes if isinstance(m, TorchGuard)):
                bad.append("an epilogue's result (an epilogue is the last step)")
            if bad:
                why = f"a kernel argument of type {bad[0]}: kernels take tensors and numbers"
                counter.refused.append(why)
                raise LaunchError(why)
            if getattr(self_, "pre_run_hooks", None):  # host code Triton would run mid-launch
                why = "a kernel with pre_run_hooks: no host code runs inside a launch"
                counter.refused.append(why)
                raise LaunchError(why)
            if counter.changed_since_import(self_):
                why = (
                    "a kernel object changed since import (its jit options or hooks): host "
                    "code keeps no state, and the compile check reads what the file declared"
                )
                counter.refused.append(why)
                raise LaunchError(why)
            counter.touched.update(fed)
            if counter.record and len(counter.launched) <= MAX_LAUNCHED:
                counter.note(specialization(self_, args, kwargs))
            grid = kwargs.get("grid")
            if callable(grid):

                def checked_grid(meta: Any) -> Any:
                    # the grid is host code: watched as the rest of it, and no kernel body
                    # may be called from it as from a kernel (it would run uncompiled)
                    launching, _LAUNCHING[0] = _LAUNCHING[0], 0
                    try:
                        with contextlib.ExitStack() as stack:
                            for mode in modes:
                                stack.enter_context(mode)
                            # a read-only copy: the launch runs with the arguments checked
                            # above, whatever the grid function does with its `meta`; of
                            # the launch's own values, as a GPU's launch hands them (the
                            # interpreter's are its scalar tensors: an int32 that wraps, an
                            # fp32 0.0 for 1e-50: red team 8)
                            plain = {k: named.get(k, v) for k, v in meta.items()}
                            return _plain_grid(grid(ReadOnlyMeta(plain, counter.refused)), counter)
                    finally:
                        _LAUNCHING[0] = launching

                kwargs["grid"] = checked_grid
            elif grid is not None:
                kwargs["grid"] = _plain_grid(grid, counter)
            try:
                with _disable_current_modes():
                    return run(self_, *args, **kwargs)
            except BaseException as exc:
                counter.raised.append(type(exc).__name__)
                raise

        return guarded_run


def _plain_grid(grid: Any, counter: LaunchCounter) -> Any:
    """A grid is up to three ints: a torch tensor there would be read on the host by the
    launch (`range(grid[0])`), with the dispatch watch off. (A grid function's `meta` holds
    the launch's own Python values, as on a GPU; a grid the interpreter computes itself may
    hold its scalars.)"""
    import triton.language as tl

    dims = grid if isinstance(grid, tuple | list) else (grid,)
    ok = (int, tl.tensor)
    if len(dims) > 3 or not all(
        isinstance(g, ok) and not isinstance(g, torch.Tensor) for g in dims
    ):
        kinds = sorted({type(g).__name__ for g in dims if not isinstance(g, ok)})
        why = (
            f"a grid of {', '.join(kinds) or 'more than three numbers'}: a grid is up to three ints"
        )
        counter.refused.append(why)
        raise LaunchError(why)
    return grid


class ReadOnlyMeta(Mapping[str, Any]):
    """What a grid function gets as `meta`: a copy it may read (`meta["BLOCK"]`, `**meta`,
    `.get`, `.copy()`); a write is refused with its own sentence. The launch goes on with the
    arguments checked before the grid ran whatever the grid does with its copy."""

    __slots__ = ("_items", "_refused")
    WHY = (
        "the grid function wrote to its `meta`: the grid reads the launch's parameters and "
        "returns the grid; pass a value as a kernel argument instead"
    )

    def __init__(self, meta: Mapping[str, Any], refused: list[str]) -> None:
        self._items = dict(meta)
        self._refused = refused

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return repr(self._items)

    def copy(self) -> dict[str, Any]:
        return dict(self._items)

    def __or__(self, other: Mapping[str, Any]) -> dict[str, Any]:
        return {**self._items, **other}

    def _write(self, *args: Any, **kwargs: Any) -> Any:
        self._refused.append(self.WHY)
        raise LaunchError(self.WHY)

    __setitem__ = __delitem__ = __ior__ = _write
    update = pop = popitem = setdefault = clear = _write


# What a launch reads of a kernel object that the file could change: its jit options (the
# compile check's specialization reads do_not_specialize), hooks and argument names.
LAUNCH_STATE = ("kwargs", "do_not_specialize", "do_not_specialize_on_alignment", "arg_names")


def _launch_state(kernel: Any) -> str:
    own = getattr(kernel, "__dict__", {})
    return repr([(k, own.get(k)) for k in LAUNCH_STATE if k in own])


def _current_modes() -> list[Any]:
    from torch.utils._python_dispatch import _get_current_dispatch_mode_stack

    return list(_get_current_dispatch_mode_stack())


def _formatting_seen(original: Callable[..., Any]) -> Callable[..., Any]:
    """torch formats a tensor (str, repr, print, an f-string) with every dispatch mode off: it
    reads every value on the host, unseen. While the entry runs that is reported like a
    value read (`_local_scalar_dense`)."""

    def formatted(self: Any, *args: Any, **kwargs: Any) -> Any:
        _report_read("values formatted: print the shape")
        return original(self, *args, **kwargs)

    return formatted


def _report_read(how: str) -> None:
    """A value read on the host that torch makes with the dispatch modes off, reported as one."""
    for mode in _current_modes():
        if isinstance(mode, TorchGuard):
            qual = f"torch.ops.aten._local_scalar_dense ({how})"
            if qual not in mode.forbidden:
                mode.forbidden.append(qual)


def _holds_tensor(data: Any, depth: int = 0) -> bool:
    if isinstance(data, torch.Tensor):
        return True
    if isinstance(data, (list, tuple)) and depth < 8:
        return any(_holds_tensor(d, depth + 1) for d in data[:4096])
    return depth >= 8 and isinstance(data, (list, tuple))  # too deep to look: say so


def _values_copied(original: Callable[..., Any]) -> Callable[..., Any]:
    """`torch.tensor([x[0], x[-1]])` reads each 0-d tensor's value on the host inside torch,
    where no dispatch mode sees it: a tensor built from a sequence that holds tensors is
    reported as a value read (a tensor on its own is no read: `torch.as_tensor(x)` is x)."""

    def built(*args: Any, **kwargs: Any) -> Any:
        data = args[0] if args else kwargs.get("data")
        if isinstance(data, (list, tuple)) and _holds_tensor(data):
            _report_read("a tensor built from tensors' values: use torch.stack, or a view")
        return original(*args, **kwargs)

    return built


def install(counter: LaunchCounter, forcer: ConfigForcer) -> None:
    """Patch Triton's launch paths. Must run before the submission is imported."""
    import torch._tensor_str as tensor_str

    tensor_str._str = _formatting_seen(tensor_str._str)
    for name in ("tensor", "as_tensor", "asarray"):
        setattr(torch, name, _values_copied(getattr(torch, name)))
    from triton.runtime import autotuner, interpreter, jit

    jit.JITFunction.run = counter.wrap(jit.JITFunction.run)
    interpreter.InterpretedFunction.run = _launching(
        counter.wrap(interpreter.InterpretedFunction.run)
    )
    interpreter.InterpretedFunction.__call__ = _device_call(
        interpreter.InterpretedFunction.__call__
    )
    forcer.original = autotuner.Autotuner.run
    autotuner.Autotuner.run = forcer.wrap()
    forcer.counter = counter
    autotuner.Heuristics.run = same_heuristics(counter, forcer)


_LAUNCHING = [0]  # kernel launches running now (a kernel body calls other kernels inside one)


def _launching(run: Callable[..., Any]) -> Callable[..., Any]:
    def launch(self_: Any, *args: Any, **kwargs: Any) -> Any:
        _LAUNCHING[0] += 1
        try:
            return run(self_, *args, **kwargs)
        finally:
            _LAUNCHING[0] -= 1

    return launch


def _device_call(call: Callable[..., Any]) -> Callable[..., Any]:
    """A @triton.jit function called like a function: inside a kernel a device call; from host
    code the interpreter would run its body as Python, where a GPU raises. So it raises here
    too, however the host code reached the kernel (a parameter, a container, a partial)."""

    def device_call(self_: Any, *args: Any, **kwargs: Any) -> Any:
        if not _LAUNCHING[0]:
            name = getattr(getattr(self_, "fn", None), "__name__", "?")
            raise RuntimeError(
                f"Cannot call @triton.jit'd function {name} outside of the scope of a kernel: "
                f"launch it as {name}[grid](...) (a GPU refuses this call too)"
            )
        return call(self_, *args, **kwargs)

    return device_call
