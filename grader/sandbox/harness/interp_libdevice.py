"""Under the Triton interpreter only: libdevice's functions, which Triton 3.9's interpreter cannot
run (`triton.language.extra.libdevice.rsqrt` is a stub that returns None; the CUDA module's
externs need a compiler), computed with numpy where numpy has the same function on fp16, fp32
and fp64 (rsqrt, tanh, pow, erf, …), so a kernel using them is checked on the CPU like any other.

Any other libdevice function, or one of those on another dtype, raises `GpuOnly`: the child
reports the call (`kind` "GpuOnly"), and the parent leaves that case to the GPU stage (its values
cannot be checked here; it is not a compile error: the compile check compiles it for sm_90). A
GPU grading never imports this.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np

_FLOATS = {np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)}
_erf = np.vectorize(math.erf, otypes=[np.float64])


def _ftz(x: Any) -> Any:
    """An fp32 subnormal flushed to a zero of its sign, as the GPU's approximate square roots
    (`sqrt.approx.ftz`, `rsqrt.approx.ftz`) read it (measured on the H200, red team 6)."""
    if x.dtype != np.float32:
        return x
    return np.where(np.abs(x) < np.finfo(np.float32).tiny, np.copysign(0.0, x), x).astype(x.dtype)


def _fp_to_int(data: Any, dst: Any) -> Any:
    """A float -> int cast as a GPU's `cvt.rzi` makes it (measured on the H200, red team 6):
    NaN is 0 and an out-of-range value saturates, where numpy gives INT_MIN or wraps; an 8-bit
    int is converted through 16 bits and wraps from there, as measured."""
    wide = np.dtype({1: np.int16 if dst.kind == "i" else np.uint16}.get(dst.itemsize, dst))
    info = np.iinfo(wide)
    x = np.nan_to_num(data.astype(np.float64), nan=0.0)
    top, low = x >= float(info.max), x <= float(info.min)  # (2**63 - 1 is 2**63 in fp64)
    with np.errstate(invalid="ignore"):
        out = np.trunc(np.where(top | low, 0.0, x)).astype(wide)
    out = np.where(top, info.max, np.where(low, info.min, out)).astype(wide)
    return out.astype(dst)


def _tf32(x: Any) -> Any:
    """fp32 read as TF32 by the tensor cores: the low 13 mantissa bits dropped (truncation,
    measured on the H200: benchmarks/tf32_rounding.py)."""
    return (x.astype(np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


def _fp16_rtz(x: Any) -> Any:
    """fp32 -> fp16 rounded toward zero (`cvt.rz.f16.f32`): numpy's nearest, stepped back one
    ulp where it rounded away from zero; a finite value past fp16's range is ±65504."""
    near = x.astype(np.float16)
    away = np.isfinite(x) & (np.abs(near.astype(np.float32)) > np.abs(x))
    return np.where(away, np.nextafter(near, np.float16(0)), near).astype(np.float16)


def _round(x: Any) -> Any:
    return np.sign(x) * np.floor(np.abs(x) + 0.5)  # half away from zero, as C's round


UNARY: dict[str, Callable[[Any], Any]] = {
    "exp": np.exp, "exp2": np.exp2, "exp10": lambda x: np.power(10.0, x), "expm1": np.expm1,
    "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "sqrt": np.sqrt,
    "rsqrt": lambda x: 1.0 / np.sqrt(_ftz(x)), "cbrt": np.cbrt, "rcbrt": lambda x: 1.0 / np.cbrt(x),
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin, "acos": np.arccos,
    "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asinh": np.arcsinh,
    "acosh": np.arccosh, "atanh": np.arctanh, "erf": _erf, "floor": np.floor, "ceil": np.ceil,
    "trunc": np.trunc, "rint": np.rint, "nearbyint": np.rint, "round": _round, "abs": np.abs,
    "fabs": np.abs, "sqrt_rn": np.sqrt, "rsqrt_rn": lambda x: 1.0 / np.sqrt(x),
    "fast_expf": np.exp, "fast_logf": np.log, "fast_log2f": np.log2, "fast_log10f": np.log10,
    "fast_sinf": np.sin, "fast_cosf": np.cos, "fast_tanf": np.tan, "fast_exp10f":
    lambda x: np.power(10.0, x), "rcp_rn": lambda x: 1.0 / x, "saturatef":
    lambda x: np.clip(np.nan_to_num(x, nan=0.0), 0.0, 1.0),  # NaN: 0, as __nv_saturatef
}  # fmt: skip
BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "pow": np.power, "powf": np.power, "fast_powf": np.power, "atan2": np.arctan2,
    "fmod": np.fmod, "hypot": np.hypot, "fmax": np.fmax, "fmin": np.fmin, "max": np.fmax,
    "min": np.fmin, "copysign": np.copysign, "fdim": lambda x, y: np.maximum(x - y, 0.0),
    "div_rn": np.divide, "add_rn": np.add, "sub_rn": np.subtract,
    "mul_rn": np.multiply,
}  # fmt: skip


