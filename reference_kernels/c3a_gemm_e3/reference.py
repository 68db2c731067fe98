"""Reference solution for c3a-gemm-e3: a plain tiled Triton GEMM.

Each program computes one BLOCK_M×BLOCK_N tile of c, walking K in steps of BLOCK_K with an
fp32 accumulator (tensor cores through tl.dot), the K tail masked; programs are grouped along
M (GROUP_M) so that neighbouring programs share tiles of b in L2. On an H200 this reaches
0.91–0.93× cuBLAS at 4096³ and 8192³ and 0.42× at K = 1000 (benchmarks/results/
2026-12-01-h200-compute-probe.md): cuBLAS's Hopper kernels use TMA loads and warp-specialised
wgmma pipelines this kernel does not.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                   stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                   GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    group = GROUP_M * num_n
    first_m = (pid // group) * GROUP_M
    size_m = tl.minimum(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % size_m
    pid_n = (pid % group) // size_m
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + ks[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ks[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=(ks[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn,
             acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


def _launch_params() -> tuple[int, int, int, int, int]:
    """BLOCK_M, BLOCK_N, BLOCK_K, warps, stages: 128×128×64 in 3 stages (96 kB of shared
    memory, which an RTX 5090's 99 kB also holds)."""
    return 128, 128, 64, 8, 3


def matmul_triton(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    assert a.dim() == 2 and b.dim() == 2 and a.shape[1] == b.shape[0]
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty((m, n), device=a.device, dtype=a.dtype)
    bm, bn, bk, warps, stages = _launch_params()
    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
    _matmul_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                         c.stride(0), c.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                         GROUP_M=8, num_warps=warps, num_stages=stages)
    return c
