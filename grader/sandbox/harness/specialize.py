"""What the child says of each kernel launch for the parent's compile check
(grader/judge/kernel_check.py): the specialization a GPU launch would compile, or why it cannot
be said (the parent then refuses `correct`). Imported by guards.py; stdlib, torch, Triton."""

from __future__ import annotations

from typing import Any

import torch

MAX_LAUNCHED = 128  # distinct specializations recorded per child; one more says "overflow"


def _constexpr_value(value: Any, depth: int = 0) -> tuple[bool, Any]:
    """(representable, JSON value) of a constexpr: a number, bool, None, string, a
    triton.language dtype as {"dtype": name}, a torch dtype as {"torch_dtype": name}, another
    kernel as {"jit": its name}, a tuple of these as {"tuple": [...]}."""
    import triton.language as tl
    from triton.runtime.jit import JITFunction

    if isinstance(value, tl.constexpr):
        value = value.value
    if value is None or isinstance(value, bool | int | float):
        return True, value
    if isinstance(value, str) and len(value) <= 256:
        return True, value
    if isinstance(value, tl.dtype):
        return True, {"dtype": value.name}
    if isinstance(value, torch.dtype):
        return True, {"torch_dtype": str(value).removeprefix("torch.")}
    if isinstance(value, JITFunction | _interpreted()):
        return True, {"jit": getattr(getattr(value, "fn", None), "__name__", "")}
    if isinstance(value, tuple) and len(value) <= 16 and depth < 3:
        items = [_constexpr_value(v, depth + 1) for v in value]
        return all(ok for ok, _ in items), {"tuple": [v for _, v in items]}
    return False, None


def _interpreted() -> type:
    from triton.runtime.interpreter import InterpretedFunction

    return InterpretedFunction


def constexpr_names(kernel: Any) -> set[str]:
    """The kernel's tl.constexpr parameters: the interpreter hands them to the body as they
    are, so a tensor there would be a torch tensor inside the kernel body."""
    params = getattr(kernel, "params", None)
    if params is not None:
        return {p.name for p in params if getattr(p, "is_constexpr", False)}
    import inspect

    try:
        sig = inspect.signature(kernel.fn)
    except (AttributeError, TypeError, ValueError):
        return set(getattr(kernel, "arg_names", ()))  # unknown: treat every one as constexpr
    return {n for n, p in sig.parameters.items() if "constexpr" in str(p.annotation)}


def annotation_types(fn: Any) -> dict[str, str]:
    """Each parameter's type as a GPU launch reads it from its annotation (Triton's own rule:
    `KernelParam.annotation_type`; a constexpr is not a type). Empty where none is given."""
    import inspect

    from triton.runtime.jit import KernelParam

    out: dict[str, str] = {}
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return out
    for i, p in enumerate(params):
        kp = KernelParam(i, p, False, False)
        try:
            ty = "" if kp.is_constexpr else kp.annotation_type
        except Exception:  # an annotation Triton cannot read: it fails there too
            ty = ""
        if ty:
            out[p.name] = ty
    return out


def unspecialized(kernel: Any, names: list[str]) -> set[str]:
    """The parameters a GPU launch passes as they are (`triton.jit(do_not_specialize=...)`, by
    name or index): an int 1 stays an i32 there, so its branches are compiled too."""
    given = getattr(kernel, "kwargs", None) or {}
    listed = given.get("do_not_specialize") or getattr(kernel, "do_not_specialize", None) or ()
    out = set()
    for i, name in enumerate(names):  # Triton's own test, for any container (red team 7)
        try:
            if i in listed or name in listed:
                out.add(name)
        except TypeError:
            pass
    return out


def problem(fn: Any, kind: str, detail: str) -> dict[str, Any]:
    """A launch the compile check cannot judge, said so (the parent then refuses `correct`):
    `unreadable` (it cannot be described), `refused` (Triton would refuse to specialize it)."""
    return {"kernel": str(getattr(fn, "__name__", "?"))[:80], "problem": kind, "detail": detail}


def specialization(kernel: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """What Triton's compiler would be asked to build for this launch on a GPU: the kernel's
    function name, each parameter's signature type (Triton's own `mangle_type`, with the
    specialization a GPU launch makes: an int 1 becomes a constexpr), the constexprs (after
    an autotune config or heuristics were applied: they arrive here as keywords), num_warps
    and num_stages. Where it cannot be said in those terms, a `problem` that says why."""
    import inspect

    from triton.runtime.jit import mangle_type

    fn = getattr(kernel, "fn", None)
    try:
        sig = inspect.signature(fn)  # type: ignore[arg-type]  # (None: TypeError)
        named = {k: v for k, v in kwargs.items() if k in sig.parameters}
        bound = sig.bind(*args, **named)
    except (TypeError, ValueError) as exc:
        return problem(fn, "unreadable", f"its arguments do not fit its parameters ({exc})")
    bound.apply_defaults()
    consts = constexpr_names(kernel)
    passed_as_is = unspecialized(kernel, list(sig.parameters))
    annotated = annotation_types(fn)
    signature: dict[str, str] = {}
    constexprs: dict[str, Any] = {}
    for name, value in bound.arguments.items():
        kind = "constexpr"
        if name not in consts:
            try:
                kind = mangle_type(value, name not in passed_as_is)
            except Exception as exc:  # a GPU launch fails the same way
                what = f"{type(value).__name__} for the parameter {name}"
                hint = " (a dtype goes to a tl.constexpr parameter)" if "dtype" in what else ""
                return problem(fn, "refused", f"Triton cannot pass a {what}: {exc}{hint}")
            if not isinstance(kind, str):
                return problem(fn, "unreadable", f"the tuple argument {name}: pass its items")
            kind = annotated.get(name, kind)  # a GPU types it by its annotation, as here
        if kind == "constexpr":
            ok, constexprs[name] = _constexpr_value(value)
            if not ok:
                what = type(value.value if hasattr(value, "value") else value).__name__
                return problem(fn, "unreadable", f"a constexpr {name} of type {what}")
        signature[name] = kind
    defaults = {"num_warps": 4, "num_stages": 3}  # a GPU launch's, when not given
    options = {k: d if kwargs.get(k) is None else kwargs[k] for k, d in defaults.items()}
    if any(type(v) is not int for v in options.values()):
        return problem(fn, "unreadable", "num_warps and num_stages must be ints")
    # the other options a GPU compiles with, where not their default (an autotune Config
    # passes num_ctas=1 always): compiled with them, as a GPU launch would
    for key, default in LAUNCH_OPTIONS.items():
        value = kwargs.get(key)
        if value is not None and value != default:
            if type(value) is not int:
                return problem(fn, "unreadable", f"{key} must be an int")
            options[key] = value
    return {
        "kernel": getattr(fn, "__name__", ""),
        "signature": signature,
        "constexprs": constexprs,
        **options,
    }


LAUNCH_OPTIONS = {"num_ctas": 1, "maxnreg": None}  # compiled where given, beside warps/stages
