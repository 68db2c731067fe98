"""The CPU precheck's compile check (grader/judge/kernel_check.py,
grader/sandbox/harness/compile_kernels.py): each kernel a submission launched is compiled by
Triton's real compiler for sm_90, with the specialization of that launch, in a sandboxed process
of its own. What the interpreter runs but the compiler refuses is `compile_error` with Triton's
message, even when the outputs were right; what every honest file does stays `correct`; the
result is cached by source; the child's report of its launches is validated and capped."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest

from grader import Verdict, checkpoints, grade
from grader.judge import kernel_check, kernel_source
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


def test_a_cached_answer_holds_only_for_the_check_that_gave_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache entry made by an older compile check (before its launch-time limits, say) once
    answered for the new one: the new rule never ran on a source graded before. The cache key
    holds the compile process's own code."""
    starts: list[int] = []
    start = kernel_check.KernelCheck._start

    def counted(self: kernel_check.KernelCheck) -> None:
        starts.append(1)
        start(self)

    monkeypatch.setattr(kernel_check.KernelCheck, "_start", counted)
    options = GradeOptions(device="cpu", limits=Limits(wall_seconds=60), cache_dir=tmp_path)
    monkeypatch.setattr(kernel_check, "_checker_digest", lambda: "the check of yesterday")
    grade(GLOBAL, checkpoints.get("c3a-vector-add"), options)
    monkeypatch.setattr(kernel_check, "_checker_digest", lambda: "the check of today")
    grade(GLOBAL, checkpoints.get("c3a-vector-add"), options)
    assert starts == [1, 1]  # compiled again, not answered from yesterday's entry


