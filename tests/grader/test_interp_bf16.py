"""bf16 under the Triton interpreter (grader/sandbox/harness/interp_bf16.py): the interpreter
keeps bf16 as uint16 bit patterns and computes on the integers; the harness makes it compute
bf16 as a GPU does (fp32, rounded to nearest even). Kernels run in a fresh process under the
interpreter and are compared with torch's CPU bf16 (which computes in fp32 and rounds: a GPU's
result within one ulp); then honest bf16 submissions, with no casts to fp32, are graded end to
end."""

from __future__ import annotations

import pytest

from grader import Verdict, pipeline
from grader.sandbox.harness import interp_bf16
from tests.conftest import GradeFn
from tests.grader.interpreted import run_interpreted, run_script

OPS = (
    """
import json, sys
sys.path.insert(0, "grader/sandbox")
from harness import interp_bf16
assert interp_bf16.install()
import torch, triton, triton.language as tl
"""
    + r"""
BF = torch.bfloat16

def ordered(t):
    i = t.contiguous().view(torch.int16).to(torch.int32)
    return torch.where(i < 0, -(i & 0x7FFF), i)

def ulps(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return f"dtype/shape {got.dtype}{tuple(got.shape)} vs {want.dtype}{tuple(want.shape)}"
    if want.dtype != BF:
        g, w = got.double(), want.double()
        bad = ~((g == w) | (g.isnan() & w.isnan()) | ((g - w).abs() <= 1e-5 * w.abs() + 1e-6))
        return int(bad.sum())
    nan_g, nan_w = got.isnan(), want.isnan()
    if not torch.equal(nan_g, nan_w):
        return f"NaN mismatch ({int(nan_g.sum())} vs {int(nan_w.sum())})"
    d = (ordered(got) - ordered(want)).abs()[~nan_w]
    return int(d.max()) if d.numel() else 0

N = 1000
BLOCK = 1024
g = torch.Generator().manual_seed(0)
x = (torch.randn(N, generator=g) * 3).to(BF)
y = (torch.randn(N, generator=g) * 3).to(BF)
y[::7] = x[::7]  # some equal pairs
z = torch.randn(N, generator=g).to(BF)
f = torch.randn(N, generator=g)
x[5], x[6], x[7] = float("inf"), float("-inf"), float("nan")

@triton.jit
def binop(x_ptr, y_ptr, out_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x_ptr + offs, mask=m)
    b = tl.load(y_ptr + offs, mask=m)
    if OP == "add":
        r = a + b
    elif OP == "sub":
        r = a - b
    elif OP == "mul":
        r = a * b
    elif OP == "div":
        r = a / b
    elif OP == "max":
        r = tl.maximum(a, b)
    elif OP == "min":
        r = tl.minimum(a, b)
    elif OP == "where":
        r = tl.where(a > b, a, b)
    elif OP == "where0":
        r = tl.where(a < 0, 0.0, a)
    elif OP == "lt":
        r = a < b
    elif OP == "le":
        r = a <= b
    elif OP == "eq":
        r = a == b
    elif OP == "neg":
        r = -a
    elif OP == "abs":
        r = tl.abs(a)
    elif OP == "scal2":
        r = a * 2.0
    elif OP == "scal01":
        r = a + 0.1
    elif OP == "exp32":
        r = tl.exp(a.to(tl.float32)).to(tl.bfloat16)
    elif OP == "exp_sub":
        r = tl.exp((a - b).to(tl.float32))
    elif OP == "roundtrip":
        r = (a.to(tl.float32) * 3.0).to(tl.bfloat16)
    elif OP == "full":
        r = a + tl.full((BLOCK,), 0.1, dtype=tl.bfloat16)
    elif OP == "fma":
        r = a * b + a
    elif OP == "clamp":
        r = tl.clamp(a, -1.0, 2.0)
    elif OP == "to_int":
        r = a.to(tl.int32)
    elif OP == "from_int":
        r = (offs - 500).to(tl.bfloat16)
    elif OP == "to_f16":
        r = a.to(tl.float16)
    tl.store(out_ptr + offs, r, mask=m)

@triton.jit
def mixed(x_ptr, f_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(f_ptr + offs, mask=m), mask=m)

@triton.jit
def masked_other(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x_ptr + offs, mask=offs < n, other=-float("inf"))
    tl.store(out_ptr + offs, a)

@triton.jit
def reduce_rows(x_ptr, out_ptr, n_cols, OP: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    if OP == "max":
        a = tl.load(x_ptr + row * n_cols + offs, mask=m, other=-float("inf"))
        r = tl.max(a, axis=0)
    elif OP == "min":
        a = tl.load(x_ptr + row * n_cols + offs, mask=m, other=float("inf"))
        r = tl.min(a, axis=0)
    elif OP == "argmax":
        a = tl.load(x_ptr + row * n_cols + offs, mask=m, other=-float("inf"))
        r = tl.argmax(a, axis=0)
    elif OP == "cumsum":
        a = tl.load(x_ptr + row * n_cols + offs, mask=m, other=0.0)
        r = tl.cumsum(a, axis=0)
    else:
        a = tl.load(x_ptr + row * n_cols + offs, mask=m, other=0.0)
        r = tl.sum(a, axis=0)
    if OP == "cumsum":
        tl.store(out_ptr + row * n_cols + offs, r, mask=m)
    else:
        tl.store(out_ptr + row, r)

@triton.jit
def softmax_bf16(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    a = tl.load(x_ptr + row * n_cols + offs, mask=m, other=-float("inf"))
    a = a - tl.max(a, axis=0)
    e = tl.exp(a.to(tl.float32))
    tl.store(out_ptr + row * n_cols + offs, e / tl.sum(e, axis=0), mask=m)

@triton.jit
def dot_bf16(a_ptr, b_ptr, out_ptr):
    i = tl.arange(0, 16)
    a = tl.load(a_ptr + i[:, None] * 16 + i[None, :])
    b = tl.load(b_ptr + i[:, None] * 16 + i[None, :])
    tl.store(out_ptr + i[:, None] * 16 + i[None, :], tl.dot(a, b))

@triton.jit
def exp_direct(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.exp(tl.load(x_ptr + offs, mask=offs < n)), mask=offs < n)

def run(name, fn):
    try:
        got, want = fn()
        res[name] = ulps(got, want)
    except Exception as e:
        res[name] = "error: " + repr(e)[:150]

res = {}
xf, yf = x.float(), y.float()
ref = {
    "add": lambda: x + y, "sub": lambda: x - y, "mul": lambda: x * y, "div": lambda: x / y,
    "max": lambda: torch.maximum(x, y), "min": lambda: torch.minimum(x, y),
    "where": lambda: torch.where(x > y, x, y), "where0": lambda: torch.where(x < 0, 0.0, x).to(BF),
    "lt": lambda: x < y, "le": lambda: x <= y, "eq": lambda: x == y, "neg": lambda: -x,
    "abs": lambda: x.abs(), "scal2": lambda: x * 2.0,
    "scal01": lambda: x + torch.tensor(0.1).to(BF),
    "exp32": lambda: torch.exp(xf).to(BF), "exp_sub": lambda: torch.exp((x - y).float()),
    "roundtrip": lambda: (xf * 3.0).to(BF), "full": lambda: x + torch.tensor(0.1).to(BF),
    "fma": lambda: x * y + x, "clamp": lambda: x.clamp(-1.0, 2.0),
    "to_int": lambda: torch.where(x.isfinite(), x, 0).to(torch.int32),
    "from_int": lambda: (torch.arange(N) - 500).to(BF), "to_f16": lambda: x.to(torch.float16),
}
for op, want in ref.items():
    def go(op=op, want=want):
        w = want()
        out = torch.empty(N, dtype=w.dtype)
        binop[(1,)](x, y, out, N, OP=op, BLOCK=BLOCK)
        if op in ("max", "min", "clamp"):  # propagate_nan=NONE: NaN handling implementation-defined
            keep = ~(x.isnan() | y.isnan())
            return out[keep], w[keep]
        if op == "to_int":
            fin = x.isfinite()
            return out[fin], w[fin]
        return out, w
    run(op, go)

def go_mixed():
    out = torch.empty(N)
    mixed[(1,)](x, f, out, N, BLOCK=BLOCK)
    return out, xf + f
run("mixed_fp32", go_mixed)

def go_other():
    out = torch.empty(BLOCK, dtype=BF)
    masked_other[(1,)](x, out, N, BLOCK=BLOCK)
    w = torch.full((BLOCK,), float("-inf"), dtype=BF); w[:N] = x
    return out, w
run("load_other_-inf", go_other)

R, C = 8, 300
xs = (torch.randn(R, C, generator=g) * 2).to(BF)
for op in ("sum", "max", "min", "argmax", "cumsum"):
    def go_red(op=op):
        if op == "argmax":
            out = torch.empty(R, dtype=torch.int32)
            w = xs.float().argmax(1).to(torch.int32)
        elif op == "cumsum":
            out = torch.empty(R, C, dtype=BF)
            w = xs.float().cumsum(1).to(BF)
        else:
            out = torch.empty(R, dtype=BF)
            w = getattr(xs.float(), op)(1)
            w = (w if op == "sum" else w.values).to(BF)
        reduce_rows[(R,)](xs, out, C, OP=op, BLOCK=512)
        return out, w
    run("reduce_" + op, go_red)

def go_soft():
    out = torch.empty(R, C)
    softmax_bf16[(R,)](xs, out, C, BLOCK=512)
    return out, torch.softmax(xs.float(), 1)
run("softmax_bf16_in", go_soft)

def go_dot():
    a = torch.randn(16, 16, generator=g).to(BF)
    b = torch.randn(16, 16, generator=g).to(BF)
    out = torch.empty(16, 16)
    dot_bf16[(1,)](a, b, out)
    return out, a.float() @ b.float()
run("dot", go_dot)

def go_exp_direct():
    out = torch.empty(N, dtype=BF)
    exp_direct[(1,)](x, out, N, BLOCK=BLOCK)
    return out, torch.exp(x)
run("exp_on_bf16", go_exp_direct)
print(json.dumps(res))
"""
)


