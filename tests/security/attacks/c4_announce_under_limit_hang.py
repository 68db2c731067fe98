# expect: forbidden|time_limit|runtime_error
# class: 4
# announces a payload just under the 4 GiB result limit, sends 1 MiB of it and waits; must also hold: stopped at the wall limit
# checkpoint: c3a-softmax
import os
import struct
import sys
import time
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * y_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


_fd = int(sys.argv[2])
_head = b'{"type": "result", "run": 0, "config_index": 0, "tensor": {"dtype": "uint8", "shape": [4294963200]}}'
os.write(_fd, struct.pack("<IQ", len(_head), (4 << 30) - 4096) + _head)
os.write(_fd, bytes(1 << 20))
while True:
    time.sleep(1)

def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y
