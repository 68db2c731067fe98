# expect: wrong_answer|forbidden|compile_error|runtime_error|correct
# module-level list aliased through 60 names each with two reaching definitions (exponential alias walk?)
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


CACHE = []


def pick(n, c):
    a0 = CACHE
    a1 = CACHE
    if c:
        a2 = a1
    else:
        a2 = a0
    if c:
        a3 = a2
    else:
        a3 = a1
    if c:
        a4 = a3
    else:
        a4 = a2
    if c:
        a5 = a4
    else:
        a5 = a3
    if c:
        a6 = a5
    else:
        a6 = a4
    if c:
        a7 = a6
    else:
        a7 = a5
    if c:
        a8 = a7
    else:
        a8 = a6
    if c:
        a9 = a8
    else:
        a9 = a7
    if c:
        a10 = a9
    else:
        a10 = a8
    if c:
        a11 = a10
    else:
        a11 = a9
    if c:
        a12 = a11
    else:
        a12 = a10
    if c:
        a13 = a12
    else:
        a13 = a11
    if c:
        a14 = a13
    else:
        a14 = a12
    if c:
        a15 = a14
    else:
        a15 = a13
    if c:
        a16 = a15
    else:
        a16 = a14
    if c:
        a17 = a16
    else:
        a17 = a15
    if c:
        a18 = a17
    else:
        a18 = a16
    if c:
        a19 = a18
    else:
        a19 = a17
    if c:
        a20 = a19
    else:
        a20 = a18
    if c:
        a21 = a20
    else:
        a21 = a19
    if c:
        a22 = a21
    else:
        a22 = a20
    if c:
        a23 = a22
    else:
        a23 = a21
    if c:
        a24 = a23
    else:
        a24 = a22
    if c:
        a25 = a24
    else:
        a25 = a23
    if c:
        a26 = a25
    else:
        a26 = a24
    if c:
        a27 = a26
    else:
        a27 = a25
    if c:
        a28 = a27
    else:
        a28 = a26
    if c:
        a29 = a28
    else:
        a29 = a27
    if c:
        a30 = a29
    else:
        a30 = a28
    if c:
        a31 = a30
    else:
        a31 = a29
    if c:
        a32 = a31
    else:
        a32 = a30
    if c:
        a33 = a32
    else:
        a33 = a31
    if c:
        a34 = a33
    else:
        a34 = a32
    if c:
        a35 = a34
    else:
        a35 = a33
    if c:
        a36 = a35
    else:
        a36 = a34
    if c:
        a37 = a36
    else:
        a37 = a35
    if c:
        a38 = a37
    else:
        a38 = a36
    if c:
        a39 = a38
    else:
        a39 = a37
    if c:
        a40 = a39
    else:
        a40 = a38
    if c:
        a41 = a40
    else:
        a41 = a39
    if c:
        a42 = a41
    else:
        a42 = a40
    if c:
        a43 = a42
    else:
        a43 = a41
    if c:
        a44 = a43
    else:
        a44 = a42
    if c:
        a45 = a44
    else:
        a45 = a43
    if c:
        a46 = a45
    else:
        a46 = a44
    if c:
        a47 = a46
    else:
        a47 = a45
    if c:
        a48 = a47
    else:
        a48 = a46
    if c:
        a49 = a48
    else:
        a49 = a47
    if c:
        a50 = a49
    else:
        a50 = a48
    if c:
        a51 = a50
    else:
        a51 = a49
    if c:
        a52 = a51
    else:
        a52 = a50
    if c:
        a53 = a52
    else:
        a53 = a51
    if c:
        a54 = a53
    else:
        a54 = a52
    if c:
        a55 = a54
    else:
        a55 = a53
    if c:
        a56 = a55
    else:
        a56 = a54
    if c:
        a57 = a56
    else:
        a57 = a55
    if c:
        a58 = a57
    else:
        a58 = a56
    if c:
        a59 = a58
    else:
        a59 = a57
    if c:
        a60 = a59
    else:
        a60 = a58
    if c:
        a61 = a60
    else:
        a61 = a59
    return len(a61) + n

def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(pick(n_cols, n_rows) - 0))
    return y
