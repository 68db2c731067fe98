# expect: wrong_answer
# red team 5: one autotuned kernel launched twice per call with different autotune keys (phase 0 writes, phase 1 reads): forced to the same config both times, tuned apart on a GPU
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"S": 1}, num_warps=4), triton.Config({"S": 2}, num_warps=8)], key=["phase"])
@triton.jit
def softmax_kernel(x_ptr, y_ptr, d_ptr, sx, sy, n_cols, phase, BLOCK: tl.constexpr, S: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * sx + offs, mask=mask, other=float("-inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    e = tl.exp(x - m)
    if phase == 0:
        tl.store(d_ptr + row, tl.sum(e, axis=0) * S)
    else:
        d = tl.load(d_ptr + row) / S
        tl.store(y_ptr + row * sy + offs, (e / d).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    block = triton.next_power_of_2(n_cols)
    d = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, d, x.stride(0), y.stride(0), n_cols, 0, BLOCK=block)
    softmax_kernel[(n_rows,)](x, y, d, x.stride(0), y.stride(0), n_cols, 2, BLOCK=block)
    return y
