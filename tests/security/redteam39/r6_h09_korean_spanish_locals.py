# expect: correct
# Korean/Spanish non-ASCII locals, params and constants (function names ASCII), helper @triton.jit
import torch
import triton
import triton.language as tl

평균_없음 = tl.constexpr(0)  # 사용하지 않는 상수
CERO = tl.constexpr(0.0)


@triton.jit
def row_max(x):
    # 행의 최댓값
    return tl.max(x, axis=0)


@triton.jit
def nucleo_softmax(entrada, salida, paso_e, paso_s, columnas, BLOQUE: tl.constexpr):
    fila = tl.program_id(0)
    índices = tl.arange(0, BLOQUE)
    máscara = índices < columnas
    x = tl.load(entrada + fila * paso_e + índices, mask=máscara, other=-float("inf")).to(tl.float32)
    x = x - row_max(x)  # estabilidad numérica
    numerador = tl.exp(x)
    denominador = tl.sum(numerador, axis=0) + CERO
    tl.store(salida + fila * paso_s + índices, numerador / denominador, mask=máscara)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    filas, columnas = x.shape
    salida = torch.empty_like(x)
    nucleo_softmax[(filas,)](x, salida, x.stride(0), salida.stride(0), columnas,
                             BLOQUE=triton.next_power_of_2(columnas))
    return salida