def test_bf16_ops_match_torch_within_one_ulp() -> None:
    res = run_interpreted(OPS)
    # tl.exp on bf16 is refused by Triton's front end on a GPU too: the same error here
    assert "Expected dtype" in res.pop("exp_on_bf16")
    bad = {op: r for op, r in res.items() if not (isinstance(r, int) and r <= 1)}
    assert not bad, bad
    # results that are not bf16 (compares, casts to int/fp16/fp32, argmax) must be exact
    exact = ["lt", "le", "eq", "to_int", "to_f16", "mixed_fp32", "reduce_argmax", "dot"]
    assert all(res[op] == 0 for op in exact), {op: res[op] for op in exact}


def test_only_under_the_interpreter_and_nothing_when_handlers_are_missing() -> None:
    script = """
import json, sys
sys.path.insert(0, "grader/sandbox")
from harness import interp_bf16
from triton.runtime import interpreter
before = interpreter.InterpreterBuilder.binary_op
off = interp_bf16.install()
"""
    assert run_script(script + "print(json.dumps(off))", interpret=False) is False
    missing = script.replace(
        "off = interp_bf16.install()",
        "del interpreter.ReduceOps.min_max\noff = interp_bf16.install()",
    ) + (
        "print(json.dumps([off, interp_bf16.status(),"
        " interpreter.InterpreterBuilder.binary_op is before]))"
    )
    assert run_interpreted(missing) == [False, interp_bf16.UNSUPPORTED, True]


