# expect: wrong_answer|forbidden|compile_error|runtime_error|correct
# lru_cache body: 60-step chain where each name is bound from the previous twice (exponential provenance walk?)
import functools
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, xs, ys, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * xs + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * ys + cols, e / tl.sum(e, axis=0), mask=mask)


@functools.lru_cache(maxsize=None)
def block(n):
    a0 = n
    a1 = a0 if a0 else a0
    a2 = a1 if a1 else a1
    a3 = a2 if a2 else a2
    a4 = a3 if a3 else a3
    a5 = a4 if a4 else a4
    a6 = a5 if a5 else a5
    a7 = a6 if a6 else a6
    a8 = a7 if a7 else a7
    a9 = a8 if a8 else a8
    a10 = a9 if a9 else a9
    a11 = a10 if a10 else a10
    a12 = a11 if a11 else a11
    a13 = a12 if a12 else a12
    a14 = a13 if a13 else a13
    a15 = a14 if a14 else a14
    a16 = a15 if a15 else a15
    a17 = a16 if a16 else a16
    a18 = a17 if a17 else a17
    a19 = a18 if a18 else a18
    a20 = a19 if a19 else a19
    a21 = a20 if a20 else a20
    a22 = a21 if a21 else a21
    a23 = a22 if a22 else a22
    a24 = a23 if a23 else a23
    a25 = a24 if a24 else a24
    a26 = a25 if a25 else a25
    a27 = a26 if a26 else a26
    a28 = a27 if a27 else a27
    a29 = a28 if a28 else a28
    a30 = a29 if a29 else a29
    a31 = a30 if a30 else a30
    a32 = a31 if a31 else a31
    a33 = a32 if a32 else a32
    a34 = a33 if a33 else a33
    a35 = a34 if a34 else a34
    a36 = a35 if a35 else a35
    a37 = a36 if a36 else a36
    a38 = a37 if a37 else a37
    a39 = a38 if a38 else a38
    a40 = a39 if a39 else a39
    a41 = a40 if a40 else a40
    a42 = a41 if a41 else a41
    a43 = a42 if a42 else a42
    a44 = a43 if a43 else a43
    a45 = a44 if a44 else a44
    a46 = a45 if a45 else a45
    a47 = a46 if a46 else a46
    a48 = a47 if a47 else a47
    a49 = a48 if a48 else a48
    a50 = a49 if a49 else a49
    a51 = a50 if a50 else a50
    a52 = a51 if a51 else a51
    a53 = a52 if a52 else a52
    a54 = a53 if a53 else a53
    a55 = a54 if a54 else a54
    a56 = a55 if a55 else a55
    a57 = a56 if a56 else a56
    a58 = a57 if a57 else a57
    a59 = a58 if a58 else a58
    a60 = a59 if a59 else a59
    return triton.next_power_of_2(n) + 0 * a60

def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=block(n_cols))
    return y
