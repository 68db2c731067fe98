# expect: forbidden
# class: 3
# on the first call finds main()'s `out`, `job`, `inputs` by frame and writes every run's answer with harness.wire, then exits
# checkpoint: c3a-softmax
from harness import wire
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


def _main_locals():
    import inspect as _i
    f = _i.currentframe()
    while f is not None and "job" not in f.f_locals:
        f = f.f_back
    return f.f_locals if f is not None else None


def softmax_triton(x):
    ctx = _main_locals()
    if ctx is not None:
        for run in ctx["job"]["runs"]:
            src = ctx["inputs"][run["args"][0]["tensor"]]
            ref = torch.softmax(src.double(), -1).to(src.dtype)
            wire.write_frame(ctx["out"], {"type": "result", "run": run["id"], "config_index": 0,
                                          "tensor": wire.tensor_meta(ref), "launches": 1,
                                          "forbidden": [], "configs": [], "used": []},
                             wire.tensor_bytes(ref))
        wire.write_frame(ctx["out"], {"type": "done"})
        ctx["out"].close()
        torch.os._exit(0)
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y
