"""bf16 under the Triton interpreter (`TRITON_INTERPRET=1`), computed as a GPU computes it.

Triton's interpreter keeps a bf16 value as its bit pattern in a numpy uint16 and hands those
integers to numpy as they are: `a + b` adds bit patterns, `a < b` orders negative numbers
backwards, `tl.sum` sums integers, `tl.dot` multiplies them, an int cast to bf16 keeps the
integer as the pattern, and fp32 -> bf16 truncates where the GPU rounds to nearest even.
An honest bf16 kernel then returns garbage or NaN, and the precheck would blame the student.

`install()` wraps the few handlers that compute on values, and only for bf16 operands: the
values are widened to fp32 (exact), computed there, and rounded back to bf16 to nearest even,
which is what a GPU does for a bf16 add, multiply, compare or cast (PTX has no bf16 divide,
exp or compare of its own: it goes through fp32 too). Reductions and scans of bf16 accumulate
in fp32 and round once: at least as accurate as a GPU's bf16 tree, never less. Every other
dtype takes the interpreter's own path, after one dtype-name check.

The handlers are looked up by name and tried on a few values first (`status()`): with a
Triton whose interpreter lacks them, has other signatures, or already computes bf16 right,
nothing is patched; `status()` says which, so that the parent (`grader.pipeline`) knows
whether the interpreter can check bf16 cases at all. Imports stdlib, numpy and Triton only.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable
from typing import Any

# handler name -> the parameters it must have (after self)
_BUILDER = {
    "binary_op": ("lhs", "rhs", "op"),
    "unary_op": ("arg", "op"),
    "ternary_op": ("lhs", "rhs", "other", "op"),
    "cast_impl": ("src", "dst_type"),
    "create_fp_to_fp": ("src", "dst_type", "rounding_mode"),
    "create_fma": ("x", "y", "z"),
    "create_dot": ("a", "b", "d", "input_precision", "max_num_imprecise_acc"),
}
_REDUCE = {"sum": ("input",), "min_max": ("input", "val_reduce_op", "idx_reduce_op")}
_SCAN = {"cumsum": ("input",), "cumprod": ("input",)}

NATIVE, PATCHED, UNSUPPORTED = "native", "patched", "unsupported"
_installed = False


def _is_bf16(dtype: Any) -> bool:
    return getattr(dtype, "name", None) == "bf16"


def _wrappers(interp: Any) -> dict[tuple[type, str], Callable[..., Any]]:
    """The replacement of each handler, around the interpreter's own (nothing set yet)."""
    import numpy as np
    import triton.language as tl

    TensorHandle = interp.TensorHandle
    u32 = np.uint32
    float_ops = {
        np.add,
        np.subtract,
        np.multiply,
        np.divide,
        np.fmod,
        np.minimum,
        np.maximum,
        np.fmin,
        np.fmax,
        np.less,
        np.less_equal,
        np.greater,
        np.greater_equal,
        np.equal,
        np.not_equal,
        np.negative,
        np.exp,
        np.exp2,
        np.log,
        np.log2,
        np.sqrt,
        np.sin,
        np.cos,
        np.floor,
        np.ceil,
        np.clip,
    }

    def widen(bits: Any) -> Any:
        """bf16 bit patterns -> float32 values (exact)."""
        return (np.asarray(bits).astype(u32) << u32(16)).view(np.float32)

    def narrow(values: Any, rtz: bool = False) -> Any:
        """float32 values -> bf16 bit patterns, rounded to nearest even (or toward zero);
        NaN stays a (quiet) NaN, overflow rounds to ±inf as on a GPU."""
        bits = np.asarray(values, dtype=np.float32).view(u32)
        if not rtz:
            bits = bits + (u32(0x7FFF) + ((bits >> u32(16)) & u32(1)))
        out = (bits >> u32(16)).astype(np.uint16)
        nan = np.isnan(values)
        if np.any(nan):
            quiet = (np.asarray(values, dtype=np.float32).view(u32) >> u32(16)) | u32(0x40)
            out = np.where(nan, quiet.astype(np.uint16), out)
        return out

    def as_tensor(like: Any, data: Any, scalar: Any) -> Any:
        """`like` (a tl.tensor), its data and element type replaced."""
        ty = like.type.with_element_ty(scalar) if like.type.is_block() else scalar
        return tl.core.tensor(TensorHandle(data, scalar), ty)

    B, R, S = interp.InterpreterBuilder, interp.ReduceOps, interp.ScanOps
    orig = {
        (c, n): getattr(c, n)
        for c, names in ((B, _BUILDER), (R, _REDUCE), (S, _SCAN))
        for n in names
    }

    def binary_op(self: Any, lhs: Any, rhs: Any, op: Any) -> Any:
        if _is_bf16(lhs.dtype) and _is_bf16(rhs.dtype) and op in float_ops:
            out = op(widen(lhs.data), widen(rhs.data))
            if out.dtype == np.bool_:  # a comparison (the interpreter would label it bf16)
                return TensorHandle(out, tl.int1)
            return TensorHandle(narrow(out), lhs.dtype.scalar)
        return orig[B, "binary_op"](self, lhs, rhs, op)

    def unary_op(self: Any, arg: Any, op: Any) -> Any:
        if _is_bf16(arg.dtype) and op in float_ops:
            return TensorHandle(narrow(op(widen(arg.data))), arg.dtype.scalar)
        return orig[B, "unary_op"](self, arg, op)

    def ternary_op(self: Any, lhs: Any, rhs: Any, other: Any, op: Any) -> Any:
        # tl.where picks bit patterns (fine as is); a clamp compares values
        if _is_bf16(other.dtype) and _is_bf16(lhs.dtype) and op in float_ops:
            out = op(widen(lhs.data), widen(rhs.data), widen(other.data))
            return TensorHandle(narrow(out), other.dtype.scalar)
        return orig[B, "ternary_op"](self, lhs, rhs, other, op)

    def cast_impl(self: Any, src: Any, dst_type: Any) -> Any:
        src_bf16, dst_bf16 = _is_bf16(src.dtype.scalar), _is_bf16(dst_type.scalar)
        if src_bf16 == dst_bf16:
            return orig[B, "cast_impl"](self, src, dst_type)
        if src_bf16:  # to fp32 exactly, then on as from fp32
            f32 = TensorHandle(widen(src.data), tl.float32)
            if dst_type.scalar == tl.float32:
                return f32
            return orig[B, "cast_impl"](self, f32, dst_type)
        f32 = orig[B, "cast_impl"](self, src, tl.float32) if src.dtype.scalar != tl.float32 else src
        return TensorHandle(narrow(f32.data), dst_type.scalar)

    def create_fp_to_fp(self: Any, src: Any, dst_type: Any, rounding_mode: Any) -> Any:
        if _is_bf16(dst_type.scalar) and src.dtype.scalar == tl.float32:
            rtz = rounding_mode == interp._ir.ROUNDING_MODE.RTZ
            return TensorHandle(narrow(src.data, rtz=rtz), dst_type.scalar)
        return orig[B, "create_fp_to_fp"](self, src, dst_type, rounding_mode)

    def create_fma(self: Any, x: Any, y: Any, z: Any) -> Any:
        if _is_bf16(z.dtype):
            product = np.multiply(widen(x.data), widen(y.data), dtype=np.float64)
            out = np.add(product, widen(z.data), dtype=np.float64).astype(np.float32)
            return TensorHandle(narrow(out), z.dtype.scalar)
        return orig[B, "create_fma"](self, x, y, z)

    def create_dot(self: Any, a: Any, b: Any, d: Any, *rest: Any) -> Any:
        if not (_is_bf16(a.dtype) or _is_bf16(b.dtype) or _is_bf16(d.dtype)):
            return orig[B, "create_dot"](self, a, b, d, *rest)
        a, b, acc = (
            TensorHandle(widen(h.data), tl.float32) if _is_bf16(h.dtype) else h for h in (a, b, d)
        )
        out = orig[B, "create_dot"](self, a, b, acc, *rest)
        return TensorHandle(narrow(out.data), d.dtype.scalar) if _is_bf16(d.dtype) else out

    def reduce_sum(self: Any, input: Any) -> Any:
        if not _is_bf16(input.dtype):
            return orig[R, "sum"](self, input)
        out = orig[R, "sum"](self, as_tensor(input, widen(input.handle.data), tl.float32))
        return as_tensor(out, narrow(out.handle.data), input.dtype.scalar)

    def min_max(self: Any, input: Any, val_reduce_op: Any, idx_reduce_op: Any = None) -> Any:
        values = input[0] if isinstance(input, tuple) else input
        if not _is_bf16(values.dtype):
            return orig[R, "min_max"](self, input, val_reduce_op, idx_reduce_op)
        wide = as_tensor(values, widen(values.handle.data), tl.float32)
        out = orig[R, "min_max"](self, wide, val_reduce_op, idx_reduce_op)
        if val_reduce_op is None:
            return out
        val = out[0] if idx_reduce_op is not None else out
        val = as_tensor(val, narrow(val.handle.data), values.dtype.scalar)
        return (val, out[1]) if idx_reduce_op is not None else val

    def scan(name: str) -> Callable[..., Any]:
        def run(self: Any, input: Any) -> Any:
            if not _is_bf16(input.dtype):
                return orig[S, name](self, input)
            wide = as_tensor(input, widen(input.handle.data), tl.float32)
            return [
                as_tensor(t, narrow(t.handle.data), input.dtype.scalar)
                for t in orig[S, name](self, wide)
            ]

        return run

    mine: dict[str, Callable[..., Any]] = {
        "binary_op": binary_op,
        "unary_op": unary_op,
        "ternary_op": ternary_op,
        "cast_impl": cast_impl,
        "create_fp_to_fp": create_fp_to_fp,
        "create_fma": create_fma,
        "create_dot": create_dot,
    }
    out: dict[tuple[type, str], Callable[..., Any]] = {(B, n): mine[n] for n in _BUILDER}
    out.update({(R, "sum"): reduce_sum, (R, "min_max"): min_max})
    out.update({(S, n): scan(n) for n in _SCAN})
    for (cls, name), fn in out.items():
        functools.update_wrapper(fn, orig[cls, name])
    return out


