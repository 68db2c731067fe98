# expect: runtime_error|forbidden|compile_error|wrong_answer
# (session's variant) a heuristic's table on the kernel object is edited from the entry: the
# first calls get the right block, later ones (past any precheck) a block that drops columns.
import torch
import triton
import triton.language as tl


@triton.heuristics({"BLOCK": lambda a: triton.next_power_of_2(a["n_cols"])})
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
    y = torch.empty_like(x)
    softmax_kernel.values["BLOCK"] = lambda a: triton.next_power_of_2(a["n_cols"]) // 2
    softmax_kernel[(x.shape[0],)](x, y, x.stride(0), x.shape[1])
    return y
