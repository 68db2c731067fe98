# expect: correct
# honest: old GNU style: form feeds between sections, backslash continuations, a main-block self-test at the end
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * y_row_stride + cols, (num / tl.sum(num, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = \
        x.shape
    y = torch.empty_like(x)
    block = triton.next_power_of_2(n_cols) \
        if n_cols > 1 else 1
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), \
                              n_cols, BLOCK=block)
    return y


if __name__ == "__main__":
    t = torch.randn(3, 50)
    print(softmax_triton(t).sum(-1))
