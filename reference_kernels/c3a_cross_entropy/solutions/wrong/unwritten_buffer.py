# expect: wrong_answer
# The kernel writes per-row losses into `losses`, but the mean step was never written: the returned `out` is an untouched torch.empty.
import torch
import triton
import triton.language as tl


@triton.jit
def ce_kernel(logits_ptr, targets_ptr, loss_ptr, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(logits_ptr + row * row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    target = tl.load(targets_ptr + row)
    x_t = tl.load(logits_ptr + row * row_stride + target).to(tl.float32)
    tl.store(loss_ptr + row, lse - x_t)


def cross_entropy_triton(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = logits.shape
    losses = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    out = torch.empty((), dtype=torch.float32, device=logits.device)
    ce_kernel[(n_rows,)](logits, targets, losses, logits.stride(0), n_cols,
                         BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return out
