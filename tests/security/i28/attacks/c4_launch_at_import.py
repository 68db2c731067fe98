# expect: forbidden|wrong_answer|compile_error|runtime_error
# class: 4
# a kernel launched at import makes the interpreter copy numpy in as np before the file's own `import torch as np` runs; module code between reads numpy
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def _k(x_ptr, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(x_ptr + o, tl.zeros([B], tl.float32), mask=o < n)


_k[(1,)](torch.empty(4), 4, B=4)
WIDTH = np.zeros(3).shape[0]
import torch as np


def softmax_triton(x):
    return x
