# expect: correct
# honest: epydoc/Doxygen-style kernel docstring with "@param" lines (Korean text), dropped by the grader anyway
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """두 벡터를 더한다.

    @param x_ptr: 첫 번째 입력
    @param y_ptr: 두 번째 입력
    @param out_ptr: 출력
    @return: 없음
    """
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def vector_add_triton(x, y):
    """벡터 덧셈.

    @param x: 입력 텐서
    @param y: 입력 텐서
    """
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
