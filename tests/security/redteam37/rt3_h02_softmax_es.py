# expect: correct
# honest: tutorial 02 fused softmax with Spanish docstrings/comments, num_warps heuristic
# checkpoint: c3a-softmax
"""Softmax fusionado: una pasada por fila.

Cada programa procesa una fila completa; se resta el máximo para evitar desbordes.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(salida_ptr, entrada_ptr, paso_entrada, paso_salida, n_filas, n_columnas,
                   BLOQUE: tl.constexpr, num_etapas: tl.constexpr):
    """Núcleo: cada programa recorre varias filas con un paso de la rejilla."""
    inicio = tl.program_id(0)
    paso = tl.num_programs(0)
    for fila in tl.range(inicio, n_filas, paso, num_stages=num_etapas):
        ptr_fila = entrada_ptr + fila * paso_entrada
        columnas = tl.arange(0, BLOQUE)
        mascara = columnas < n_columnas
        fila_x = tl.load(ptr_fila + columnas, mask=mascara, other=-float('inf')).to(tl.float32)
        # restar el máximo: estabilidad numérica
        menos_max = fila_x - tl.max(fila_x, axis=0)
        numerador = tl.exp(menos_max)
        denominador = tl.sum(numerador, axis=0)
        resultado = numerador / denominador
        tl.store(salida_ptr + fila * paso_salida + columnas,
                 resultado.to(salida_ptr.dtype.element_ty), mask=mascara)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    """Devuelve softmax(x, dim=-1). «x» es 2-D."""
    n_filas, n_columnas = x.shape
    bloque = triton.next_power_of_2(n_columnas)
    num_warps = 8
    if bloque <= 1024:
        num_warps = 4  # filas cortas: menos hilos
    y = torch.empty_like(x)
    programas = min(n_filas, 64)
    softmax_kernel[(programas, 1, 1)](y, x, x.stride(0), y.stride(0), n_filas, n_columnas,
                                      BLOQUE=bloque, num_etapas=2, num_warps=num_warps)
    return y
