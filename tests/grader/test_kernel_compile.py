"""The CPU precheck's compile check (grader/judge/kernel_check.py,
grader/sandbox/harness/compile_kernels.py): each kernel a submission launched is compiled by
Triton's real compiler for sm_90, with the specialization of that launch, in a sandboxed process
of its own. What the interpreter runs but the compiler refuses is `compile_error` with Triton's
message, even when the outputs were right; what every honest file does stays `correct`; the
result is cached by source; the child's report of its launches is validated and capped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from grader import Verdict, checkpoints, grade
from grader.judge import kernel_check
from grader.options import GradeOptions
from grader.sandbox.bwrap import Limits, probe
from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(probe() is not None, reason=str(probe()))

OPTIONS = GradeOptions(device="cpu", limits=Limits(wall_seconds=60))

ADD = """import torch
import triton
import triton.language as tl
{consts}

@triton.jit
def _add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
{body}
    tl.store(out_ptr + offs, acc, mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    _add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
"""
# The interpreter reads the global as Python; the compiler refuses a non-constexpr global.
GLOBAL = ADD.format(
    consts="SCALE = 1.0",
    body="    acc = (tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask)) * SCALE",
)
# `break` runs as Python under the interpreter; Triton's code generator has no Break.
BREAK = ADD.format(
    consts="",
    body="""    acc = tl.load(x_ptr + offs, mask=mask)
    for i in range(4):
        if i == 1:
            break
        acc += tl.load(y_ptr + offs, mask=mask)""",
)


def _line(source: str, text: str) -> int:
    return next(i for i, ln in enumerate(source.splitlines(), 1) if text in ln)


def test_a_kernel_reading_a_non_constexpr_global_is_a_compile_error() -> None:
    result = grade(GLOBAL, checkpoints.get("c3a-vector-add"), OPTIONS)
    said = "\n".join(result.messages)
    assert result.verdict is Verdict.COMPILE_ERROR, said
    assert all(c.passed for c in result.cases)  # right under the interpreter all the same
    assert "Cannot access global variable SCALE" in said
    assert f"at line {_line(GLOBAL, '* SCALE')}: acc = (tl.load(" in said
    assert "sm_90" in said


def test_a_construct_the_code_generator_lacks_is_a_compile_error() -> None:
    result = grade(BREAK, checkpoints.get("c3a-vector-add"), OPTIONS)
    said = "\n".join(result.messages)
    assert result.verdict is Verdict.COMPILE_ERROR, said
    assert "Break" in said
    assert f"at line {_line(BREAK, 'break')}: break" in said


@pytest.mark.parametrize(
    "folder", sorted(p.parent.name for p in (ROOT / "reference_kernels").glob("*/reference.py"))
)
def test_every_reference_compiles_and_stays_correct(folder: str, tmp_path: Path) -> None:
    source = (ROOT / "reference_kernels" / folder / "reference.py").read_text()
    options = GradeOptions(device="cpu", limits=Limits(wall_seconds=60), cache_dir=tmp_path)
    result = grade(source, checkpoints.get(folder.replace("_", "-")), options)
    said = "\n".join(result.messages)
    assert result.verdict is Verdict.CORRECT, said
    assert "compile check" not in said  # it was made, not skipped
    cached = json.loads((tmp_path / kernel_check.CACHE_FILE).read_text())
    (entry,) = cached.values()
    assert entry["results"] and all(r["ok"] is True for r in entry["results"].values())


def test_a_second_grading_of_the_same_source_starts_no_compile_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    starts: list[int] = []
    start = kernel_check.KernelCheck._start

    def counted(self: kernel_check.KernelCheck) -> None:
        starts.append(1)
        start(self)

    monkeypatch.setattr(kernel_check.KernelCheck, "_start", counted)
    options = GradeOptions(device="cpu", limits=Limits(wall_seconds=60), cache_dir=tmp_path)
    first = grade(GLOBAL, checkpoints.get("c3a-vector-add"), options)
    assert first.verdict is Verdict.COMPILE_ERROR and starts == [1]
    again = grade(GLOBAL, checkpoints.get("c3a-vector-add"), options)
    assert starts == [1]  # answered from the cache
    assert again.verdict is Verdict.COMPILE_ERROR
    assert [m for m in again.messages if "SCALE" in m] == [
        m for m in first.messages if "SCALE" in m
    ]
    assert again.stages["compile_wait"] < 0.05


def _check(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> kernel_check.KernelCheck:
    """A check of GLOBAL whose process is never started: what `feed` keeps is looked at."""
    monkeypatch.setattr(kernel_check.KernelCheck, "_start_safely", lambda self: None)
    return kernel_check.KernelCheck(GLOBAL, tmp_path, OPTIONS, sandboxed=True)


GOOD: dict[str, Any] = {
    "kernel": "_add_kernel",
    "signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
                  "BLOCK": "constexpr"},
    "constexprs": {"BLOCK": 1024},
    "num_warps": 4,
    "num_stages": 3,
}  # fmt: skip


@pytest.mark.parametrize(
    "forged",
    [
        {**GOOD, "kernel": "vector_add_triton"},  # host code, not a kernel
        {**GOOD, "kernel": "__import__"},
        {**GOOD, "kernel": ["_add_kernel"]},
        {**GOOD, "signature": {**GOOD["signature"], "x_ptr": "*fp32; import os"}},
        {**GOOD, "signature": {"x_ptr": "*fp32"}},  # parameters missing
        {**GOOD, "signature": dict(reversed(list(GOOD["signature"].items())))},
        {**GOOD, "constexprs": {}},
        {**GOOD, "constexprs": {"BLOCK": {"dtype": "torch.float32"}}},
        {**GOOD, "constexprs": {"BLOCK": "x" * 10_000}},
        {**GOOD, "constexprs": {"BLOCK": [1024]}},
        {**GOOD, "constexprs": {"BLOCK": 2**80}},
        {**GOOD, "num_warps": 10_000},
        {**GOOD, "num_warps": True},
        {**GOOD, "num_stages": "3"},
        {**GOOD, "extra": 1},
        "_add_kernel",
        None,
    ],
)
def test_a_forged_specialization_is_ignored(
    forged: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    check = _check(monkeypatch, tmp_path)
    check.feed([forged])
    check.feed(forged)
    assert check.seen == {} and check.note is None
    check.feed([GOOD])
    assert list(check.seen.values()) == [GOOD]


def test_an_oversized_launch_list_is_capped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    check = _check(monkeypatch, tmp_path)
    many = [{**GOOD, "constexprs": {"BLOCK": 2**i}} for i in range(40)]
    for _ in range(3):  # the same ones again count against the cap, and are kept once
        check.feed(many + [{"junk": "x" * 1000}] * 100_000)
    assert len(check.seen) == 40
    check.feed([{**GOOD, "constexprs": {"BLOCK": 3}}])  # past the cap: not looked at
    assert len(check.seen) == 40 and check.reported == kernel_check.MAX_LAUNCHED


def test_the_restricted_module_holds_only_what_a_kernel_reaches() -> None:
    source = GLOBAL.replace("import torch\n", "import torch\nimport math\nCACHE = {}\n") + (
        "\nalias = triton.jit(_add_kernel.fn)\nprint('host code')\n"
    )
    module = kernel_check.restricted_module(source)
    assert module is not None
    text = module.text
    assert "torch" not in text and "CACHE" not in text and "print" not in text
    assert "vector_add_triton" not in text
    assert "import math" in text and "SCALE = 1.0" in text
    assert "@triton.jit" not in text and "_add_kernel = __kgrade_triton__.jit(_add_kernel)" in text
    for n, line in enumerate(text.splitlines()[: len(source.splitlines())], 1):
        assert not line or line == source.splitlines()[n - 1] or "import" in line or "=" in line
    assert module.params == {"_add_kernel": ["x_ptr", "y_ptr", "out_ptr", "n", "BLOCK"]}