VECTOR_ADD = """
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
"""

# x*x and the scaling stay in the input's dtype; the sum of squares is kept in fp32 (in fp16 it
# overflows, which the checkpoint checks on purpose) and rsqrt takes fp32 only.
RMSNORM = """
import torch
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    mean = tl.sum(x * x, axis=0, dtype=tl.float32) / n_cols
    rstd = tl.rsqrt(mean + eps).to(x.dtype)
    tl.store(y_ptr + row * n_cols + cols, x * rstd * w, mask=mask)


def rmsnorm_triton(x, weight, eps):
    x = x.contiguous()
    y = torch.empty_like(x)
    n_rows, n_cols = x.shape
    rmsnorm_kernel[(n_rows,)](x, weight, y, n_cols, eps, BLOCK=triton.next_power_of_2(n_cols))
    return y
"""


@pytest.mark.parametrize(
    ("source", "cid"), [(VECTOR_ADD, "c3a-vector-add"), (RMSNORM, "c3a-rmsnorm")]
)
def test_honest_bf16_submission_is_correct_on_cpu(
    source: str, cid: str, grade_source: GradeFn
) -> None:
    result = grade_source(source, cid, wall_seconds=120)
    assert result.verdict is Verdict.CORRECT, result.messages
    bf16 = [c for c in result.cases if c.dtype == "bfloat16"]
    assert bf16 and all(c.passed for c in bf16)
    assert pipeline.BF16_GPU_ONLY not in result.messages


def test_without_a_patchable_interpreter_bf16_is_left_to_the_gpu(
    grade_source: GradeFn, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(interp_bf16, "status", lambda: interp_bf16.UNSUPPORTED)
    result = grade_source(VECTOR_ADD, "c3a-vector-add", wall_seconds=120)
    assert result.verdict is Verdict.CORRECT, result.messages
    assert result.cases and not [c for c in result.cases if c.dtype == "bfloat16"]
    assert pipeline.BF16_GPU_ONLY in result.messages
