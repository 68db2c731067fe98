# expect: time_limit|compile_error|memory_limit
# class: 4
# issue 28 class 5: a helper @jit function sorts a 32768-wide block under a constexpr flag (a bitonic network unrolled by the compiler, np.sort under the interpreter)
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def _noise(FLAG: tl.constexpr):
    z = tl.zeros([32768], tl.float32)
    if FLAG:
        z = tl.sort(z, 0)
    return tl.sum(z, 0)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr, SLOW: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    acc = x + y + _noise(SLOW).to(x.dtype)
    tl.store(out_ptr + offs, acc, mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024, SLOW=n > 0, num_warps=1)
    return out