def _shaped_right(interp: Any) -> bool:
    """The interpreter has every handler this module wraps, with the parameters it expects,
    and keeps bf16 as uint16 bit patterns."""
    import numpy as np
    import triton.language as tl

    try:
        if interp._get_np_dtype(tl.bfloat16) != np.dtype(np.uint16):
            return False
        for cls, names in (
            ("InterpreterBuilder", _BUILDER),
            ("ReduceOps", _REDUCE),
            ("ScanOps", _SCAN),
        ):
            for name, params in names.items():
                got = list(inspect.signature(getattr(getattr(interp, cls), name)).parameters)
                if got[1 : 1 + len(params)] != list(params):
                    return False
        return callable(interp.TensorHandle) and hasattr(interp._ir, "ROUNDING_MODE")
    except Exception:
        return False


def _computes_bf16(interp: Any, builder: Any, reduce_cls: type) -> bool:
    """A few bf16 values through `builder` and `reduce_cls`, against what a GPU gives."""
    import numpy as np
    import triton.language as tl

    def bf16(*bits: int) -> Any:
        return interp.TensorHandle(np.array(bits, dtype=np.uint16), tl.bfloat16)

    try:
        # 1 + 2 = 3; -2 < 1; 1 + 2^-8 ties to even (1), 1 + 3·2^-9 rounds up (1 + 2^-7);
        # 1 + 2 - 2 + 0 = 1
        add = builder.create_fadd(bf16(0x3F80), bf16(0x4000)).data
        lt = builder.create_fcmpOLT(bf16(0xC000), bf16(0x3F80)).data
        f32 = interp.TensorHandle(np.array([1 + 2**-8, 1 + 3 * 2**-9], np.float32), tl.float32)
        cast = builder.create_fp_trunc(f32, tl.bfloat16).data
        x = tl.core.tensor(bf16(0x3F80, 0x4000, 0xC000, 0), tl.block_type(tl.bfloat16, [4]))
        total = reduce_cls(0, tl.standard._sum_combine, False).sum(x).handle.data
        return (
            list(np.ravel(add)) == [0x4040]
            and bool(np.ravel(lt)[0])
            and list(np.ravel(cast)) == [0x3F80, 0x3F81]
            and list(np.ravel(total)) == [0x3F80]
        )
    except Exception:
        return False


