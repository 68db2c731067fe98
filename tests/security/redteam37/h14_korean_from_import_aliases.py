# expect: correct
# honest: 커널 함수 이름을 triton.language에서 직접 가져옴 (별칭 포함): from triton.language import load as cargar, store as guardar; 주석은 한국어
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl
from triton.language import arange, load as cargar, program_id, store as guardar


@triton.jit
def suma_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # 각 프로그램이 BLOCK개의 원소를 처리합니다
    offs = program_id(0) * BLOCK + arange(0, BLOCK)
    mask = offs < n
    guardar(out_ptr + offs, cargar(x_ptr + offs, mask=mask) + cargar(y_ptr + offs, mask=mask), mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    suma_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
