# expect: correct|time_limit|forbidden
# class 7 (its answer is honest: what it attacks is the result's size, under 64 KiB whatever its verdict): result JSON blow-up: 6 autotuned no-op kernels x 64 configs whose kwargs keys are 280-char names (not kernel parameters: dropped from the launch and the specialization), so every config's label is ~1.8 KB and GradeResult.configs lists 64 of them
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({'P0_' + 'x' * 270 + str(i): 1}, num_warps=1) for i in range(64)], key=['n'])
@triton.jit
def noop0(p, n):
    pass


@triton.autotune(configs=[triton.Config({'P1_' + 'x' * 270 + str(i): 1}, num_warps=1) for i in range(64)], key=['n'])
@triton.jit
def noop1(p, n):
    pass


@triton.autotune(configs=[triton.Config({'P2_' + 'x' * 270 + str(i): 1}, num_warps=1) for i in range(64)], key=['n'])
@triton.jit
def noop2(p, n):
    pass


@triton.autotune(configs=[triton.Config({'P3_' + 'x' * 270 + str(i): 1}, num_warps=1) for i in range(64)], key=['n'])
@triton.jit
def noop3(p, n):
    pass


@triton.autotune(configs=[triton.Config({'P4_' + 'x' * 270 + str(i): 1}, num_warps=1) for i in range(64)], key=['n'])
@triton.jit
def noop4(p, n):
    pass


@triton.autotune(configs=[triton.Config({'P5_' + 'x' * 270 + str(i): 1}, num_warps=1) for i in range(64)], key=['n'])
@triton.jit
def noop5(p, n):
    pass


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    noop0[(1,)](out, n)
    noop1[(1,)](out, n)
    noop2[(1,)](out, n)
    noop3[(1,)](out, n)
    noop4[(1,)](out, n)
    noop5[(1,)](out, n)
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
