# expect: correct
# do_not_specialize on n_cols and strides, column stride honoured (works on transposed views), int64 offsets
import torch
import triton
import triton.language as tl


@triton.jit(do_not_specialize=["n_cols", "sxc", "syc"])
def softmax_kernel(x_ptr, y_ptr, sxr, sxc, syr, syc, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * sxr + cols * sxc, mask=m, other=float("-inf")).to(tl.float32)
    z = x - tl.max(x, 0)
    num = tl.exp(z)
    tl.store(y_ptr + row * syr + cols * syc, (num / tl.sum(num, 0)).to(y_ptr.dtype.element_ty), mask=m)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    xt = x.t().contiguous().t()  # a column-major view of the same values
    r, c = xt.shape
    y = torch.empty_like(x)
    softmax_kernel[(r,)](xt, y, xt.stride(0), xt.stride(1), y.stride(0), y.stride(1), c,
                         BLOCK=triton.next_power_of_2(c))
    return y