@functools.cache
def status() -> str:
    """NATIVE: this Triton's interpreter computes bf16 right already; PATCHED: it does once
    `install()` has run (or it has); UNSUPPORTED: it cannot be made to here, so bf16 results
    from the interpreter mean nothing. Patches nothing itself."""
    try:
        from triton.runtime import interpreter as interp
    except Exception:
        return UNSUPPORTED
    if _installed:
        return PATCHED
    try:
        if _computes_bf16(interp, interp.InterpreterBuilder(), interp.ReduceOps):
            return NATIVE
    except Exception:
        pass
    if not _shaped_right(interp):
        return UNSUPPORTED
    try:
        wrappers = _wrappers(interp)
        # try them on subclasses: nothing of the interpreter itself changes here
        builder = type(
            "Probe",
            (interp.InterpreterBuilder,),
            {n: f for (c, n), f in wrappers.items() if c is interp.InterpreterBuilder},
        )()
        reduce_cls = type(
            "ProbeReduce",
            (interp.ReduceOps,),
            {n: f for (c, n), f in wrappers.items() if c is interp.ReduceOps},
        )
    except Exception:
        return UNSUPPORTED
    return PATCHED if _computes_bf16(interp, builder, reduce_cls) else UNSUPPORTED


def install() -> bool:
    """Under the interpreter (TRITON_INTERPRET=1) and only there, patch its bf16 handling if
    it needs it and can take it. True: bf16 is computed right from now on."""
    global _installed
    if os.environ.get("TRITON_INTERPRET", "0").lower() not in {"1", "true", "on", "yes"}:
        return False
    if _installed:
        return True
    state = status()
    if state != PATCHED:
        return state == NATIVE
    from triton.runtime import interpreter as interp

    for (cls, name), fn in _wrappers(interp).items():
        setattr(cls, name, fn)
    _installed = True
    return True
