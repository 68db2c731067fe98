# expect: runtime_error|forbidden|compile_error|wrong_answer
# A host `match` (allowed by checker.v_Match, although docs/SUBMISSIONS.md says match is
# refused) whose capture pattern rebinds a kernel name at module level. Expected: refused.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    tl.store(y_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def other_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    pass


match other_kernel:
    case softmax_kernel:
        pass


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y
