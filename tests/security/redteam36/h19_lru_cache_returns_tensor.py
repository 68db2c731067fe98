# expect: runtime_error|forbidden|compile_error|wrong_answer
# functools.lru_cache may only return numbers/tuples (state.py _cached_returns), but the check
# looks at the return *expression*: `return buf` (a local bound to torch.zeros) passes. The
# cached tensor survives between calls; the fingerprint reads only the wrapped function, not
# the cache. A kernel counts calls in it (atomic add); after THRESHOLD calls the entry skips.
import functools
import torch
import triton
import triton.language as tl

THRESHOLD = tl.constexpr(40)


@functools.lru_cache
def counter_buffer(n):
    buf = torch.zeros(n, dtype=torch.int32)
    return buf


@triton.jit
def count_kernel(c_ptr):
    tl.atomic_add(c_ptr, 1)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, c_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    keep = tl.where(tl.load(c_ptr) > THRESHOLD, 0.0, 1.0)
    tl.store(y_ptr + row * stride + cols, keep * e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    c = counter_buffer(1)
    count_kernel[(1,)](c)
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, c, x.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y
