"""Where Triton's CPU interpreter and a GPU compute a kernel's values differently: one launch
stores 19 flags, each 1 where the interpreter's numpy semantics hold (red team 6, issue 28).
On a GPU a 0 means the GPU differs there; under TRITON_INTERPRET=1 (raw Triton, without
kgrade's harness) every flag is 1 except where numpy cannot run it.

    python benchmarks/interp_vs_gpu.py            # on the GPU machine

Flags: 0 f32->i32 of 3e9 (saturates?), 1 NaN->i32, 2 -1.0->u32, 3 a*a - fma(a,a,0) == 0
(contraction), 4 exp(-100) > 0 (subnormal kept), 5 int // 0 >= 0, 6 f32->i16 of 1e5,
7 1e-30/1e10 > 0, 8 f32->i8 of 200 wraps, 9 sqrt(1e-40) > 0, 10 an int arg 1 + (2**31-1)
wraps (1 is a constexpr on a GPU), 11 libdevice.saturatef(NaN) != 0, 12 fast_dividef by
1.7e38 > 0, 13 fp64 libdevice.fma residual == 0, 14 libdevice.rsqrt(1e-40) < 1e30, 15-18 a
parameter annotated tl.int64 / tl.float64 / tl.int8 / tl.float16 typed by its value.
"""

import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice as ld


@triton.jit
def flags(o, n, a: tl.int64, b: tl.float64, c: tl.int8, d: tl.float16):
    r = tl.program_id(0)
    f = r.to(tl.float32)
    z = f * 0.0
    tl.store(o + 0, tl.where((f + 3.0e9).to(tl.int32) < 0, 1, 0))
    tl.store(o + 1, tl.where((z / z).to(tl.int32) < 0, 1, 0))
    tl.store(o + 2, tl.where((z - 1.0).to(tl.uint32) > 5, 1, 0))
    q = (r + 7).to(tl.float32) / 3.0
    p = tl.fma(q, q, 0.0)
    tl.store(o + 3, tl.where((q * q - p) == 0.0, 1, 0))
    tl.store(o + 4, tl.where(tl.exp(z - 100.0) > 0.0, 1, 0))
    tl.store(o + 5, tl.where(((r + 7) // (r > 100000000).to(tl.int32)) >= 0, 1, 0))
    tl.store(o + 6, tl.where((f + 100000.0).to(tl.int16) < 0, 1, 0))
    tl.store(o + 7, tl.where(((z + 1e-30) / 1e10) > 0.0, 1, 0))
    tl.store(o + 8, tl.where((f + 200.0).to(tl.int8) < 0, 1, 0))
    tl.store(o + 9, tl.where(tl.sqrt(z + 1e-40) > 0.0, 1, 0))
    tl.store(o + 10, tl.where((n + 2147483647) < 0, 1, 0))
    tl.store(o + 11, tl.where(ld.saturatef(z / z) != 0.0, 1, 0))
    tl.store(o + 12, tl.where(ld.fast_dividef(z + 1.0, (z + 1.0) * 1.7014118e38) > 0.0, 1, 0))
    g = (r + 7).to(tl.float64) / 3.0
    h = g * g
    tl.store(o + 13, tl.where(ld.fma(g, g, -h) == 0.0, 1, 0))
    tl.store(o + 14, tl.where(ld.rsqrt(z + 1e-40) < 1e30, 1, 0))
    tl.store(o + 15, tl.where((a * 65536) == 0, 1, 0))
    tl.store(o + 16, tl.where(b == 0.0, 1, 0))
    tl.store(o + 17, tl.where((c * 3) > 255, 1, 0))
    tl.store(o + 18, tl.where((d * 100.0) < 100000.0, 1, 0))


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    out = torch.zeros(19, dtype=torch.int32, device=dev)
    flags[(1,)](out, 1, 65536, 1e-50, 100, 1000.0)
    print(dev, out.tolist())
