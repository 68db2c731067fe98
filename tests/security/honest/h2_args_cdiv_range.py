# expect: correct
# class: honest
# entry with *args/**kwargs passthrough, triton.cdiv inside the kernel, tl.range loop (the Triton tutorial pattern), tl.num_programs
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, xs, ys, BLOCK: tl.constexpr, CHUNK: tl.constexpr):
    start = tl.program_id(0)
    step = tl.num_programs(0)
    for row in tl.range(start, n_rows, step, num_stages=1):
        offs = tl.arange(0, BLOCK)
        m = offs < n_cols
        x = tl.load(x_ptr + row * xs + offs, mask=m, other=-float("inf")).to(tl.float32)
        e = tl.exp(x - tl.max(x, axis=0))
        tl.store(y_ptr + row * ys + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty),
                 mask=m)
    tl.static_assert(triton.cdiv(BLOCK, CHUNK) >= 1)


def softmax_triton(x, *args, **kwargs):
    y = torch.empty_like(x)
    progs = min(x.shape[0], 8)
    softmax_kernel[(progs,)](x, y, x.shape[0], x.shape[1], x.stride(0), y.stride(0),
                             BLOCK=triton.next_power_of_2(x.shape[1]), CHUNK=64)
    return y
