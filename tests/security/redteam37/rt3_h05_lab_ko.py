# expect: correct
# honest: course lab style with Korean comments, online softmax over column chunks
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

# 블록 크기 (열 방향)
CHUNK = tl.constexpr(256)


@triton.jit
def softmax_chunk_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride):
    # 각 프로그램은 한 행을 처리한다
    row = tl.program_id(0)
    cols = tl.arange(0, CHUNK)
    m = tl.full([CHUNK], float("-inf"), tl.float32)
    s = tl.zeros([CHUNK], tl.float32)
    # 1단계: 온라인 최대값과 합
    for start in range(0, n_cols, CHUNK):
        c = start + cols
        v = tl.load(x_ptr + row * x_stride + c, mask=c < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, v)
        s = s * tl.exp(tl.where(m_new == float("-inf"), 0.0, m - m_new)) + tl.where(v == float("-inf"), 0.0, tl.exp(v - m_new))
        m = m_new
    mx = tl.max(m, axis=0)
    total = tl.sum(s * tl.exp(tl.where(m == float("-inf"), float("-inf"), m - mx)), axis=0)
    # 2단계: 정규화 후 저장
    for start in range(0, n_cols, CHUNK):
        c = start + cols
        v = tl.load(x_ptr + row * x_stride + c, mask=c < n_cols, other=float("-inf")).to(tl.float32)
        out = tl.exp(v - mx) / total
        tl.store(y_ptr + row * y_stride + c, out.to(y_ptr.dtype.element_ty), mask=c < n_cols)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    """행 방향 소프트맥스"""
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_chunk_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0), num_warps=4)
    return y
