# expect: correct
# class: honest
# softmax whose row sums come from tl.dot(p, ones, input_precision="ieee") on 16-row tiles, over column chunks of at most 1024; tl.full with a shape tuple, tl.where with scalars
# checkpoint: c3a-softmax
# (Until 2026-12-02 it took the dot over the whole row: for rows of 4096 its (16, 4096) x (4096, 16)
# fp32 tl.dot needs 262144 bytes of shared memory per block, over the H200's 232448, which Triton
# compiles and a GPU refuses to load: the compile check's launch-time limit now says so.)
import torch
import triton
import triton.language as tl


@triton.jit
def _softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, stride_xm, stride_ym,
                    ROWS: tl.constexpr, CHUNK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    row_ok = rows < n_rows
    m = tl.full((ROWS, 1), float("-inf"), tl.float32)
    for start in range(0, n_cols, CHUNK):
        cols = start + tl.arange(0, CHUNK)[None, :]
        mask = row_ok & (cols < n_cols)
        x = tl.load(x_ptr + rows * stride_xm + cols, mask=mask, other=float("-inf"))
        m = tl.maximum(m, tl.max(x.to(tl.float32), axis=1)[:, None])
    m = tl.where(m == float("-inf"), 0.0, m)
    ones = tl.full((CHUNK, 16), 1.0, tl.float32)
    s = tl.zeros((ROWS, 1), tl.float32)
    for start in range(0, n_cols, CHUNK):
        cols = start + tl.arange(0, CHUNK)[None, :]
        mask = row_ok & (cols < n_cols)
        x = tl.load(x_ptr + rows * stride_xm + cols, mask=mask, other=float("-inf"))
        p = tl.where(mask, tl.exp(x.to(tl.float32) - m), 0.0)
        d = tl.dot(p, ones, input_precision="ieee")  # every column holds the chunk's row sum
        s += tl.max(d, axis=1)[:, None]
    for start in range(0, n_cols, CHUNK):
        cols = start + tl.arange(0, CHUNK)[None, :]
        mask = row_ok & (cols < n_cols)
        x = tl.load(x_ptr + rows * stride_xm + cols, mask=mask, other=float("-inf"))
        y = tl.exp(x.to(tl.float32) - m) / s
        tl.store(y_ptr + rows * stride_ym + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    x = x.contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    chunk = min(1024, max(16, triton.next_power_of_2(n_cols)))
    _softmax_kernel[(triton.cdiv(n_rows, 16),)](x, y, n_rows, n_cols, x.stride(0), y.stride(0),
                                               ROWS=16, CHUNK=chunk)
    return y
