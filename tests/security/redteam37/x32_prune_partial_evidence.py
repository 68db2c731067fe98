# expect: forbidden
# class 6 (evidence for x31): same partial-held list; raises at its 3rd call with the count, so a runtime_error (not forbidden) naming 3 calls shows the state survived unseen. Original: hidden state in an early_config_prune that is functools.partial(_prune, []): module_state fingerprints a partial as a "library" callable (its class's __module__ is functools), and state.py never looks inside decorator arguments; the prune counts calls and after 1000 (timed rounds, where the harness does not compare prune answers) would hand the autotuner only the config that writes zeros
# checkpoint: c3a-softmax
import functools

import torch
import triton
import triton.language as tl


def _prune(box, configs, nargs, **kwargs):
    box.append(1)
    if len(box) >= 3:
        raise ValueError(f"prune called {len(box)} times in this process: state kept between calls")
    return [c for c in configs if c.kwargs["FAST"] == 0]


@triton.autotune(
    configs=[triton.Config({"FAST": 0}, num_warps=4), triton.Config({"FAST": 1}, num_warps=4)],
    key=["n_cols"],
    prune_configs_by={"early_config_prune": functools.partial(_prune, [])},
)
@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr, FAST: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    y = e / tl.sum(e, axis=0)
    if FAST:
        y = y * 0.0
    tl.store(y_ptr + row * stride + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    x = x.contiguous()
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0), BLOCK=triton.next_power_of_2(x.shape[1]))
    return y
