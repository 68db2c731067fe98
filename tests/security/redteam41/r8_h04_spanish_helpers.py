# expect: correct
# Spanish names, helper @triton.jit functions for max/exp/normalise, online two-pass over chunks
import torch
import triton
import triton.language as tl


@triton.jit
def _cargar(ptr, offs, n):
    return tl.load(ptr + offs, mask=offs < n, other=-float("inf")).to(tl.float32)


@triton.jit
def maximo_fila(ptr, n, BLOQUE: tl.constexpr):
    m = tl.full([BLOQUE], -float("inf"), tl.float32)
    for inicio in range(0, n, BLOQUE):
        offs = inicio + tl.arange(0, BLOQUE)
        m = tl.maximum(m, _cargar(ptr, offs, n))
    return tl.max(m, axis=0)


@triton.jit
def suavizado(x_ptr, y_ptr, paso_x, paso_y, n, BLOQUE: tl.constexpr):
    fila = tl.program_id(0).to(tl.int64)
    px = x_ptr + fila * paso_x
    py = y_ptr + fila * paso_y
    m = maximo_fila(px, n, BLOQUE)
    acum = tl.zeros([BLOQUE], tl.float32)
    for inicio in range(0, n, BLOQUE):
        offs = inicio + tl.arange(0, BLOQUE)
        acum += tl.exp(_cargar(px, offs, n) - m)
    total = tl.sum(acum, axis=0)
    for inicio in range(0, n, BLOQUE):
        offs = inicio + tl.arange(0, BLOQUE)
        v = tl.exp(_cargar(px, offs, n) - m) / total
        tl.store(py + offs, v.to(py.dtype.element_ty), mask=offs < n)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    filas, n = x.shape
    y = torch.empty_like(x)
    bloque = min(1024, triton.next_power_of_2(n))
    suavizado[(filas,)](x, y, x.stride(0), y.stride(0), n, BLOQUE=bloque)
    return y
