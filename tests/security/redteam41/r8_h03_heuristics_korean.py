# expect: correct
# heuristics-chosen block and num_warps, Korean comments, parameter and local names (kernel name ASCII)
import torch
import triton
import triton.language as tl


# 블록 크기는 열 수의 다음 2의 거듭제곱
@triton.heuristics({"블록": lambda args: triton.next_power_of_2(args["열수"])})
@triton.jit
def softmax_kr(입력, 출력, 입력간격, 출력간격, 열수, 블록: tl.constexpr):
    행 = tl.program_id(0)
    열 = tl.arange(0, 블록)
    마스크 = 열 < 열수
    값 = tl.load(입력 + 행 * 입력간격 + 열, mask=마스크, other=-float("inf")).to(tl.float32)
    값 = 값 - tl.max(값, axis=0)
    지수 = tl.exp(값)
    합 = tl.sum(지수, axis=0)
    tl.store(출력 + 행 * 출력간격 + 열, (지수 / 합).to(출력.dtype.element_ty), mask=마스크)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    행수, 열수 = x.shape
    y = torch.empty_like(x)
    워프 = 4 if 열수 <= 1024 else 8
    softmax_kr[(행수,)](x, y, x.stride(0), y.stride(0), 열수, num_warps=워프)
    return y