def _fma(x: Any, y: Any, z: Any) -> Any:
    """One rounding, as a GPU's fma: exact for fp16 and fp32 through fp64 (their product is
    exact there); fp64 has no wider type here, so an fp64 fma is checked on the GPU only."""
    if x.dtype == np.float64:
        raise GpuOnly("fma")
    return x.astype(np.float64) * y + z


TERNARY: dict[str, Callable[[Any, Any, Any], Any]] = {"fma": _fma, "fma_rn": _fma}
# Triton links libdevice with __CUDA_FTZ on (`enable_reflect_ftz`, backends/nvidia/compiler.py):
# its fp32 functions read and return subnormals as zeros (red team 8: floor(-1e-40) is -0 on a
# GPU, -1 in numpy), except the bit operations
_NO_FTZ = frozenset({"copysign"})
# fast_dividef is not here: __fdividef is 0 for 2**126 < |y| < 2**128 and approximate elsewhere


class GpuOnly(Exception):
    """A libdevice function (or a `tl.` call) the interpreter cannot run as a GPU does: its case
    is left to the GPU."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"{label(name)} cannot run under Triton's interpreter: its values are checked "
            "on the GPU only"
        )
        self.name = name


def label(name: str) -> str:
    """`libdevice.rsqrt`, or a `tl.` call as named."""
    return name if name.startswith("tl.") else f"libdevice.{name}"


def gpu_only(exc: BaseException) -> str | None:
    """The libdevice function a failed call stopped at, if that is what stopped it."""
    link: BaseException | None = exc
    for _ in range(16):
        if link is None:
            return None
        if isinstance(link, GpuOnly):
            return link.name
        link = link.__cause__ or link.__context__
    return None


def _computed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    import triton.language as tl
    from triton.runtime.interpreter import TensorHandle

    def run(*args: Any, _semantic: Any = None, **kwargs: Any) -> Any:
        tensors = [a for a in args if isinstance(a, tl.tensor)]
        if kwargs or not tensors:
            raise GpuOnly(name)
        like = max(tensors, key=lambda t: t.handle.data.size)
        dtype = like.handle.data.dtype
        if dtype not in _FLOATS or any(t.handle.data.dtype != dtype for t in tensors):
            raise GpuOnly(name)
        values = [
            a.handle.data if isinstance(a, tl.tensor) else np.asarray(a, dtype=dtype) for a in args
        ]
        flush = dtype == np.float32 and name not in _NO_FTZ
        if flush:
            values = [_ftz(v) for v in values]
        with np.errstate(all="ignore"):
            out = np.asarray(fn(*values))
        if out.shape != like.handle.data.shape:
            raise GpuOnly(name)
        if flush:
            out = _ftz(out.astype(dtype))
        return tl.tensor(TensorHandle(out.astype(dtype), like.dtype), like.type)

    run.__name__ = name
    return run


def _gpu_only(name: str) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        raise GpuOnly(name)

    run.__name__ = name
    return run


def install() -> None:
    """Under the interpreter: every public function of both libdevice modules replaced; fp32
    `tl.sqrt` and `tl.math.rsqrt` read subnormals as zero, float -> int casts saturate, and an
    fp32 `tl.dot` in TF32 (Triton's default) reads its operands as TF32, as on a GPU."""
    if os.environ.get("TRITON_INTERPRET") != "1":
        return
    import importlib

    import triton.language as tl
    from triton.runtime import interpreter

    builder = type(interpreter.interpreter_builder)

    def fp_to_int(self: Any, src: Any, dst_type: Any) -> Any:
        dst = interpreter._get_np_dtype(dst_type)
        data = _fp_to_int(src.data, dst) if dst.kind in "iu" else src.data.astype(dst)
        return interpreter.TensorHandle(data, dst_type.scalar)

    builder.create_fp_to_si = builder.create_fp_to_ui = fp_to_int
    dot = builder.create_dot

    def create_dot(self: Any, a: Any, b: Any, d: Any, precision: Any, *rest: Any) -> Any:
        name = str(getattr(precision, "name", precision)).upper()
        if name == "TF32X3":  # how a GPU splits the operands is not measured: the GPU checks
            raise GpuOnly("tl.dot(input_precision='tf32x3')")
        if name == "TF32" and a.dtype.scalar == b.dtype.scalar == tl.float32:
            a = interpreter.TensorHandle(_tf32(a.data), a.dtype.scalar)
            b = interpreter.TensorHandle(_tf32(b.data), b.dtype.scalar)
        return dot(self, a, b, d, precision, *rest)

    builder.create_dot = create_dot
    to_fp, bitcast, gather = builder.create_fp_to_fp, builder.create_bitcast, builder.create_gather

    def create_fp_to_fp(self: Any, src: Any, dst_type: Any, rounding_mode: Any) -> Any:
        """fp8 casts are left to the GPU (the interpreter's converter is a binade off on fp8
        subnormals and does not saturate: red team 8); an fp32 -> fp16 cast toward zero is
        exact here (the interpreter's gave 70000 -> NaN, not 65504)."""
        src_ty, dst_ty = src.dtype.scalar, dst_type.scalar
        if src_ty.is_fp8() or dst_ty.is_fp8():
            raise GpuOnly("tl.float8 conversions")
        rtz = rounding_mode == interpreter._ir.ROUNDING_MODE.RTZ
        if rtz and src_ty == tl.float32 and dst_ty == tl.float16:
            return interpreter.TensorHandle(_fp16_rtz(src.data), dst_ty)
        return to_fp(self, src, dst_type, rounding_mode)

    def create_bitcast(self: Any, src: Any, dst_type: Any) -> Any:
        """The bits of a NaN are the GPU's (0x7fffffff for a computed one; numpy's 0xffc00000):
        a bitcast that reads them is left to the GPU (red team 8)."""
        data = src.data
        if data.dtype.kind == "f" and np.isnan(data).any():
            raise GpuOnly("tl.bitcast of a NaN")
        return bitcast(self, src, dst_type)

    def create_gather(self: Any, src: Any, indices: Any, axis: Any) -> Any:
        """An index out of range reads outside the tensor on a GPU; numpy wraps a negative one
        (red team 8): refused here."""
        n = src.data.shape[axis]
        if indices.data.size and (indices.data.min() < 0 or indices.data.max() >= n):
            raise IndexError(f"tl.gather: an index out of range [0, {n}) along axis {axis}")
        return gather(self, src, indices, axis)

    builder.create_fp_to_fp, builder.create_bitcast = create_fp_to_fp, create_bitcast
    builder.create_gather = create_gather
    builder.create_sqrt = lambda self, arg: self.unary_op(arg, lambda x: np.sqrt(_ftz(x)))
    builder.create_rsqrt = lambda self, arg: interpreter.TensorHandle(
        1 / np.sqrt(_ftz(arg.data)), arg.dtype.scalar
    )

    for module_name in ("triton.language.extra.libdevice", "triton.language.extra.cuda.libdevice"):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        for name, value in list(vars(module).items()):
            if name.startswith("_") or not callable(value) or isinstance(value, type):
                continue
            fn = UNARY.get(name) or BINARY.get(name) or TERNARY.get(name)
            setattr(module, name, _computed(name, fn) if fn is not None else _gpu_only(name))
