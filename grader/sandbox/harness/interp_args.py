"""Under the Triton interpreter only: a kernel's scalar arguments typed as a GPU launch types
them, so a kernel cannot tell the precheck from a GPU by its arguments (red team 5).

Triton 3.9's interpreter hands a kernel a Python float as the Python float itself (fp64
arithmetic, `isinstance(eps, float)`, `1e-50 > 0.0` true) where a compiled launch passes an
fp32 scalar (1e-50 is 0.0 there); and an int in [2**31, 2**32) as a uint32 scalar typed i64,
so `big + big` wraps here and not on a GPU. Here a float becomes an fp32 scalar tensor and
such an int an int64 one, as `mangle_type` types them for the compiler. A GPU grading never
imports this.
"""

from __future__ import annotations

import os
from typing import Any

_installed = False


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
