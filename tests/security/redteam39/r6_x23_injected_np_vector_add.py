# expect: wrong_answer|forbidden|compile_error|runtime_error
# host uses the interpreter-injected numpy `np` (unbound in the file) after a launch: np.add reads values
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def noop_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    noop_kernel[(1,)](x, x.numel(), BLOCK=16)
    out.copy_(np.add(x, y))
    return out
