# expect: runtime_error|forbidden|compile_error|wrong_answer
# defines.Defines builds its alias map with ast.walk (breadth first) over the whole file, last
# binding wins, while Python binds in source order: an import nested in an `if` is visited
# after the top-level one below it. The checker believes `lang` is `math` (so host code
# may call lang.exp); at run time `lang` is torch, and lang.exp is torch.exp on the input.
import torch
import triton
import triton.language as tl

if True:
    import math as lang
import torch as lang


@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    tl.store(y_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    z = lang.exp(x)  # torch.exp at run time; math.exp to the checker
    softmax_kernel[(n_rows,)](x, y, x.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y
