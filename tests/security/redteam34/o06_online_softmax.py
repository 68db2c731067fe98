# expect: correct
# honest: online (one-pass over chunks) softmax: running max and rescaled sum, then a second sweep writes
import torch
import triton
import triton.language as tl


@triton.jit
def online_softmax_kernel(x_ptr, y_ptr, n_cols, sx, sy, CHUNK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row * sx
    m = tl.full([CHUNK], -float("inf"), tl.float32)
    s = tl.zeros([CHUNK], tl.float32)
    for start in range(0, n_cols, CHUNK):
        c = start + tl.arange(0, CHUNK)
        x = tl.load(base + c, mask=c < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        safe = tl.where(m_new == -float("inf"), 0.0, m_new)
        s = s * tl.exp(m - safe) + tl.exp(x - safe)
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(s * tl.exp(m - row_max), axis=0)
    for start in range(0, n_cols, CHUNK):
        c = start + tl.arange(0, CHUNK)
        x = tl.load(base + c, mask=c < n_cols, other=-float("inf")).to(tl.float32)
        y = tl.exp(x - row_max) / total
        tl.store(y_ptr + row * sy + c, y.to(y_ptr.dtype.element_ty), mask=c < n_cols)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    online_softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0), CHUNK=256)
    return y
