"""The two compute-bound checkpoints (issue 23), c3a-attention and c3a-gemm-e3, validated the
way an admin's folder is before it opens (grader.validation: the reference correct, every
known-bad solution its verdict, the starter not accepted), under the interpreter; each
compute-specific mistake caught by the case written for it; and their kernels compiled by
Triton's real compiler for both target GPUs with the GPU shapes' launch parameters."""

from __future__ import annotations

import json

import pytest

from grader import checkpoints
from grader.options import GradeOptions
from grader.validation import validate
from tests.conftest import ROOT
from tests.grader.interpreted import run_script

COMPUTE = ("c3a-attention", "c3a-gemm-e3")


@pytest.mark.slow
@pytest.mark.parametrize("cid", COMPUTE)
def test_compute_checkpoint_validates_under_the_interpreter(cid: str) -> None:
    checks = validate(checkpoints.get(cid), GradeOptions(device="cpu"), workers=1)
    assert all(c.ok for c in checks), [(c.name, c.expected, c.got, c.reason) for c in checks]
    names = {c.name for c in checks}
    wanted = {
        "c3a-attention": {
            "no_running_max_rescale",
            "no_causal_diag_mask",
            "kv_tail_unmasked",
            "fp16_accumulation",
        },
        "c3a-gemm-e3": {"k_tail_unmasked", "fp16_accumulation"},
    }[cid]
    assert {f"solutions/wrong/{n}.py" for n in wanted} <= names


# each compute-specific mistake, and the cases that must catch it (the rest may pass it)
CAUGHT_BY = {
    ("c3a-attention", "no_causal_diag_mask"): {"odd-seq-causal", "d64-causal", "bf16-causal"},
    ("c3a-attention", "kv_tail_unmasked"): {"odd-seq", "d128", "sharp-scores"},
    ("c3a-attention", "fp16_accumulation"): {"offset-values-long"},
    ("c3a-attention", "no_running_max_rescale"): {"sharp-scores", "d64-causal"},
    ("c3a-gemm-e3", "fp16_accumulation"): {"long-k-offset"},
}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("cid", "wrong"), sorted(CAUGHT_BY), ids=[f"{c}:{w}" for c, w in sorted(CAUGHT_BY)]
)
def test_each_compute_mistake_is_caught_by_its_case(cid: str, wrong: str, grade_source) -> None:  # type: ignore[no-untyped-def]
    ck = checkpoints.get(cid)
    source = (ck.folder / "solutions" / "wrong" / f"{wrong}.py").read_text()
    result = grade_source(source, cid)
    assert result.verdict.value == "wrong_answer", result.messages
    failed = {c.name for c in result.cases if not c.passed}
    assert CAUGHT_BY[(cid, wrong)] <= failed, (failed, result.messages)


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

att, mm = load("c3a_attention"), load("c3a_gemm_e3")
jobs = []
for dt in ("*fp16", "*bf16"):
    bm, bn, bk, warps, stages = mm._launch_params()
    sig = dict(a_ptr=dt, b_ptr=dt, c_ptr=dt, M="i32", N="i32", K="i32", stride_am="i32",
               stride_ak="constexpr", stride_bk="i32", stride_bn="constexpr", stride_cm="i32",
               stride_cn="constexpr", BLOCK_M="constexpr", BLOCK_N="constexpr",
               BLOCK_K="constexpr", GROUP_M="constexpr")
    const = dict(stride_ak=1, stride_bn=1, stride_cn=1, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                 GROUP_M=8)
    jobs.append((f"gemm {dt}", mm._matmul_kernel, sig, const, warps, stages))
    for dim in (64, 128):
        for causal in (False, True):
            bm, bn, warps, stages = att._launch_params(dim)
            names = ["sqb", "sqh", "sqm", "sqd", "skb", "skh", "skn", "skd", "svb", "svh",
                     "svn", "svd", "sob", "soh", "som", "sod"]
            sig = dict(q_ptr=dt, k_ptr=dt, v_ptr=dt, o_ptr=dt, scale="fp32", n_ctx="i32",
                       heads="i32", **{n: "constexpr" if n.endswith("d") else "i32" for n in names},
                       HEAD_DIM="constexpr", BLOCK_M="constexpr", BLOCK_N="constexpr",
                       CAUSAL="constexpr")
            const = {n: 1 for n in names if n.endswith("d")}
            const.update(HEAD_DIM=dim, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal)
            jobs.append((f"attention {dt} d{dim} causal={causal}", att._attention_kernel, sig,
                         const, warps, stages))
out = {}
for cap in json.loads(sys.argv[1]):
    for name, fn, sig, const, warps, stages in jobs:
        src = ASTSource(fn=fn, signature=sig, constexprs=const)
        try:
            k = triton.compile(src, target=GPUTarget("cuda", cap, 32),
                               options={"num_warps": warps, "num_stages": stages})
            out[f"sm_{cap} {name}"] = "ok" if k.asm.get("cubin") else "no cubin"
        except Exception as exc:
            out[f"sm_{cap} {name}"] = f"{type(exc).__name__}: {str(exc)[-600:]}"
print(json.dumps(out))
"""


@pytest.mark.slow
def test_compute_references_compile_for_both_target_gpus() -> None:
    for cid in COMPUTE:
        assert checkpoints.get(cid).definition.target_gpus == ["rtx5090", "h200"]
    results = run_script(SCRIPT, json.dumps([90, 120]), interpret=False, timeout=900, cwd=ROOT)
    assert len(results) == 2 * 10, results
    failed = {k: v for k, v in results.items() if v != "ok"}
    assert not failed, failed