def _check(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> kernel_check.KernelCheck:
    """A check of GLOBAL whose process is never started: what `feed` keeps is looked at."""
    monkeypatch.setattr(kernel_check.KernelCheck, "_start_safely", lambda self: None)
    monkeypatch.setattr(kernel_check.KernelCheck, "_start", lambda self: None)
    check = kernel_check.KernelCheck(GLOBAL, tmp_path, OPTIONS, sandboxed=True)
    return check


def _finish(check: kernel_check.KernelCheck) -> kernel_check.Outcome:
    """As if the cache had answered every specialization seen: ok."""
    check.known.update({k: {"ok": True, "message": ""} for k in check.seen})
    return check.finish()


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
        {**GOOD, "num_ctas": 0},
        {**GOOD, "num_ctas": "2"},
        {**GOOD, "maxnreg": 10_000},
        "_add_kernel",
        None,
    ],
)
def test_a_forged_specialization_is_not_compiled_and_the_check_fails_closed(
    forged: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    check = _check(monkeypatch, tmp_path)
    check.feed([forged])
    check.feed(forged)
    assert check.seen == {} and set(check.unjudged) == {"unreadable"}
    check.feed([GOOD])
    assert list(check.seen.values()) == [GOOD]
    outcome = _finish(check)
    assert outcome.unjudged[0][0] == "unreadable"
    messages: list[str] = []
    assert kernel_check.apply(Verdict.CORRECT, messages, outcome) is Verdict.FORBIDDEN
    assert "cannot describe" in messages[0]


def test_decoys_past_the_cap_make_the_grade_not_correct(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    check = _check(monkeypatch, tmp_path)
    cap = kernel_check.MAX_LAUNCHED
    decoys = [{**GOOD, "constexprs": {"BLOCK": 2 + i}} for i in range(cap)]
    for _ in range(2):  # the same ones again are kept once and fill nothing
        check.feed(decoys)
    assert len(check.seen) == cap and not check.unjudged
    check.feed([GOOD])  # the real launch, past the cap: never compiled, and said
    assert len(check.seen) == cap and set(check.unjudged) == {"overflow"}
    messages: list[str] = []
    verdict = kernel_check.apply(Verdict.CORRECT, messages, _finish(check))
    assert verdict is Verdict.FORBIDDEN and f"at most {cap}" in messages[0]


def test_a_flood_of_reports_is_read_only_up_to_a_bound(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    check = _check(monkeypatch, tmp_path)
    check.feed([{"junk": "x" * 1000}] * 100_000)
    assert check.reported == kernel_check.MAX_REPORTED + 1
    assert set(check.unjudged) == {"unreadable", "overflow"}


@pytest.mark.parametrize(
    ("said", "kind", "verdict"),
    [
        ({"kernel": "k", "problem": "unreadable", "detail": "a constexpr X of type list"},
         "unreadable", Verdict.FORBIDDEN),
        ({"kernel": "k", "problem": "overflow", "detail": "more than 128"}, "overflow",
         Verdict.FORBIDDEN),
        ({"kernel": "k", "problem": "refused", "detail": "Triton cannot pass a dtype"}, None,
         Verdict.COMPILE_ERROR),
    ],
)  # fmt: skip
def test_the_childs_word_that_a_launch_could_not_be_checked_fails_closed(
    said: dict[str, str],
    kind: str | None,
    verdict: Verdict,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    check = _check(monkeypatch, tmp_path)
    check.feed([GOOD, said])
    outcome = _finish(check)
    assert [k for k, _ in outcome.unjudged] == ([kind] if kind else [])
    messages: list[str] = []
    assert kernel_check.apply(Verdict.CORRECT, messages, outcome) is verdict
    assert said["detail"] in messages[0]
    # a wrong answer stays a wrong answer: the check's word is added, not put first
    messages = ["wrong"]
    if kind:
        assert kernel_check.apply(Verdict.WRONG_ANSWER, messages, outcome) is verdict.WRONG_ANSWER
        assert messages[0] == "wrong" and said["detail"] in messages[1]


def test_the_restricted_module_holds_only_what_a_kernel_reaches() -> None:
    source = GLOBAL.replace("import torch\n", "import torch\nimport math\nCACHE = {}\n") + (
        "\nalias = triton.jit(_add_kernel.fn)\nprint('host code')\n"
    )
    module = kernel_source.restricted_module(source)
    text = module.text
    assert "torch" not in text and "CACHE" not in text and "print" not in text
    assert "vector_add_triton" not in text
    assert "import math" in text and "SCALE = 1.0" in text
    assert "@triton.jit" not in text and "_add_kernel = __kgrade_triton__.jit(_add_kernel)" in text
    # each line of a kernel names the program's line and statement
    at = {line: where for line, where in module.lines.items()}
    assert (_line(source, "* SCALE"), "acc = (tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr "
            "+ offs, mask=mask)) * SCALE") in at.values()  # fmt: skip
    for line, (n, quoted) in at.items():
        assert text.splitlines()[line - 1].strip() == quoted.removesuffix("…") or quoted[-1] == "…"
        assert quoted.split("(")[0].split(" ")[0] in source.splitlines()[n - 1]
    assert module.params == {"_add_kernel": ["x_ptr", "y_ptr", "out_ptr", "n", "BLOCK"]}


LAB = ROOT / "reference_kernels" / "c3a_softmax" / "solutions" / "correct" / "lab_a1_pruned.py"


def test_one_import_line_of_torch_and_triton_keeps_triton_and_tl(tmp_path: Path) -> None:
    """Issue 31: the course's lab file imports `torch, triton, triton.language as tl` on one
    line; the whole line was dropped with torch, and every correct version of the file was
    told "Triton could not load its kernels: NameError: name 'tl' is not defined"."""
    module = kernel_source.restricted_module(LAB.read_text())
    assert "import triton, triton.language as tl" in module.text
    assert "torch" not in module.text
    (tmp_path / "kernels.py").write_text(module.text)  # what the process imports
    spec = importlib.util.spec_from_file_location("kernels", tmp_path / "kernels.py")
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    assert type(loaded.softmax_kernel).__name__ == "JITFunction"


def test_the_lab_file_is_compile_checked_and_correct(tmp_path: Path) -> None:
    options = GradeOptions(device="cpu", limits=Limits(wall_seconds=90), cache_dir=tmp_path)
    result = grade(LAB.read_text(), checkpoints.get("c3a-softmax"), options)
    said = "\n".join(result.messages)
    assert result.verdict is Verdict.CORRECT, said
    assert "compile check" not in said and "could not load" not in said
    (entry,) = json.loads((tmp_path / kernel_check.CACHE_FILE).read_text()).values()
    # every autotune config's launches were compiled, not only the first config's
    assert len(entry["results"]) >= 20
    assert all(r["ok"] is True for r in entry["results"].values())


KERNEL_IN_IF = """import torch
import triton
import triton.language as tl

FAST = True
if FAST:
    @triton.jit
    def _add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        \"\"\"Adds.
def _add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK):
    pass\"\"\"
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        s = "a\u2028b"
        acc = tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask) * SCALE
        tl.store(out_ptr + offs, acc, mask=mask)
SCALE = 1.0


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    _add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
"""


def test_a_kernel_inside_a_module_level_if_is_refused_before_anything_runs() -> None:
    # issue 28: a kernel is a top-level def, bound once; one inside a module-level `if` is
    # refused by the static check (judge/identity.py), so the compile check never has to find
    # it (it cuts top-level kernels only)
    from grader.judge import static

    report = static.check(KERNEL_IN_IF, "vector_add")
    assert report.forbidden, report
    assert not kernel_source.restricted_module(KERNEL_IN_IF).params


def test_a_kernel_inside_an_if_is_forbidden_when_graded() -> None:
    source = re.sub(r'        """Adds.*?"""\n', "", KERNEL_IN_IF, flags=re.S).replace(
        '        s = "a\u2028b"\n', ""
    )
    assert "Adds" not in source and "\u2028" not in source
    result = grade(source, checkpoints.get("c3a-vector-add"), OPTIONS)
    assert result.verdict is Verdict.FORBIDDEN, result.messages


HONEST = ROOT / "tests" / "security" / "honest"


def test_an_honest_kernel_using_libdevice_rsqrt_is_checked_on_cpu_and_correct() -> None:
    source = (HONEST / "cc_libdevice_rsqrt.py").read_text()
    result = grade(source, checkpoints.get("c3a-rmsnorm"), OPTIONS)
    said = "\n".join(result.messages)
    assert result.verdict is Verdict.CORRECT, said
    assert result.cases and all(c.passed for c in result.cases)  # computed here, with numpy
    assert "compile check" not in said and "GPU only" not in said


# libdevice.j0 has no numpy twin: the interpreter cannot run it, a GPU can (and the compile
# check compiles it: for fp32 and fp64 only, so on fp16 it is a compile error, rightly);
# `* 0.0` keeps the answer a vector add's.
J0 = ADD.format(
    consts="from triton.language.extra import libdevice",
    body="    x = tl.load(x_ptr + offs, mask=mask)\n"
    "    zero = (libdevice.j0(x.to(tl.float32)) * 0.0).to(x.dtype)\n"
    "    acc = x + tl.load(y_ptr + offs, mask=mask) + zero",
)


def test_a_libdevice_function_the_interpreter_cannot_run_is_left_to_the_gpu() -> None:
    result = grade(J0, checkpoints.get("c3a-vector-add"), OPTIONS)
    said = "\n".join(result.messages)
    # never `correct` on the CPU (its code decided what went unchecked): the GPU stage decides
    assert result.verdict is Verdict.UNCHECKED, said
    assert result.level == 0 and "could not be checked on the CPU" in said
    assert "libdevice.j0 cannot run under Triton's interpreter" in said
    assert "checked on a GPU only" in said and "does not compile" not in said
    assert "could not judge" not in said  # compiled for sm_90 like any kernel


ATTACKS = ROOT / "tests" / "security" / "attacks"


def test_a_file_that_only_stalls_the_compile_check_is_a_time_limit_within_its_grace() -> None:
    """Right under the interpreter; Triton's compiler needs minutes for its one wide scan: the
    check stops STALL_SECONDS after the child's end (not the child's limit plus its grace), and
    the grade says so."""
    source = (ATTACKS / "cc_stall_cumsum_wide_block.py").read_text()
    result = grade(source, checkpoints.get("c3a-vector-add"), OPTIONS)
    said = "\n".join(result.messages)
    assert result.verdict is Verdict.TIME_LIMIT, said
    assert all(c.passed for c in result.cases)  # the answer itself was right
    stall = kernel_check.STALL_SECONDS
    assert f"had not finished after {stall:.0f} s on one specialization" in said
    assert result.stages["compile_wait"] < kernel_check.STALL_SECONDS + 30
    assert "specializations compiled" in said and "STALL=True" in said


@pytest.mark.parametrize(
    "tail",
    [
        "\nif n_rows_seen := 0:\n    pass\nelse:\n    def _add_kernel(*a, **k):\n        pass\n",
        "\ntry:\n    pass\nexcept ValueError:\n    _add_kernel = None\n",
        "\nfor _add_kernel in [vector_add_triton]:\n    pass\n",
    ],
)
def test_a_kernel_name_bound_twice_at_module_level_cannot_be_compile_checked(
    tail: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The compiled kernel must be the one the child runs: a second binding of its name,
    anywhere at module level, and the check refuses to judge (forbidden), whatever the static
    check says of it."""
    with pytest.raises(kernel_source.CannotCut) as raised:
        kernel_source.restricted_module(GLOBAL + tail)
    assert raised.value.own and "'_add_kernel' is bound more than once" in str(raised.value)
    monkeypatch.setattr(kernel_check.KernelCheck, "_start_safely", lambda self: None)
    check = kernel_check.KernelCheck(GLOBAL + tail, tmp_path, OPTIONS, sandboxed=True)
    messages: list[str] = []
    assert kernel_check.apply(Verdict.CORRECT, messages, check.finish()) is Verdict.FORBIDDEN
    assert "cannot be cut out" in messages[0]


def test_launch_options_a_gpu_compiles_with_are_compiled_with() -> None:
    """Red team 3: a launch's num_ctas and maxnreg were dropped from its specialization, so
    the check compiled another program than a GPU would (num_ctas=3 fails to compile there,
    and was `correct`). They are part of the specialization now, where not their default."""
    head = "import torch\nimport triton\nimport triton.language as tl\n\n"
    kernel = (
        "@triton.jit\ndef _add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    mask = offs < n\n"
        "    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + "
        "tl.load(y_ptr + offs, mask=mask), mask=mask)\n\n"
        "def vector_add_triton(x, y):\n"
        "    out = torch.empty_like(x)\n"
        "    n = out.numel()\n"
        "    _add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024, {opt})\n"
        "    return out\n"
    )
    ckpt = checkpoints.get("c3a-vector-add")
    options = GradeOptions(device="cpu", limits=Limits(wall_seconds=60))
    bad = grade(head + kernel.format(opt="num_ctas=3"), ckpt, options)
    assert bad.verdict is Verdict.COMPILE_ERROR, bad.messages[:3]
    for opt in ("maxnreg=128", "num_ctas=1"):
        ok = grade(head + kernel.format(opt=opt), ckpt, options)
        assert ok.verdict is Verdict.CORRECT, (opt, ok.messages[:3])


def test_a_kernels_copy_shares_the_file_around_it() -> None:
    """Red team 6 (x32): the compile check copies each kernel without its docstrings; the AST's
    `.parent` links made each copy take the whole file, so 300 one-line kernels cost 58 s of
    trusted-parent time (quadratic). The copy must reach no node outside its own function."""
    import ast

    from grader.judge.defines import Defines

    src = "import triton\n" + "".join(
        f"@triton.jit\ndef k{i}(x):\n    '''doc'''\n    pass\n" for i in range(3)
    )
    tree = ast.parse(src)
    Defines(tree, tree.body)
    fn = tree.body[1]
    above = fn.parent
    copied = kernel_source._without_docstrings(fn)
    assert copied is not fn and copied.parent is above  # the file itself, not a copy of it
    inside = {id(n) for n in ast.walk(copied)}
    assert all(n.parent is above or id(n.parent) in inside for n in ast.walk(copied))
    assert not any(isinstance(s, ast.Expr) for s in copied.body)
