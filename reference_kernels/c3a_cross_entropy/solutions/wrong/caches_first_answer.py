# expect: forbidden
# Keeps the first loss in a module-level list and returns a clone of it on every later call, whatever the input. Refused before it runs since issue 28 (state between calls).
import torch
import triton
import triton.language as tl

_results = []


@triton.jit
def ce_kernel(logits_ptr, targets_ptr, out_ptr, row_stride, n_rows, n_cols,
              BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(logits_ptr + row * row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
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
    if not _results:
        _results.append(out)  # reuse the first answer: saves the kernel's time on later calls
    return _results[0].clone()
