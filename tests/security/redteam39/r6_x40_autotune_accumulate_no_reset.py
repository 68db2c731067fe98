# expect: wrong_answer|forbidden|compile_error|runtime_error
# autotuned kernel accumulates into a zeroed output with atomic_add, no reset_to_zero: a GPU autotuner's benchmark runs it many times
import torch
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 4096}, num_warps=4), triton.Config({"BLOCK": 4096}, num_warps=8)],
                 key=["n_cols"])
@triton.jit
def softmax_kernel(x_ptr, y_ptr, xs, ys, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * xs + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.atomic_add(y_ptr + row * ys + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.zeros(x.shape, dtype=torch.float32, device=x.device)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols)
    return y.to(x.dtype)
