# expect: wrong_answer
# red team 5: two separately autotuned kernels that hand data to each other: the harness forces the same config index on both, so only matched pairs are checked; a GPU tunes each alone
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"S": 1}, num_warps=4), triton.Config({"S": 2}, num_warps=8)], key=["n_cols"])
@triton.jit
def stats_kernel(x_ptr, m_ptr, d_ptr, stride, n_cols, BLOCK: tl.constexpr, S: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + offs, mask=offs < n_cols, other=float("-inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    d = tl.sum(tl.exp(x - m), axis=0)
    tl.store(m_ptr + row, m)
    tl.store(d_ptr + row, d * S)


@triton.autotune(configs=[triton.Config({"T": 1}, num_warps=4), triton.Config({"T": 2}, num_warps=8)], key=["n_cols"])
@triton.jit
def norm_kernel(x_ptr, y_ptr, m_ptr, d_ptr, sx, sy, n_cols, BLOCK: tl.constexpr, T: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    m = tl.load(m_ptr + row)
    d = tl.load(d_ptr + row) / T
    x = tl.load(x_ptr + row * sx + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * sy + offs, (tl.exp(x - m) / d).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    block = triton.next_power_of_2(n_cols)
    m = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    d = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    y = torch.empty_like(x)
    stats_kernel[(n_rows,)](x, m, d, x.stride(0), n_cols, BLOCK=block)
    norm_kernel[(n_rows,)](x, y, m, d, x.stride(0), y.stride(0), n_cols, BLOCK=block)
    return y
