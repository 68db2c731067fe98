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
        return call(self, *args, **kwargs)

    interpreter.GridExecutor.__call__ = launch
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
    _installed = True
    return True


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

        kept = typed.keys() | constexpr_names(kernel) | unspecialized(kernel, list(args))
        for name, value in args.items():
            if type(value) is int and value == 1 and name not in kept:
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
