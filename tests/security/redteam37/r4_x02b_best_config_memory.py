# expect: correct|forbidden|wrong_answer
# red team 4 (class 6), correct since every autotuner's best_config is forgotten before every call (checked or timed), so the count it keeps never survives a call and each call computes honestly: (b: try/except AttributeError) one-call memory in K.best_config.kwargs (prune returns fresh Configs, so the one mutated is not in K.configs); wrong from the 3rd call
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


def fresh(configs, nargs, **kwargs):
    return [triton.Config(dict(c.kwargs), num_warps=c.num_warps) for c in configs]


@triton.autotune(
    configs=[triton.Config({"BLOCK_SIZE": 1024}, num_warps=4), triton.Config({"BLOCK_SIZE": 512}, num_warps=4)],
    key=["n_elements"],
    prune_configs_by={"early_config_prune": fresh},
)
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def vector_add_triton(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    try:
        prev = add_kernel.best_config
    except AttributeError:
        prev = None
    calls = 0 if prev is None else prev.kwargs.get("calls", 0)
    out = torch.empty_like(x)
    n_elements = out.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    add_kernel[grid](x, x if calls >= 3 else y, out, n_elements)
    cfg = add_kernel.best_config
    cfg.kwargs.update({"calls": calls + 1})
    return out
