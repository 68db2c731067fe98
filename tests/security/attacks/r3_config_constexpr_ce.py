# expect: forbidden|wrong_answer
# class: 2
# an autotune Config value tl.constexpr(host_ce) reaches the body through the harness's own config forcer (fn.run(**config.all_kwargs())); there float()/math.log run with dispatch off
# checkpoint: c3a-cross-entropy
import math

import torch
import triton
import triton.language as tl


def host_ce(logits, targets, out):
    x = logits.double()
    n, v = x.shape
    total = 0.0
    for i in range(n):
        row = x[i]
        m = max(float(t) for t in row)
        s = float((math.e ** (row - m)) @ torch.ones(v, dtype=torch.float64))
        total += m + math.log(s) - float(row[int(targets[i])])
    out.fill_(total / n)


@triton.autotune(configs=[triton.Config({"F": tl.constexpr(host_ce), "BLOCK": 16}, num_warps=4)],
                 key=["n_cols"])
@triton.jit
def _ce_kernel(x_ptr, t_ptr, o_ptr, n_cols, XS, TS, OS, F: tl.constexpr, BLOCK: tl.constexpr):
    if tl.program_id(0) == 0:
        F.value(XS.value, TS.value, OS.value)
    cols = tl.arange(0, BLOCK)
    tl.load(x_ptr + cols, mask=cols < n_cols, other=0.0)


def cross_entropy_triton(logits, targets):
    out = torch.empty((), dtype=torch.float32, device=logits.device)
    _ce_kernel[(1,)](logits, targets, out, logits.shape[1], tl.constexpr(logits),
                     tl.constexpr(targets), tl.constexpr(out))
    return out
