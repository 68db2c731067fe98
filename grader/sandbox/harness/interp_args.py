"""Under the Triton interpreter only: a kernel's scalar arguments typed as a GPU launch types
them, so a kernel cannot tell the precheck from a GPU by its arguments (red team 5).

Triton 3.9's interpreter hands a kernel a Python float as the Python float itself (fp64
arithmetic, `isinstance(eps, float)`, `1e-50 > 0.0` true) where a compiled launch passes an
fp32 scalar (1e-50 is 0.0 there); and an int in [2**31, 2**32) as a uint32 scalar typed i64,
so `big + big` wraps here and not on a GPU. Here a float becomes an fp32 scalar tensor and
such an int an int64 one, as `mangle_type` types them for the compiler.

A parameter annotated with a Triton type (`n: tl.int64`, `"fp16"`, `x_ptr: "*fp32"`) is typed
by its annotation on a GPU, not by its value (red team 6): here too, through Triton's own
`KernelParam.annotation_type`. A value the GPU's argument packer would refuse (300 for an i8,
70000.0 for an fp16, a float for an int) is refused here; a tensor whose dtype is not its
pointer annotation's (a GPU would read its bytes as another type) cannot be run here and is
refused, with that said. An int argument equal to 1 is a constexpr here, as a GPU launch
specializes it (unless `do_not_specialize` names it). A GPU grading never imports this.
"""

from __future__ import annotations

import os
from typing import Any

_installed = False
_RUNNING: list[Any] = []


def install() -> bool:
    global _installed
    if os.environ.get("TRITON_INTERPRET") != "1":
        return False
    if _installed:
        return True
    import numpy as np
    import triton.language as tl
    from triton.runtime import interpreter
    from triton.runtime.jit import mangle_type

    convert = interpreter._implicit_cvt
    call = interpreter.GridExecutor.__call__

    def launch(self: Any, *args: Any, **kwargs: Any) -> Any:
        """The launch's arguments typed (by name) before the interpreter reads them: a typed
        scalar or a constexpr passes its `_implicit_cvt` as it is."""
        names = list(getattr(self, "arg_names", None) or ())
        given = dict(zip(names, args, strict=False)) | {
            k: v for k, v in kwargs.items() if k in names
        }
        # a default the launch does not pass is specialized like a passed value (red team 7)
        defaults = {n: d for n, d in _defaults(self.fn).items() if n not in given}
        typed = _annotated_args(self.fn, given | defaults)
        args = (
            tuple(typed.get(n, a) for n, a in zip(names, args, strict=False)) + args[len(names) :]
        )
        kwargs = {k: typed.get(k, v) for k, v in kwargs.items()}
        kwargs |= {n: typed[n] for n, d in defaults.items() if typed.get(n, d) is not d}
        with _kernel_builtins(self):
            return call(self, *args, **kwargs)

    interpreter.GridExecutor.__call__ = launch
    patch_lang = interpreter._patch_lang

    def patched_lang(fn: Any) -> Any:
        """The interpreter's patches, and `tl.range` yielding what a GPU's loop yields."""
        scope = patch_lang(fn)
        for value in list(fn.__globals__.values()):
            if value is tl:
                scope.set_attr(value, "range", typed_range)
        return scope

    interpreter._patch_lang = patched_lang
    run = interpreter.InterpretedFunction.run

    def running(self: Any, *args: Any, **kwargs: Any) -> Any:
        _RUNNING.append(self)  # the launch's kernel, for its do_not_specialize (harness state)
        try:
            return run(self, *args, **kwargs)
        finally:
            _RUNNING.pop()

    interpreter.InterpretedFunction.run = running

    def typed(arg: Any) -> Any:
        if isinstance(arg, float):  # compiled: an fp32 argument
            return tl.tensor(
                interpreter.TensorHandle(np.array([arg], dtype=np.float32), tl.float32),
                tl.float32,
            )
        if type(arg) is int and 2**31 <= arg < 2**32:  # compiled: i64
            ty = tl.str_to_ty(mangle_type(arg), None)
            return tl.tensor(interpreter.TensorHandle(np.array([arg], dtype=np.int64), ty), ty)
        return convert(arg)

    interpreter._implicit_cvt = typed
    _cuda_queries()
    _installed = True
    return True


