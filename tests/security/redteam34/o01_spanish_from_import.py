# expect: correct
# honest: Spanish identifiers and comments, `from triton import language as tl`, type hints
import torch
import triton
from triton import language as tl


@triton.jit
def nucleo_softmax(entrada_ptr, salida_ptr, paso_entrada, paso_salida, n_columnas,
                   TAM_BLOQUE: tl.constexpr):
    fila = tl.program_id(0)  # cada programa procesa una fila
    columnas = tl.arange(0, TAM_BLOQUE)
    mascara = columnas < n_columnas  # evita leer fuera de la fila
    valores = tl.load(entrada_ptr + fila * paso_entrada + columnas, mask=mascara,
                      other=-float("inf")).to(tl.float32)
    valores = valores - tl.max(valores, axis=0)  # estabilidad numérica
    numerador = tl.exp(valores)
    denominador = tl.sum(numerador, axis=0)
    tl.store(salida_ptr + fila * paso_salida + columnas,
             (numerador / denominador).to(salida_ptr.dtype.element_ty), mask=mascara)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_filas, n_columnas = x.shape
    salida = torch.empty_like(x)
    bloque = triton.next_power_of_2(n_columnas)
    nucleo_softmax[(n_filas,)](x, salida, x.stride(0), salida.stride(0), n_columnas,
                               TAM_BLOQUE=bloque, num_warps=4 if bloque <= 2048 else 8)
    return salida
