"""The static allowlist (grader/judge/static.py, grader/judge/allowlist.py): ordinary Triton
passes in every usual spelling; whatever is not on the lists is refused with its line and what
to do instead. End-to-end cases for what only the run can show (a grid function's host compute,
a value read on the host, a function handed to a kernel, a checkpoint's epilogue) are at the
end."""

from __future__ import annotations

import pytest

from grader import Verdict, checkpoints, grade
from grader.judge.static import check
from grader.options import GradeOptions
from grader.sandbox.bwrap import Limits

KERNEL = """
@triton.jit
def _k(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.max(x, axis=0))
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row * n_cols + cols, y.to(y_ptr.dtype.element_ty), mask=mask)
"""
HEAD = "import torch\nimport triton\nimport triton.language as tl\n" + KERNEL
LAUNCH = """
def softmax_triton(x):
    x = x.contiguous()
    y = torch.empty_like(x)
    _k[(x.shape[0],)](x, y, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return y
"""


def ok(source: str, entry: str = "softmax_triton", host_ops: frozenset[str] = frozenset()) -> None:
    report = check(source, entry, host_ops)
    assert report.ok, (report.forbidden, report.problems)


def refused(source: str, *words: str) -> str:
    report = check(source, "softmax_triton")
    text = " ".join(report.forbidden)
    assert report.forbidden, "not refused"
    for w in words:
        assert w in text, text
    return text


HONEST = {
    "plain": HEAD + LAUNCH,
    "alias": HEAD.replace("import triton\n", "import triton as tr\n").replace(
        "@triton.jit", "@tr.jit"
    )
    + LAUNCH.replace("triton.", "tr."),
    "from_import": HEAD.replace(
        "import triton\n", "import triton\nfrom triton import jit\n"
    ).replace("@triton.jit", "@jit")
    + LAUNCH,
    "call_form": HEAD.replace("@triton.jit\ndef _k", "def _k_body").replace(
        "import triton.language as tl\n", "import triton.language as tl\n"
    )
    + "\n_k = triton.jit(_k_body)\n"
    + LAUNCH,
    "annotated_entry": "from typing import Callable\n"
    + HEAD
    + LAUNCH.replace("def softmax_triton", "def _impl")
    + "\nsoftmax_triton: Callable = _impl\n",
    "grid_lambda": HEAD
    + LAUNCH.replace("_k[(x.shape[0],)]", "grid = lambda meta: (x.shape[0],)\n    _k[grid]"),
    "heuristics_autotune": "import torch\nimport triton\nimport triton.language as tl\n"
    + """
def _prune(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs["BLOCK"] >= named_args["n_cols"]] or configs[-1:]

@triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=w) for b in (64, 4096)
                          for w in (1, 2)],
                 key=["n_cols"], prune_configs_by={"early_config_prune": _prune})
@triton.heuristics({"EVEN": lambda args: args["n_cols"] % 2 == 0})
"""
    + KERNEL.replace("@triton.jit\n", "@triton.jit\n").replace(
        "BLOCK: tl.constexpr)", "BLOCK: tl.constexpr, EVEN: tl.constexpr)"
    )
    + LAUNCH.replace(", BLOCK=triton.next_power_of_2(x.shape[1])", ""),
    "helpers_and_constants": "import math\nimport functools\n"
    + HEAD.replace(
        "@triton.jit\ndef _k",
        "LOG2E: tl.constexpr = 1.4426950408889634\n"
        "SCALE = tl.constexpr(2)\n\n@triton.jit\ndef _twice(v):\n"
        "    return v * SCALE\n\n@triton.jit\ndef _k",
    )
    + """
@functools.lru_cache(maxsize=None)
def _params(n: int) -> tuple[int, int]:
    return triton.next_power_of_2(n), max(1, int(math.log2(n)))

def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    \"\"\"Docstrings, asserts, views, strides, keyword launches.\"\"\"
    assert x.dim() == 2, f"2-D only, got {x.dim()}"
    n_rows, n_cols = x.shape
    x = x if x.stride(-1) == 1 else x.contiguous()
    y = torch.empty_strided(x.shape, (n_cols, 1), dtype=x.dtype, device=x.device)
    block, _ = _params(n_cols)
    if x.is_cuda:
        sms = torch.cuda.get_device_properties(x.device).multi_processor_count
        assert sms > 0
    _k[(n_rows,)](x_ptr=x, y_ptr=y, n_cols=n_cols, BLOCK=block, num_warps=4, num_stages=2)
    return y.view(n_rows, -1)

if __name__ == "__main__":
    import time, os
    x = torch.randn(4, 8)
    print(torch.allclose(softmax_triton(x), torch.softmax(x, -1)), time.time(), os.getpid())
""",
    "static_range_and_libdevice": "from triton.language.extra import libdevice\n"
    + HEAD.replace(
        "    num = tl.exp(x - tl.max(x, axis=0))",
        "    for i in tl.static_range(2):\n        x = x + 0.0\n"
        "    num = libdevice.exp(x - tl.max(x, axis=0))",
    )
    + LAUNCH,
}