class _GpuStandIn:
    """What `torch.cuda.get_device_properties` answers in the CPU precheck: the GPU the
    compile check compiles for (sm_90, an H100/H200's 132 SMs); the GPU stage runs with the
    real card's."""

    name = "NVIDIA H200 (the CPU precheck's stand-in)"
    major, minor, multi_processor_count = 9, 0, 132
    total_memory = 141 * 2**30
    index = 0


def _cuda_queries() -> None:
    """The torch.cuda queries a submission may make (allowlist.TORCH_CUDA) answered as for
    the compile check's GPU, where CPU torch raises "not compiled with CUDA" (red team 8: an
    honest Liger-style `get_device_capability()` was a runtime_error). `is_available` stays
    False: x.is_cuda is False here, and a file that branches on it is checked on the GPU."""
    import contextlib

    import torch

    cuda: Any = torch.cuda
    if cuda.is_available():
        return
    real_device = cuda.device

    def device(d: Any = None) -> Any:
        kind = getattr(d, "type", None) or (d if isinstance(d, str) else None)
        if d is None or kind == "cpu" or isinstance(d, int):
            return contextlib.nullcontext()
        return real_device(d)

    cuda.get_device_properties = lambda device=None: _GpuStandIn()
    cuda.get_device_capability = lambda device=None: (_GpuStandIn.major, _GpuStandIn.minor)
    cuda.get_device_name = lambda device=None: _GpuStandIn.name
    cuda.current_device = lambda: 0
    cuda.synchronize = lambda device=None: None
    cuda.device = device


def typed_range(*bounds: Any, **_options: Any) -> Any:
    """`range` / `tl.range` in a kernel body as a GPU compiles them (code_generator's
    `visit_For`): the induction variable an int32 scalar (int64 where a bound needs it), where
    the interpreter yields Python ints (red team 8: `(i - 7) // 2`, `1 << (i + 31)`, `i * 1e-50`
    differ). `tl.static_range` keeps its Python ints, as on a GPU (a constexpr there)."""
    import numpy as np
    import triton.language as tl
    from triton.runtime import interpreter

    ints, wide = [], False
    for b in bounds:
        if isinstance(b, tl.tensor):
            ints.append(int(b.handle.data.reshape(-1)[0]))
            wide = wide or b.dtype.primitive_bitwidth > 32
        else:
            v = int(b.value if isinstance(b, tl.constexpr) else b)
            ints.append(v)
            wide = wide or not -(2**31) <= v < 2**31
    ty, npd = (tl.int64, np.int64) if wide else (tl.int32, np.int32)
    for v in range(*ints):
        yield tl.tensor(interpreter.TensorHandle(np.array([v], dtype=npd), ty), ty)


class _kernel_builtins:
    """While a launch runs: the kernel body's `min`, `max` and `range` are the ones Triton's
    compiler gives it (`builtin_min`/`builtin_max`: `tl.minimum` on tensors, int32 wrapping;
    a typed loop variable), not Python's; the grid function (host code) keeps Python's."""

    NAMES = ("min", "max", "range")

    def __init__(self, executor: Any) -> None:
        self.globals: dict[str, Any] | None = getattr(
            getattr(executor, "fn", None), "__globals__", None
        )
        grid = getattr(executor, "grid", None)
        if callable(grid) and self.globals is not None:
            executor.grid = self._host(grid)

    def _host(self, grid: Any) -> Any:
        names: dict[str, Any] = self.globals or {}

        def run(meta: Any) -> Any:
            kept = {k: names.pop(k) for k in self.NAMES if k in names}
            try:
                return grid(meta)
            finally:
                names.update(kept)

        return run

    def __enter__(self) -> None:
        if self.globals is None:
            return
        import triton.language as tl
        from triton.runtime import interpreter

        sem = interpreter.interpreter_semantic

        def kmin(*a: Any, **k: Any) -> Any:
            return tl.core.builtin_min(*a, _semantic=sem, **k)

        def kmax(*a: Any, **k: Any) -> Any:
            return tl.core.builtin_max(*a, _semantic=sem, **k)

        self.saved = {k: self.globals[k] for k in self.NAMES if k in self.globals}
        self.globals.update(min=kmin, max=kmax, range=typed_range)

    def __exit__(self, *exc: Any) -> None:
        if self.globals is None:
            return
        for k in self.NAMES:
            self.globals.pop(k, None)
        self.globals.update(self.saved)


