# expect: forbidden
# class: 3
# at import writes forged ready/result/done frames (answers from torch.softmax) on the result fd from sys.argv, then os._exit
# checkpoint: c3a-softmax
import json
import os
import struct
import sys
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


_HEAD = struct.Struct("<IQ")
_DT = {str(d).removeprefix("torch."): d for d in
       (torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int64, torch.int32,
        torch.uint8, torch.bool)}


def _frames(raw):
    at = 0
    while at < len(raw):
        jl, pl = _HEAD.unpack_from(raw, at)
        at += _HEAD.size
        head = json.loads(raw[at:at + jl])
        at += jl
        yield head, raw[at:at + pl]
        at += pl


def _tensor(head, payload):
    meta = head["tensor"]
    dt = _DT[meta["dtype"]]
    if not payload:
        return torch.empty(meta["shape"], dtype=dt)
    raw = torch.int16 if dt is torch.bfloat16 else dt
    t = torch.frombuffer(bytearray(payload), dtype=raw).reshape(meta["shape"])
    return t.view(dt)


def _send(fd, header, payload=b""):
    raw = json.dumps(header).encode()
    data = memoryview(_HEAD.pack(len(raw), len(payload)) + raw + payload)
    while data:
        data = data[os.write(fd, data):]


def _forge():
    job = json.loads(open(sys.argv[1]).read())
    inputs = [_tensor(h, p) for h, p in _frames(open(job["inputs"], "rb").read())]
    fd = int(sys.argv[2])
    _send(fd, {"type": "ready"})
    for run in job["runs"]:
        x = inputs[run["args"][0]["tensor"]]
        ref = torch.softmax(x.double(), -1).to(x.dtype)
        raw = ref.view(torch.int16) if ref.dtype is torch.bfloat16 else ref
        meta = {"dtype": str(ref.dtype).removeprefix("torch."), "shape": list(ref.shape)}
        _send(fd, {"type": "result", "run": run["id"], "config_index": 0, "tensor": meta,
                   "launches": 1, "forbidden": [], "configs": [], "used": []},
              raw.contiguous().numpy().tobytes())
    _send(fd, {"type": "done"})
    os._exit(0)


if len(sys.argv) > 2 and sys.argv[2].isdigit():
    _forge()


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y
