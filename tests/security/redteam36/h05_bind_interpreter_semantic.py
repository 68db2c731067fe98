# expect: runtime_error|forbidden|compile_error|wrong_answer
# Binds `interpreter_semantic` (the global the interpreter's ASTTransformer writes into every
# kernel assignment: `x = interpreter_semantic.to_tensor(v, False)`) and `_InterpreterComparison`
# by top-level imports, which identity._filled_in_names allows ("bound at module level only by a
# top-level import"). The interpreter then runs every kernel assignment through the file's object
# instead of its own: not the text the grader checked.
import torch
import triton
import triton.language as tl
from triton import language as interpreter_semantic
from functools import partial as _InterpreterComparison


@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    tl.store(y_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y
