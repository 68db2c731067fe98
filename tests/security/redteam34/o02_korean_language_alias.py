# expect: correct
# honest: Korean comments and identifiers, `import triton.language as language`
import torch
import triton
import triton.language as language


@triton.jit
def 소프트맥스_커널(입력, 출력, 행_간격, 열_수, 블록: language.constexpr):
    행 = language.program_id(0)  # 프로그램 하나가 한 행을 처리
    열 = language.arange(0, 블록)
    마스크 = 열 < 열_수
    값 = language.load(입력 + 행 * 행_간격 + 열, mask=마스크, other=-float("inf"))
    값 = 값.to(language.float32)
    값 = 값 - language.max(값, axis=0)  # 최댓값을 빼서 오버플로 방지
    분자 = language.exp(값)
    분모 = language.sum(분자, axis=0)
    language.store(출력 + 행 * 행_간격 + 열, (분자 / 분모).to(출력.dtype.element_ty), mask=마스크)


def softmax_triton(x):
    x = x.contiguous()
    행_수, 열_수 = x.shape
    결과 = torch.empty_like(x)
    소프트맥스_커널[(행_수,)](x, 결과, x.stride(0), 열_수, 블록=triton.next_power_of_2(열_수))
    return 결과
