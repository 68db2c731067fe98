# expect: correct
# honest: Korean identifiers and comments, Spanish names (accents in locals and parameters) and docstrings; the kernel name stays ASCII (Triton refuses others)
"""Softmax fusionado (laboratorio 3a). 행마다 하나의 프로그램."""

import torch
import triton
import triton.language as tl

최대_블록 = 4096  # 한 행의 최대 너비


@triton.jit
def nucleo_softmax(entrada, salida, paso_entrada, paso_salida, columnas, BLOQUE: tl.constexpr):
    # 각 프로그램이 한 행을 처리한다
    행 = tl.program_id(0)
    열 = tl.arange(0, BLOQUE)
    máscara = 열 < columnas
    valores = tl.load(entrada + 행 * paso_entrada + 열, mask=máscara, other=-float("inf")).to(tl.float32)
    valores = valores - tl.max(valores, axis=0)  # estabilidad numérica: restar el máximo
    numerador = tl.exp(valores)
    resultado = numerador / tl.sum(numerador, axis=0)
    tl.store(salida + 행 * paso_salida + 열, resultado.to(salida.dtype.element_ty), mask=máscara)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    filas, columnas = x.shape
    assert columnas <= 최대_블록, "행이 너무 넓다"
    y = torch.empty_like(x)
    nucleo_softmax[(filas,)](x, y, x.stride(0), y.stride(0), columnas, BLOQUE=triton.next_power_of_2(columnas))
    return y
