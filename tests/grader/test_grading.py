"""End to end on the CPU: real files through static checks, the bubblewrap sandbox and the
Triton interpreter, down to the verdict, level and messages a student reads."""

from __future__ import annotations

import time

import pytest
import torch

from grader import Verdict, checkpoints, render_report
from grader.checkpoints import CheckpointError
from grader.models import CheckpointDef
from grader.pipeline import plan_runs
from tests.conftest import GradeFn

ALL = checkpoints.builtins()
WRONG = [(cid, w) for cid, c in ALL.items() for w in c.wrong_solutions()]


@pytest.mark.parametrize("cid", sorted(ALL))
def test_reference_solution_is_correct(cid: str, grade_source: GradeFn) -> None:
    result = grade_source(ALL[cid].reference_solution.read_text(), cid)
    assert result.verdict is Verdict.CORRECT, result.messages
    assert result.level == 2
    assert "no GPU" in " ".join(result.messages)


@pytest.mark.parametrize(("cid", "wrong"), WRONG, ids=[f"{c}:{w.name}" for c, w in WRONG])
def test_known_bad_solution_is_rejected(cid: str, wrong, grade_source: GradeFn) -> None:  # type: ignore[no-untyped-def]
    result = grade_source(wrong.path.read_text(), cid)
    assert result.verdict.value in wrong.expect.split("|"), result.messages
    assert result.level <= 1
    assert result.messages


def test_every_builtin_has_the_required_wrong_solutions() -> None:
    required = {"missing_mask", "calls_pytorch", "unwritten_buffer", "caches_first_answer"}
    for cid, c in ALL.items():
        names = {w.name for w in c.wrong_solutions()}
        assert required <= names, (cid, required - names)
    for cid in ("c3a-softmax", "c3a-cross-entropy"):
        assert "no_max_subtraction" in {w.name for w in ALL[cid].wrong_solutions()}


def test_lab_file_as_written_is_wrong_and_says_which_configs(grade_source: GradeFn) -> None:
    lab = ALL["c3a-softmax"].folder / "solutions" / "wrong" / "lab_a1_autotune.py"
    result = grade_source(lab.read_text())
    assert result.verdict is Verdict.WRONG_ANSWER and result.level == 1
    by_config = {c.config: c for c in result.configs}
    assert len(by_config) == 20
    bad = by_config["softmax_kernel(BLOCK_SIZE=256, num_warps=2)"]
    assert not bad.passed and 781 in bad.failed_widths and 1 not in bad.failed_widths
    assert by_config["softmax_kernel(BLOCK_SIZE=4096, num_warps=16)"].passed
    text = "\n".join(result.messages)
    assert "early_config_prune" in text and "BLOCK_SIZE smaller than the row" in text
    # the configs are listed once, by the report (and the page's table), not in the messages
    assert "wrong for widths" not in text
    assert "BLOCK_SIZE=256, num_warps=2): wrong for widths" in render_report(result)


def test_lab_file_with_pruned_configs_is_correct(grade_source: GradeFn) -> None:
    lab = ALL["c3a-softmax"].folder / "solutions" / "correct" / "lab_a1_pruned.py"
    result = grade_source(lab.read_text())
    assert result.verdict is Verdict.CORRECT, result.messages
    assert result.configs and all(c.passed for c in result.configs)
    # width 1 prunes nothing (every BLOCK_SIZE >= 1): all 20 configs were exercised
    assert len(result.configs) == 20


@pytest.mark.parametrize(
    "name",
    [
        "forbidden_torch_softmax.py",
        "forbidden_functional_alias.py",
        "forbidden_getattr_alias.py",
        "forbidden_tensor_method.py",
        "forbidden_torch_ops.py",
    ],
)
def test_pytorch_compute_however_spelled_is_forbidden(name: str, grade_fixture: GradeFn) -> None:
    result = grade_fixture(name)
    assert result.verdict is Verdict.FORBIDDEN, result.messages
    assert result.level == 0
    # refused in the parent before it runs, with the line and the construct
    text = " ".join(result.messages)
    assert "line " in text and "is not allowed" in text, text