@pytest.mark.parametrize("name", sorted(HONEST))
def test_ordinary_triton_passes(name: str) -> None:
    ok(HONEST[name])


def test_the_main_block_is_not_run() -> None:
    report = check(HONEST["helpers_and_constants"], "softmax_triton")
    assert "import time, os" not in report.runnable and "__main__" not in report.runnable
    compile(report.runnable, "submission.py", "exec")
    # every statement kept at its own line, where it fits: the same line numbers in messages
    original = HONEST["helpers_and_constants"].splitlines()
    for i, text in enumerate(report.runnable.splitlines(), 1):
        if text.strip():
            assert report.source_line(i) == i, (i, text, original[i - 1])


def test_an_epilogue_is_allowed_only_where_the_checkpoint_says() -> None:
    src = HEAD + LAUNCH.replace("return y", "return y.mean()")
    refused(src, ".mean")
    ok(src, host_ops=frozenset({"mean", "sum"}))


@pytest.mark.parametrize(
    ("snippet", "word"),
    [
        # 1. compute the guard never sees
        ("v = x.numpy()", ".numpy"),
        ("v = torch.from_numpy(x)", "torch.from_numpy"),
        ("v = x.tolist()", ".tolist"),
        ("x.apply_(abs)", ".apply_"),
        ("import threading", "threading"),
        ("_k.add_pre_run_hook(print)", ".add_pre_run_hook"),
        ("c = triton.Config({}, pre_hook=print)", "pre_hook"),
        ("v = x.softmax(-1)", ".softmax"),
        ("v = torch.exp(x)", "torch.exp"),
        ("s = torch.cuda.Stream()", "torch.cuda.Stream"),
        # 2. blocklist holes
        ("v = getattr(torch, 'sof' + 'tmax')", "getattr"),
        ("v = torch.sys", "torch.sys"),
        ("v = torch.os", "torch.os"),
        ("import typing\nv = typing.get_type_hints(softmax_triton)", "typing.get_type_hints"),
        ("v = '{0.__class__}'.format(x)", "dunder"),
        ("v = '{0.x}'.format(x)", ".format"),
        ("v = np.zeros(3)", "'np'"),
        ("v = inspect.currentframe()", "'inspect'"),
        ("m = torch\nv = m.softmax", "module 'torch'"),
        ("v = vars()", "vars"),
        ("class A:\n    pass", "class"),
        ("v = x.__class__", "__class__"),
        ("v = x._base", "._base"),
        ("import triton.runtime", "triton.runtime"),
        ("from triton.runtime import driver", "triton.runtime"),
        ("v = softmax_triton.__globals__", "__globals__"),
        ("import functools\nv = functools.update_wrapper", "update_wrapper"),
        ("import operator", "operator"),
        ("v = [e for e in (1,) if (m := torch)]", "module 'torch'"),
        # 3. tampering from inside
        ("import sys", "sys"),
        ("torch.Tensor.clone = lambda self: self", "assigning"),
        ("torch.allclose = lambda *a: True", "assigning"),
        ("v = open('/job/job.json').read()", "open"),
        ("v = torch.load('/job/inputs.bin')", "torch.load"),
        ("import os\nos.write(3, b'x')", "import of 'os'"),
        ("del torch.Tensor.clone", "assigning"),
        ("def __getattr__(name):\n    return name", "__getattr__"),
        ("triton = 1", "names an import"),
    ],
)
def test_what_is_not_on_the_list_is_refused(snippet: str, word: str) -> None:
    text = refused(HEAD + LAUNCH + "\n" + snippet + "\n", word)
    assert "line " in text


def test_a_main_guard_lookalike_is_checked() -> None:
    src = HEAD + LAUNCH + '\nif __name__ != "__main__":\n    import sys\n'
    refused(src, "__name__")
    src = HEAD + LAUNCH + '\nif __name__ == "__main__":\n    pass\nelse:\n    import sys\n'
    refused(src, "sys")


@pytest.mark.parametrize(
    ("body", "word"),
    [
        ("    v = _host(x)", "_host"),
        ("    v = torch.exp(x)", "torch"),
        ("    v = [i for i in range(3)]", "ListComp"),
        ("    v = (lambda q: q)(x)", "Lambda"),
        ("    v = x.__class__", "__class__"),
        ("    v = x.numpy()", ".numpy"),
        ("    v = CACHE", "CACHE"),
        ("    v = fn(x)", "calling 'fn'"),
        ("    import math", "Import"),
        ("    v = math.exp(1.0)", "math"),
    ],
)
def test_kernel_bodies_hold_triton_only(body: str, word: str) -> None:
    kernel = KERNEL.replace("def _k(x_ptr, y_ptr,", "def _k(x_ptr, y_ptr, fn,").replace(
        "    tl.store", body + "\n    tl.store"
    )
    src = (
        "import math\nimport torch\nimport triton\nimport triton.language as tl\nCACHE = {}\n"
        "def _host(v):\n    return v\n" + kernel + LAUNCH
    )
    refused(src, word)


# --- what only the run shows: graded end to end ---------------------------------------------
OPTIONS = GradeOptions(device="cpu", limits=Limits(wall_seconds=60))


