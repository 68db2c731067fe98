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


def _round(x: Any) -> Any:
    return np.sign(x) * np.floor(np.abs(x) + 0.5)  # half away from zero, as C's round


UNARY: dict[str, Callable[[Any], Any]] = {
    "exp": np.exp, "exp2": np.exp2, "exp10": lambda x: np.power(10.0, x), "expm1": np.expm1,
    "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "sqrt": np.sqrt,
    "rsqrt": lambda x: 1.0 / np.sqrt(x), "cbrt": np.cbrt, "rcbrt": lambda x: 1.0 / np.cbrt(x),
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin, "acos": np.arccos,
    "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asinh": np.arcsinh,
    "acosh": np.arccosh, "atanh": np.arctanh, "erf": _erf, "floor": np.floor, "ceil": np.ceil,
    "trunc": np.trunc, "rint": np.rint, "nearbyint": np.rint, "round": _round, "abs": np.abs,
    "fabs": np.abs, "sqrt_rn": np.sqrt, "rsqrt_rn": lambda x: 1.0 / np.sqrt(x),
    "fast_expf": np.exp, "fast_logf": np.log, "fast_log2f": np.log2, "fast_log10f": np.log10,
    "fast_sinf": np.sin, "fast_cosf": np.cos, "fast_tanf": np.tan, "fast_exp10f":
    lambda x: np.power(10.0, x), "rcp_rn": lambda x: 1.0 / x, "saturatef":
    lambda x: np.clip(x, 0.0, 1.0),
}  # fmt: skip
BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "pow": np.power, "powf": np.power, "fast_powf": np.power, "atan2": np.arctan2,
    "fmod": np.fmod, "hypot": np.hypot, "fmax": np.fmax, "fmin": np.fmin, "max": np.fmax,
    "min": np.fmin, "copysign": np.copysign, "fdim": lambda x, y: np.maximum(x - y, 0.0),
    "div_rn": np.divide, "fast_dividef": np.divide, "add_rn": np.add, "sub_rn": np.subtract,
    "mul_rn": np.multiply,
}  # fmt: skip
TERNARY: dict[str, Callable[[Any, Any, Any], Any]] = {
    "fma": lambda x, y, z: x.astype(np.float64) * y + z,
    "fma_rn": lambda x, y, z: x.astype(np.float64) * y + z,
}


class GpuOnly(Exception):
    """A libdevice function the interpreter cannot run: its case is left to the GPU."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"libdevice.{name} cannot run under Triton's interpreter: its values are checked "
            "on the GPU only"
        )
        self.name = name


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
        with np.errstate(all="ignore"):
            out = np.asarray(fn(*values))
        if out.shape != like.handle.data.shape:
            raise GpuOnly(name)
        return tl.tensor(TensorHandle(out.astype(dtype), like.dtype), like.type)

    run.__name__ = name
    return run


def _gpu_only(name: str) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        raise GpuOnly(name)

    run.__name__ = name
    return run


def install() -> None:
    """Under the interpreter: every public function of both libdevice modules replaced."""
    if os.environ.get("TRITON_INTERPRET") != "1":
        return
    import importlib

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
