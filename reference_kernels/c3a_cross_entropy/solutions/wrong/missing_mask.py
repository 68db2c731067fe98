# expect: runtime_error
# The row is loaded without a mask: with BLOCK = next_power_of_2(n_cols) a vocabulary that is not a power of two pulls the next row's logits into the logsumexp, and the last row reads past the end of the tensor (a SIGSEGV under the interpreter, where every tensor ends next to a protected page).
import torch
import triton
import triton.language as tl


@triton.jit
def ce_kernel(logits_ptr, targets_ptr, out_ptr, row_stride, n_rows, n_cols,
              BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(logits_ptr + row * row_stride + cols).to(tl.float32)
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    target = tl.load(targets_ptr + row)
    x_t = tl.load(logits_ptr + row * row_stride + target).to(tl.float32)
    tl.atomic_add(out_ptr, (lse - x_t) / n_rows)


def cross_entropy_triton(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = logits.shape
    out = torch.zeros((), dtype=torch.float32, device=logits.device)
    ce_kernel[(n_rows,)](logits, targets, out, logits.stride(0), n_rows, n_cols,
                         BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return out
