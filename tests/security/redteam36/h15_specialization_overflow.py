# expect: runtime_error|forbidden|compile_error|wrong_answer
# Launches > 128 distinct specializations (a constexpr SALT per call and per row block):
# the compile check must refuse to judge (forbidden), not pass unjudged ones.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr, ROW: tl.constexpr, VARIANT: tl.constexpr):
    row = ROW
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    tl.store(y_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    for r in range(n_rows):
        for variant in range(3):
            softmax_kernel[(1,)](x, y, x.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols),
                                 ROW=r, VARIANT=variant)
    return y
