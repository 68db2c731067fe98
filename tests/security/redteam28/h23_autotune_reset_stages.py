# expect: correct
# honest: autotune with reset_to_zero / restore_value, num_stages and num_ctas in the configs, a dtype in the key, and jit options (do_not_specialize, debug)
import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({}, num_warps=2, num_stages=1),
        triton.Config({}, num_warps=4, num_stages=2, num_ctas=1),
    ],
    key=["n_cols", "DTYPE_KEY"],
    reset_to_zero=["y_ptr"],
    restore_value=["x_ptr"],
)
@triton.jit(do_not_specialize=["x_row_stride", "y_row_stride"], debug=False)
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, DTYPE_KEY, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * y_row_stride + cols, (num / tl.sum(num, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, x.element_size(),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y
