# expect: correct
# class: honest
# a kernel helper annotated with tl.constexpr default and a global BLOCK_MIN = tl.constexpr(16) (annotated, Triton refuses it on a GPU), x.T.contiguous().T layout round trip, torch.cuda.is_available()
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

BLOCK_MIN = tl.constexpr(16)
DEVICE = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, xs, ys, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, max(BLOCK, BLOCK_MIN))
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * ys + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=m)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    x = x.T.contiguous().T.contiguous()
    y = torch.empty_like(x, device=x.device)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0), y.stride(0),
                                  BLOCK=triton.next_power_of_2(x.shape[1]))
    return y
