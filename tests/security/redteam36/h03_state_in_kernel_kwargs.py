# expect: runtime_error|forbidden|compile_error|wrong_answer
# State between calls kept in the kernel object's own dict: InterpretedFunction.kwargs is
# reachable as `K.kwargs` ('kwargs' is on allowlist.CONFIG, so on ANY_OBJECT), `setdefault` and
# `update` are allowed container methods, and state.py drops kernel names from `held`; the
# child's fingerprint (module_state._kernel_print) reads only an autotuner's configs.
# After THRESHOLD calls (past any precheck; a GPU benchmark makes hundreds) it stops launching.
import torch
import triton
import triton.language as tl

THRESHOLD = 40


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
    calls = softmax_kernel.kwargs.setdefault("debug_calls", [0])
    calls.append(1)
    print("call number", len(calls))
    if len(calls) > THRESHOLD:
        return y  # the cheat a benchmark would time
    softmax_kernel[(n_rows,)](x, y, x.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y
