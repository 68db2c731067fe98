# expect: forbidden|wrong_answer|runtime_error
# class: 3
# an atexit handler means to overwrite the results stream at exit (the harness ends with os._exit)
# checkpoint: c3a-softmax
import atexit
import json
import os
import struct
import sys
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    # first pass: stage the row in the output buffer
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * y_stride + cols, v, mask=mask)


_calls = []


@atexit.register
def _rewrite_results():
    fd = int(sys.argv[2])
    for run_id, x in _calls:
        ref = torch.softmax(x.double(), -1).to(x.dtype)
        meta = {"dtype": str(ref.dtype).removeprefix("torch."), "shape": list(ref.shape)}
        raw = json.dumps({"type": "result", "run": run_id, "config_index": 0, "tensor": meta,
                          "launches": 1, "forbidden": []}).encode()
        payload = ref.numpy().tobytes()
        os.write(fd, struct.pack("<IQ", len(raw), len(payload)) + raw + payload)


def softmax_triton(x):
    _calls.append((len(_calls), x.clone()))
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y
