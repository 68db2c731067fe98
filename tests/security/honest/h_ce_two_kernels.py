# expect: correct
# class: honest
# cross-entropy wholly in Triton: row losses, then a one-program mean kernel; .contiguous() and an int64 offset
# checkpoint: c3a-cross-entropy
import torch
import triton
import triton.language as tl


@triton.jit
def _rows(x_ptr, t_ptr, loss_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row.to(tl.int64) * stride
    offs = tl.arange(0, BLOCK)
    mx = tl.full([BLOCK], -float("inf"), tl.float32)
    for start in range(0, n_cols, BLOCK):
        c = start + offs
        mx = tl.maximum(mx, tl.load(base + c, mask=c < n_cols, other=-float("inf")).to(tl.float32))
    m = tl.max(mx, axis=0)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n_cols, BLOCK):
        c = start + offs
        x = tl.load(base + c, mask=c < n_cols, other=-float("inf")).to(tl.float32)
        s += tl.exp(x - m)
    xt = tl.load(base + tl.load(t_ptr + row)).to(tl.float32)
    tl.store(loss_ptr + row, (m - xt) + tl.log(tl.sum(s, axis=0)))


@triton.jit
def _mean(loss_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n, BLOCK):
        acc += tl.load(loss_ptr + start + offs, mask=start + offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n)


def cross_entropy_triton(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    logits, targets = logits.contiguous(), targets.contiguous()
    n, v = logits.shape
    losses = torch.empty(n, dtype=torch.float32, device=logits.device)
    out = torch.empty((), dtype=torch.float32, device=logits.device)
    _rows[(n,)](logits, targets, losses, v, logits.stride(0), BLOCK=2048)
    _mean[(1,)](losses, out, n, BLOCK=512)
    return out
