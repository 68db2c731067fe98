# expect: forbidden|wrong_answer
# class: 1
# cross-entropy from .tolist()/.item() and Python math; a kernel gathers target logits that are then ignored
# checkpoint: c3a-cross-entropy
import math
import torch
import triton
import triton.language as tl


@triton.jit
def gather_kernel(x_ptr, t_ptr, out_ptr, stride):
    row = tl.program_id(0)
    t = tl.load(t_ptr + row)
    tl.store(out_ptr + row, tl.load(x_ptr + row * stride + t).to(tl.float32))


def cross_entropy_triton(logits, targets):
    logits = logits.contiguous()
    n, v = logits.shape
    picked = torch.empty(n, dtype=torch.float32)
    gather_kernel[(n,)](logits, targets, picked, logits.stride(0))
    total = 0.0
    for i, row in enumerate(logits.float().tolist()):
        m = max(row)
        lse = m + math.log(math.fsum(math.exp(a - m) for a in row))
        total += lse - row[int(targets[i].item())]
    return torch.tensor(total / n, dtype=torch.float32)