def test_no_kernel_launched_is_forbidden(grade_fixture: GradeFn) -> None:
    result = grade_fixture("no_kernel_launched.py")
    assert result.verdict is Verdict.FORBIDDEN
    assert "without launching any Triton kernel" in " ".join(result.messages)


def test_syntax_error_is_a_compile_error_with_the_line(grade_fixture: GradeFn) -> None:
    result = grade_fixture("syntax_error.py")
    assert result.verdict is Verdict.COMPILE_ERROR and result.level == 0
    assert "line 4" in " ".join(result.messages)


def test_triton_compile_error_carries_the_compilers_message(grade_fixture: GradeFn) -> None:
    result = grade_fixture("triton_compile_error.py")
    assert result.verdict is Verdict.COMPILE_ERROR and result.level == 0
    assert "power of 2" in " ".join(result.messages)


@pytest.mark.parametrize("name", ["endless_import.py", "endless_entry.py"])
def test_endless_loop_hits_the_time_limit(name: str, grade_fixture: GradeFn) -> None:
    start = time.monotonic()
    result = grade_fixture(name, wall_seconds=8)
    assert result.verdict is Verdict.TIME_LIMIT and result.level == 0
    assert time.monotonic() - start < 20


def test_segfault_is_a_runtime_error_and_grading_goes_on(
    grade_fixture: GradeFn, grade_source: GradeFn
) -> None:
    result = grade_fixture("segfault_store.py")
    assert result.verdict in {Verdict.RUNTIME_ERROR, Verdict.WRONG_ANSWER}
    assert "SIGSEGV" in " ".join(result.messages)
    again = grade_source(ALL["c3a-softmax"].reference_solution.read_text())
    assert again.verdict is Verdict.CORRECT


def test_memory_hog_hits_the_memory_limit(grade_fixture: GradeFn) -> None:
    from grader.sandbox.bwrap import Limits

    result = grade_fixture("memory_hog.py", limits=Limits(wall_seconds=30, memory_bytes=2 << 30))
    assert result.verdict is Verdict.MEMORY_LIMIT, result.messages
    assert result.level == 0


def test_forged_output_gains_nothing(grade_fixture: GradeFn) -> None:
    result = grade_fixture("forged_verdict.py")
    assert result.verdict is not Verdict.CORRECT
    assert result.level <= 1
    assert '"verdict": "correct"' in result.stdout  # it printed; nobody listened


def test_printing_300_mb_leaves_a_small_result(grade_fixture: GradeFn) -> None:
    result = grade_fixture("huge_output.py", wall_seconds=120)
    assert result.verdict is Verdict.CORRECT, result.messages
    assert len(result.model_dump_json()) < 64 * 1024  # capped after escaping (judge/budget.py)
    assert "bytes in all, the rest dropped" in result.stdout


def test_mutating_the_input_does_not_change_the_reference(grade_fixture: GradeFn) -> None:
    result = grade_fixture("mutates_input.py")
    assert result.verdict is Verdict.CORRECT, result.messages


def test_every_shape_is_drawn_twice_from_a_secret_seed(softmax: checkpoints.Checkpoint) -> None:
    a = plan_runs(softmax, "cpu", seed=1)
    b = plan_runs(softmax, "cpu", seed=2)
    names = [c.name for c in softmax.definition.interpreter_cases]
    for name in names:
        draws = [r for r in a if r.case.name == name]
        assert len(draws) >= 2
        assert not torch.equal(draws[0].inputs[0], draws[1].inputs[0])
    assert not torch.equal(a[0].inputs[0], b[0].inputs[0])
    again = plan_runs(softmax, "cpu", seed=1)
    assert all(torch.equal(x.inputs[0], y.inputs[0]) for x, y in zip(a, again, strict=True))


