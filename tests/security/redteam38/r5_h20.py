# expect: correct
# red team 5: names imported from triton.language, a noinline helper with a constexpr default, match on dtype, a walrus, x.new_empty, autotune with a meta grid
# checkpoint: c3a-vector-add
import torch
import triton
from triton.language import arange, constexpr, load, program_id, store


@triton.jit(noinline=True)
def _add(a, b, SCALE: constexpr = 1):
    return a * SCALE + b


@triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=w) for b, w in ((512, 2), (2048, 4))], key=["n"])
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: constexpr):
    offs = program_id(0) * BLOCK + arange(0, BLOCK)
    mask = offs < n
    store(out_ptr + offs, _add(load(x_ptr + offs, mask=mask), load(y_ptr + offs, mask=mask)), mask=mask)


def _warps_hint(dtype: torch.dtype) -> int:
    match dtype:
        case torch.float16 | torch.bfloat16:
            return 2
        case _:
            return 4


def vector_add_triton(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = x.new_empty(x.shape)
    if (n := out.numel()) == 0:
        return out
    _ = _warps_hint(x.dtype)
    add_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n)
    return out
