# expect: compile_error
# Korean and Spanish identifiers and comments, module tl.constexpr constant, helper @triton.jit (non-ASCII function names: Triton's own compiler refuses them, "invalid function identifier", on a GPU too)
import torch
import triton
import triton.language as tl

평균_없음 = tl.constexpr(0)  # 사용하지 않는 상수
CERO = tl.constexpr(0.0)


@triton.jit
def 최대값(x):
    # 행의 최댓값
    return tl.max(x, axis=0)


@triton.jit
def núcleo_softmax(entrada, salida, paso_e, paso_s, columnas, BLOQUE: tl.constexpr):
    fila = tl.program_id(0)
    índices = tl.arange(0, BLOQUE)
    máscara = índices < columnas
    x = tl.load(entrada + fila * paso_e + índices, mask=máscara, other=-float("inf")).to(tl.float32)
    x = x - 최대값(x)  # estabilidad numérica
    numerador = tl.exp(x)
    denominador = tl.sum(numerador, axis=0) + CERO
    tl.store(salida + fila * paso_s + índices, numerador / denominador, mask=máscara)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    filas, columnas = x.shape
    salida = torch.empty_like(x)
    núcleo_softmax[(filas,)](x, salida, x.stride(0), salida.stride(0), columnas,
                             BLOQUE=triton.next_power_of_2(columnas))
    return salida