def test_cases_cover_the_classic_mistakes(softmax: checkpoints.Checkpoint) -> None:
    widths = {c.shape[-1] for c in softmax.definition.interpreter_cases}
    assert 1 in widths
    assert any(w & (w - 1) for w in widths), "a non-power-of-two width"
    assert any(c.params.get("scale", 1) >= 50 for c in softmax.definition.interpreter_cases)


def test_a_checkpoint_cannot_draw_a_shape_only_once() -> None:
    data = ALL["c3a-softmax"].definition.model_dump()
    data["draws_per_case"] = 1
    with pytest.raises(ValueError):
        CheckpointDef.model_validate(data)


def test_unknown_checkpoint_is_a_clear_error() -> None:
    with pytest.raises(CheckpointError, match="unknown checkpoint 'nope'"):
        checkpoints.get("nope")


def test_lazy_tensor_subclass_is_not_accepted(grade_source: GradeFn) -> None:
    from tests.conftest import FIXTURES

    result = grade_source((FIXTURES / "gpu" / "lazy_subclass.py").read_text())
    assert result.verdict is Verdict.FORBIDDEN  # a class: refused before it runs
    assert "class" in " ".join(result.messages)


def test_work_deferred_to_a_thread_is_forbidden(grade_source: GradeFn) -> None:
    from tests.conftest import FIXTURES

    result = grade_source((FIXTURES / "gpu" / "thread_deferred.py").read_text())
    assert result.verdict is Verdict.FORBIDDEN
    assert "threading" in " ".join(result.messages)


def test_large_outputs_check_every_config_on_a_sample(
    grade_source: GradeFn, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bug seen on the H200: 20 configs × 128 MB outputs overflowed the result stream and the
    child was killed before its last cases. Configs after the first now come back sampled."""
    from grader import pipeline
    from grader.sandbox.bwrap import Limits

    monkeypatch.setattr(pipeline, "FULL_CHECK_ELEMENTS", 1000)
    monkeypatch.setattr(pipeline, "SAMPLE_ELEMENTS", 256)
    folder = ALL["c3a-softmax"].folder / "solutions"
    tight = Limits(wall_seconds=60, result_bytes=1 << 20)  # far below 20 whole outputs per case
    wrong = grade_source((folder / "wrong" / "lab_a1_autotune.py").read_text(), limits=tight)
    assert wrong.verdict is Verdict.WRONG_ANSWER
    text = " ".join(wrong.messages)
    assert "refused" not in text and "never returned" not in text, text
    assert any("sampled elements" in c.message for c in wrong.cases)
    assert len(wrong.configs) == 20 and sum(c.passed for c in wrong.configs) == 4
    right = grade_source((folder / "correct" / "lab_a1_pruned.py").read_text(), limits=tight)
    assert right.verdict is Verdict.CORRECT, right.messages


def test_a_wrong_answer_seen_before_a_timeout_is_reported(grade_fixture: GradeFn) -> None:
    """A kernel that is wrong and then hangs counted its calls in a module-level list: host
    state between calls, refused before anything runs since issue 28 (no stateless file can
    be wrong on one call and then hang: the calls' order is drawn in the child)."""
    result = grade_fixture("wrong_then_hangs.py", wall_seconds=8)
    assert result.verdict is Verdict.FORBIDDEN, result.messages
    assert "no state between calls" in " ".join(result.messages)


def test_a_file_saved_with_a_byte_order_mark_is_graded_as_python_reads_it(
    grade_source: GradeFn,
) -> None:
    """Python skips a UTF-8 BOM at the start of a file; an editor that writes one (Windows
    Notepad) must not turn an honest kernel into a syntax error."""
    source = "\ufeff" + ALL["c3a-softmax"].reference_solution.read_text()
    result = grade_source(source, "c3a-softmax")
    assert result.verdict is Verdict.CORRECT, result.messages[:3]
