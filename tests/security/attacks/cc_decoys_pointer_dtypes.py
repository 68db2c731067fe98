# expect: forbidden|time_limit
# class: 4
# issue 28 class 5: decoys fed pointers of every dtype and int sizes (1, 16, 2**40: constexpr, i32, i64) fill the cap
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl

SCALE = 1.0


@triton.jit
def decoy(p, m, K: tl.constexpr):
    pass


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    acc = (x + y) * SCALE
    tl.store(out_ptr + offs, acc, mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    bufs = [torch.empty(4, dtype=d) for d in (torch.float32, torch.float16, torch.bfloat16, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.float64, torch.bool)]
    for b in bufs:
        for m in (1, 16, 2**40):
            for k in range(5):
                decoy[(1,)](b, m, K=k)
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
