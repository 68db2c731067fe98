# expect: wrong_answer|forbidden|compile_error|runtime_error
# cross-entropy: kernel gives lse per row, host gathers logits[arange, targets] with advanced indexing
# checkpoint: c3a-cross-entropy
import torch
import triton
import triton.language as tl


@triton.jit
def lse_kernel(x_ptr, out_ptr, xs, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * xs + cols, mask=mask, other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    s = tl.sum(tl.exp(x - m), axis=0)
    tl.store(out_ptr + row, m + tl.log(s))


def cross_entropy_triton(logits, targets):
    n, v = logits.shape
    lse = torch.empty(n, device=logits.device, dtype=torch.float32)
    lse_kernel[(n,)](logits, lse, logits.stride(0), v, BLOCK=triton.next_power_of_2(v))
    picked = logits[torch.arange(n, device=logits.device), targets].float()
    return (lse - picked).mean()
