# expect: runtime_error|forbidden|compile_error|wrong_answer
# Host code edits the kernel's own jit options (InterpretedFunction.kwargs, reachable as
# `K.kwargs`, mutable with `.pop`): the child's specialize.unspecialized() reads them, so the
# file decides what the compile check compiles. With `flag` declared do_not_specialize the
# check would compile both branches (and refuse the plain global SCALE); after the pop,
# flag=1 is specialized to a constexpr and the refused branch is never compiled.
import torch
import triton
import triton.language as tl

SCALE = 1.0


@triton.jit(do_not_specialize=["flag"])
def softmax_kernel(x_ptr, y_ptr, stride, n_cols, flag, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    if flag == 1:
        v = v - tl.max(v, axis=0)
    else:
        v = v * SCALE
    e = tl.exp(v)
    tl.store(y_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    softmax_kernel.kwargs.pop("do_not_specialize", None)
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), n_cols, 1, BLOCK=triton.next_power_of_2(n_cols))
    return y
