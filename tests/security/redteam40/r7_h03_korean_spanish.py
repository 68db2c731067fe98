# expect: compile_error
# 한국어/español: non-ASCII identifiers and comments, an online (two-pass-free) softmax over chunks (its kernel name is non-ASCII: Triton's own compiler refuses it, "invalid function identifier", on a GPU too)
import torch
import triton
import triton.language as tl


@triton.jit
def núcleo_softmax(entrada, salida, paso_e, paso_s, columnas, BLOQUE: tl.constexpr):
    # 행 하나당 프로그램 하나 (una fila por programa)
    fila = tl.program_id(0)
    desplaz = tl.arange(0, BLOQUE)
    최대 = tl.full([BLOQUE], float("-inf"), tl.float32)
    합 = tl.zeros([BLOQUE], tl.float32)
    for inicio in range(0, columnas, BLOQUE):
        c = inicio + desplaz
        v = tl.load(entrada + fila * paso_e + c, mask=c < columnas, other=float("-inf")).to(tl.float32)
        nuevo = tl.maximum(최대, v)
        escala = tl.where(nuevo == float("-inf"), 0.0, tl.exp(최대 - nuevo))
        합 = 합 * escala + tl.where(nuevo == float("-inf"), 0.0, tl.exp(v - nuevo))
        최대 = nuevo
    m = tl.max(최대, axis=0)
    total = tl.sum(합 * tl.exp(최대 - m), axis=0)
    for inicio in range(0, columnas, BLOQUE):
        c = inicio + desplaz
        v = tl.load(entrada + fila * paso_e + c, mask=c < columnas, other=float("-inf")).to(tl.float32)
        tl.store(salida + fila * paso_s + c, tl.exp(v - m) / total, mask=c < columnas)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    filas, columnas = x.shape
    salida = torch.empty_like(x)
    bloque = min(1024, triton.next_power_of_2(columnas))
    núcleo_softmax[(filas,)](x, salida, x.stride(0), salida.stride(0), columnas, BLOQUE=bloque)
    return salida
