# expect: correct
# red team 5: frozen dataclass launch config, Spanish docstrings, type annotations, grid lambda over meta
# checkpoint: c3a-vector-add
import dataclasses

import torch
import triton
import triton.language as tl


@dataclasses.dataclass(frozen=True)
class Lanzamiento:
    bloque: int = 1024
    warps: int = 4


CFG = Lanzamiento()


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements: int, BLOCK_SIZE: tl.constexpr):
    """Suma elemento a elemento; la máscara cubre el último bloque."""
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def vector_add_triton(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Devuelve x + y calculado en el kernel."""
    out = torch.empty_like(x)
    n_elements = out.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    add_kernel[grid](x, y, out, n_elements, BLOCK_SIZE=CFG.bloque, num_warps=CFG.warps)
    return out