def _grade(source: str, checkpoint: str = "c3a-softmax") -> tuple[Verdict, str]:
    result = grade(source, checkpoints.get(checkpoint), OPTIONS)
    return result.verdict, " ".join(result.messages)


def test_host_compute_in_a_grid_function_is_seen() -> None:
    """The grid function runs inside Triton's launch, where the guard is suspended; an
    operator-only softmax (`**`, `@`) there was invisible to it. (Writing the result into the
    enclosing `y` from there is refused statically since issue 28: state between calls; the
    operators alone still reach the guard, the second line.)"""
    src = (
        HEAD.replace("    tl.store(y_ptr", "    pass  # tl.store(y_ptr")
        + """
def softmax_triton(x):
    y = torch.empty_like(x)

    def grid(meta):
        e = 2.718281828459045 ** (x - 0.0)
        s = e / (e @ torch.ones(x.shape[1], 1))
        return (x.shape[0] + 0 * s.shape[0],)

    _k[grid](x, y, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return y
"""
    )
    ok(src)
    verdict, text = _grade(src)
    assert verdict is Verdict.FORBIDDEN, text
    assert "aten.pow" in text or "aten.mm" in text


def test_values_read_on_the_host_are_forbidden() -> None:
    src = HEAD + LAUNCH.replace(
        "    return y", "    y.fill_(float(x[0, 0]) * 0.0 + 1.0 / x.shape[1])\n    return y"
    )
    ok(src)
    verdict, text = _grade(src)
    assert verdict is Verdict.FORBIDDEN, text
    assert "_local_scalar_dense" in text


def test_a_function_handed_to_a_kernel_is_refused() -> None:
    src = (
        HEAD.replace("def _k(x_ptr, y_ptr,", "def _k(x_ptr, y_ptr, fn,")
        + "\ndef _host(v):\n    return v\n"
        + LAUNCH.replace("_k[(x.shape[0],)](x, y,", "_k[(x.shape[0],)](x, y, _host,")
    )
    ok(src)
    verdict, text = _grade(src)
    assert verdict is Verdict.FORBIDDEN, text
    assert "function" in text


def test_cross_entropy_with_a_mean_epilogue_is_correct() -> None:
    src = """
import torch
import triton
import triton.language as tl


@triton.jit
def _row_loss(x_ptr, t_ptr, loss_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = tl.full([BLOCK], -float("inf"), dtype=tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        c = start + cols
        x = tl.load(x_ptr + row * stride + c, mask=c < n_cols, other=-float("inf"))
        x = x.to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(tl.where(m == -float("inf"), 0.0, m - m_new)) + tl.where(
            x == -float("inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    mx = tl.max(m, axis=0)
    total = tl.sum(s * tl.exp(tl.where(m == -float("inf"), -float("inf"), m - mx)), axis=0)
    t = tl.load(t_ptr + row)
    xt = tl.load(x_ptr + row * stride + t).to(tl.float32)
    tl.store(loss_ptr + row, mx + tl.log(total) - xt)


def cross_entropy_triton(logits, targets):
    n, v = logits.shape
    logits = logits.contiguous()
    losses = torch.empty(n, dtype=torch.float32, device=logits.device)
    _row_loss[(n,)](logits, targets, losses, v, logits.stride(0), BLOCK=1024)
    return losses.mean()
"""
    verdict, text = _grade(src, "c3a-cross-entropy")
    assert verdict is Verdict.CORRECT, text
    # the same epilogue over the inputs, or a host copy of them, is not the kernels' output
    for operand in ("logits", "logits.clone()", "logits.float()"):
        cheat = src.replace(
            "return losses.mean()", f"_ = {operand}.mean()\n    return losses.mean()"
        )
        verdict, text = _grade(cheat, "c3a-cross-entropy")
        assert verdict is Verdict.FORBIDDEN, (operand, text)


@pytest.mark.parametrize(
    "annotation",
    ["x_ptr: _host(1)", "x_ptr: torch.Tensor", "x_ptr: print('at def time')", "x_ptr: CACHE"],
)
def test_a_kernel_annotation_is_triton_language_or_a_string(annotation: str) -> None:
    """A kernel's annotations run when its def runs, and kgrade runs kernel defs in its compile
    check too (grader/judge/kernel_check.py): only triton.language names or strings."""
    head = "import torch\nimport triton\nimport triton.language as tl\nCACHE = {}\n"
    head += "def _host(v):\n    return v\n"
    refused(head + KERNEL.replace("def _k(x_ptr,", f"def _k({annotation},") + LAUNCH, "annotation")
    refused(head + KERNEL.replace("):\n    row", ") -> _host(2):\n    row") + LAUNCH, "annotation")
    fine_ones = ("x_ptr: tl.tensor", 'x_ptr: "tl.pointer_type"', "x_ptr: triton.language.tensor")
    for fine in (*fine_ones, "x_ptr: int", "x_ptr: float"):
        ok(HEAD.replace("def _k(x_ptr,", f"def _k({fine},") + LAUNCH)
