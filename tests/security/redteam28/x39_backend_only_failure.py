# expect: compile_error|forbidden|runtime_error
# class 5: only each kernel's first specialization is compiled to a cubin, the rest see the front end only: a decoy WIDE=False launch comes first, and the WIDE=True specialization holds PTX that only ptxas refuses
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK: tl.constexpr, WIDE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    if WIDE:
        if n_cols < 0:  # never true: the interpreter never reaches the asm; the GPU compiler must build it
            x = tl.inline_asm_elementwise("this is not ptx $0, $1;", "=r,r", [x], dtype=tl.float32,
                                          is_pure=True, pack=1)
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * y_row_stride + cols, (num / tl.sum(num, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    # the decoy: the same kernel, WIDE=False, on nothing (n_cols=0): always the first specialization
    softmax_kernel[(1,)](x, y, x.stride(0), y.stride(0), 0, BLOCK=16, WIDE=False)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols),
                              WIDE=n_cols > 64)
    return y
