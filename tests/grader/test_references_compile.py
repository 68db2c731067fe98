"""Every reference kernel compiles with Triton's real compiler (to PTX and, through the ptxas
that ships with Triton, to a cubin) for each of its checkpoint's target GPUs, here, without a
GPU. The CPU tests run kernels under the interpreter, which accepts code the compiler refuses:
a cross-entropy reference that read a module-level float from inside a kernel passed every CPU
test and failed to compile on the H200 (2026-11-30).

Each kernel is compiled with the constexprs and warps its entry's `_launch_params` choose for
long and short rows, and with argument types the checkpoints use."""

from __future__ import annotations

import json

from grader import checkpoints
from grader.gpu import gpus
from tests.conftest import ROOT
from tests.grader.interpreted import run_script

SCRIPT = r"""
import importlib.util, json, sys
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

def load(cid):
    path = f"reference_kernels/{cid}/reference.py"
    spec = importlib.util.spec_from_file_location(cid, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod

ce, sm, rms, add = (load(c) for c in
                    ("c3a_cross_entropy", "c3a_softmax", "c3a_rmsnorm", "c3a_vector_add"))
CE = dict(x_ptr="*bf16", t_ptr="*i64", loss_ptr="*fp32", n_rows="i32", n_cols="i32",
          x_stride="i32", ROWS="constexpr", BLOCK="constexpr")
SM = dict(x_ptr="*fp32", y_ptr="*fp32", n_rows="i32", n_cols="i32", x_stride="i32",
          y_stride="i32", ROWS="constexpr", BLOCK="constexpr")
RMS = dict(x_ptr="*bf16", w_ptr="*bf16", y_ptr="*bf16", n_rows="i32", n_cols="i32",
           x_stride="i32", y_stride="i32", eps="fp32", ROWS="constexpr", BLOCK="constexpr",
           ONE_PASS="constexpr")
jobs = []  # (name, kernel, signature, constexprs, num_warps)
# long rows, short rows, a vocabulary of 1 (BLOCK=1); every logits dtype
for n_cols, dtype in ((128256, "*bf16"), (32000, "*fp32"), (3001, "*fp16"), (33, "*fp32"),
                      (1, "*bf16")):
    block, rows, warps = ce._launch_params(n_cols)
    jobs.append((f"ce rows {n_cols}", ce._row_loss_kernel, {**CE, "x_ptr": dtype},
                 {"ROWS": rows, "BLOCK": block}, warps))
jobs.append(("ce mean", ce._mean_kernel, dict(loss_ptr="*fp32", out_ptr="*fp32", n="i32",
             BLOCK="constexpr"), {"BLOCK": 1024}, 4))
for n_cols in (8192, 600):
    block, rows, warps = sm._launch_params(n_cols)
    jobs.append((f"softmax {n_cols}", sm._softmax_kernel, SM, {"ROWS": rows, "BLOCK": block},
                 warps))
for n_cols in (4096, 65536, 700):
    block, rows, warps, one = rms._launch_params(n_cols)
    jobs.append((f"rmsnorm {n_cols}", rms._rmsnorm_kernel, RMS,
                 {"ROWS": rows, "BLOCK": block, "ONE_PASS": one}, warps))
jobs.append(("vector add", add._add_kernel, dict(x_ptr="*fp32", y_ptr="*fp32",
             out_ptr="*fp32", n="i32", BLOCK="constexpr"), {"BLOCK": 1024}, 4))

out = {}
for cap in json.loads(sys.argv[1]):
    for name, fn, sig, const, warps in jobs:
        src = ASTSource(fn=fn, signature=sig, constexprs=const)
        try:
            k = triton.compile(src, target=GPUTarget("cuda", cap, 32),
                               options={"num_warps": warps})
            out[f"sm_{cap} {name}"] = "ok" if k.asm.get("cubin") else "no cubin"
        except Exception as exc:
            out[f"sm_{cap} {name}"] = f"{type(exc).__name__}: {str(exc)[-600:]}"
print(json.dumps(out))
"""


def test_every_reference_kernel_compiles_for_each_target_gpu() -> None:
    caps = sorted(
        {
            int(model.sm.removeprefix("sm_"))
            for cp in checkpoints.builtins().values()
            for model in gpus.TABLE
            if model.id in cp.definition.target_gpus
        }
    )
    assert caps == [90, 120]  # the course's RTX 5090 and our H200
    results = run_script(SCRIPT, json.dumps(caps), interpret=False, timeout=600, cwd=ROOT)
    assert len(results) == 2 * 12, results
    failed = {k: v for k, v in results.items() if v != "ok"}
    assert not failed, failed
