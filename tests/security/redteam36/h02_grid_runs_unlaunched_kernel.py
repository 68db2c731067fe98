# expect: runtime_error|forbidden|compile_error|wrong_answer
# The grid function is host code that runs inside the launch (guards._LAUNCHING > 0), so a
# @triton.jit function handed to a host helper may be *called* there (guards._device_call lets
# it through). That kernel is never "launched": the child never reports its specialization and
# the compile check never compiles it. It reads a plain module-level float (SCALE), which
# Triton's compiler refuses ("Cannot access global variable"), yet the grade is decided.
import torch
import triton
import triton.language as tl

SCALE = 1.0


@triton.jit
def hidden_softmax(x_ptr, y_ptr, n_cols, N_ROWS: tl.constexpr, BLOCK: tl.constexpr):
    for row in range(N_ROWS):
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        v = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf")) * SCALE
        v = v - tl.max(v, axis=0)
        e = tl.exp(v)
        tl.store(y_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def front_kernel(x_ptr, y_ptr, n_cols, N_ROWS: tl.constexpr, BLOCK: tl.constexpr):
    pass


def run_in_grid(fn, meta):
    fn(meta["x_ptr"], meta["y_ptr"], meta["n_cols"], meta["N_ROWS"], meta["BLOCK"])
    return (1,)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    grid = lambda meta: run_in_grid(hidden_softmax, meta)
    front_kernel[grid](x, y, n_cols, N_ROWS=n_rows, BLOCK=triton.next_power_of_2(n_cols))
    return y
