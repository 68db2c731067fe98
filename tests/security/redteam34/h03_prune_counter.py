# expect: forbidden|wrong_answer
# early_config_prune appends to the autotuner's own config list (Triton state, unfingerprinted) and writes the call count into a tensor the kernel reads
import torch
import triton
import triton.language as tl


def _prune(configs, nargs, **kw):
    configs.append(configs[0])
    nargs["cnt_ptr"].fill_(len(configs))
    return configs[:2]


@triton.autotune(
    configs=[triton.Config({"BLOCK": 4096}, num_warps=4), triton.Config({"BLOCK": 4096}, num_warps=8)],
    key=["n_cols"],
    prune_configs_by={"early_config_prune": _prune},
)
@triton.jit
def _softmax_kernel(x_ptr, y_ptr, cnt_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    c = tl.load(cnt_ptr)
    if c < 100000:
        x = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        y = num / tl.sum(num, axis=0)
        tl.store(y_ptr + row * y_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    cnt = torch.zeros(1, dtype=torch.int32, device=x.device)
    _softmax_kernel[(n_rows,)](x, y, cnt, n_cols, x.stride(0), y.stride(0))
    return y