def _defaults(fn: Any) -> dict[str, Any]:
    import inspect

    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {p.name: p.default for p in params if p.default is not inspect.Parameter.empty}


def _annotated_args(fn: Any, args: dict[str, Any]) -> dict[str, Any]:
    from harness.specialize import annotation_types
    from triton.runtime.interpreter import InterpretedFunction

    # `fn` is the interpreter's rewrite of the kernel, compiled under its own
    # `from __future__ import annotations` (every annotation a string of its source): the
    # types are read from the kernel as written, as a GPU launch reads them
    written = next((k for k, v in InterpretedFunction.rewritten_fn.items() if v is fn), fn)
    typed = annotation_types(written)
    for name, ty in typed.items():
        if name in args:
            args[name] = _as_annotated(args[name], ty, name)
    # an int 1 is a constexpr on a GPU (Python int arithmetic: `n + 2**31 - 1` does not wrap),
    # unless do_not_specialize names it; the compile check compiles that constexpr form
    kernel = _RUNNING[-1] if _RUNNING and getattr(_RUNNING[-1], "fn", None) is written else None
    if kernel is not None:
        import triton.language as tl
        from harness.specialize import constexpr_names, unspecialized

        constexprs = constexpr_names(kernel)
        kept = typed.keys() | constexprs | unspecialized(kernel, list(args))
        for name, value in args.items():
            if name in constexprs and not isinstance(value, tl.constexpr):
                # a constexpr as Triton's compiler reads it (any annotation naming constexpr:
                # "constexpr", lang.constexpr), where the interpreter takes only `tl.constexpr`
                # and would hand the body a scalar tensor (red team 8)
                args[name] = tl.constexpr(value)
            elif type(value) is int and value == 1 and name not in kept:
                args[name] = tl.constexpr(1)
    return args


def _as_annotated(value: Any, ty: str, name: str) -> Any:
    import numpy as np
    import triton.language as tl
    from triton.runtime import interpreter
    from triton.runtime.jit import mangle_type

    if ty.startswith("*"):
        if hasattr(value, "data_ptr"):
            have = mangle_type(value)
            if have.lstrip("*k") != ty.lstrip("*k"):
                raise TypeError(
                    f"the parameter {name} is annotated {ty!r} but is given a {have} tensor: "
                    f"a GPU would read its bytes as {ty.lstrip('*k')}; pass a tensor of that "
                    "dtype or drop the annotation"
                )
        return value
    if not isinstance(value, bool | int | float):
        return value
    dtype = tl.str_to_ty(ty, None)
    npd = interpreter._get_np_dtype(dtype)
    if dtype.is_fp8():  # the GPU's argument packer has no fp8 scalar (driver.c's extractors)
        raise TypeError(f"the parameter {name} is annotated {ty}: a GPU cannot pass an fp8 scalar")
    if dtype.is_bf16() and isinstance(value, float | int) and not isinstance(value, bool):
        # as the GPU's packer (driver.c extractBF16): the fp32 value's high 16 bits; the
        # interpreter keeps bf16 as those raw bits (red team 8: 1.5 was packed as the bits 1)
        bits = (np.array([value], dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)
        return tl.tensor(interpreter.TensorHandle(bits, dtype.scalar), dtype.scalar)
    if dtype.is_int() or dtype.is_bool():
        if isinstance(value, float):
            raise TypeError(f"the parameter {name} is annotated {ty}: a GPU cannot pass a float")
        if not dtype.is_bool():
            info = np.iinfo(npd)
            if not info.min <= value <= info.max:
                raise OverflowError(f"{value} does not fit the parameter {name}'s {ty}")
    with np.errstate(over="ignore"):
        data = np.array([value], dtype=npd)
    if dtype.is_floating() and not np.isfinite(data).all() and np.isfinite(value):
        raise OverflowError(f"{value} is too large for the parameter {name}'s {ty}")
    return tl.tensor(interpreter.TensorHandle(data, dtype.scalar), dtype.scalar)
