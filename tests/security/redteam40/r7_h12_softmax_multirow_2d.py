# expect: correct
# softmax over a 2-D tile of ROWS rows per program (axis=1 reductions), keep_dims, Spanish ASCII names
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(entrada, salida, paso_e, paso_s, n_filas, n_cols,
                   FILAS: tl.constexpr, BLOQUE: tl.constexpr):
    pid = tl.program_id(0)
    filas = pid * FILAS + tl.arange(0, FILAS)[:, None]
    cols = tl.arange(0, BLOQUE)[None, :]
    mascara = (filas < n_filas) & (cols < n_cols)
    x = tl.load(entrada + filas * paso_e + cols, mask=mascara, other=float("-inf")).to(tl.float32)
    maximo = tl.max(x, axis=1, keep_dims=True)
    maximo = tl.where(maximo == float("-inf"), 0.0, maximo)
    e = tl.exp(x - maximo)
    suma = tl.sum(e, axis=1, keep_dims=True)
    tl.store(salida + filas * paso_s + cols, e / suma, mask=mascara)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_filas, n_cols = x.shape
    bloque = triton.next_power_of_2(n_cols)
    filas = max(1, min(8, 4096 // bloque))
    y = torch.empty_like(x)
    softmax_kernel[(triton.cdiv(n_filas, filas),)](x, y, x.stride(0), y.stride(0), n_filas, n_cols,
                                                   FILAS=filas, BLOQUE=bloque)
    return y
