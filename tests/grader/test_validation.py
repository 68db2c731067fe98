"""Validating a checkpoint runs its gradings side by side; the checks must be the sequential
run's, in the same order (reference, wrong solutions, starter)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader import checkpoints, validation
from grader.options import GradeOptions
from grader.validation import validate


@pytest.mark.slow
def test_side_by_side_validation_gives_the_sequential_checks_in_order() -> None:
    ck = checkpoints.get("c3a-vector-add")
    options = GradeOptions(device="cpu")
    one = validate(ck, options, workers=1)
    three = validate(ck, options, workers=3)
    assert [c.name for c in three] == [c.name for c in one]
    assert one[0].name == "reference.py" and one[-2].name == "starter.py"
    assert one[-1].name == "tolerances" and one[-1].ok, one[-1].reason
    assert [(c.got, c.ok) for c in three] == [(c.got, c.ok) for c in one]
    assert all(c.ok for c in three), [(c.name, c.expected, c.got) for c in three]
    assert one[-2].expected == "not correct" and one[-2].got != "correct"


@pytest.mark.slow
def test_each_check_is_reported_as_it_finishes() -> None:
    ck = checkpoints.get("c3a-vector-add")
    seen: list[list[object]] = []
    checks = validate(ck, GradeOptions(device="cpu"), workers=2, on_progress=seen.append)
    assert seen[0] == [None] * len(checks)  # the plan, before any grading
    assert [sum(c is not None for c in s) for s in seen] == list(range(len(checks) + 1))
    assert seen[-1] == checks  # the last report is the result, in the fixed order
    assert checks[0].reason  # each check says why: the grading's first message


# --- the tolerance rule (issue 29) ---------------------------------------------------------


def _softmax_copy(tmp_path: Path, tolerances: str, families: bool = True) -> checkpoints.Checkpoint:
    folder = tmp_path / "c3a_softmax"
    shutil.copytree(checkpoints.get("c3a-softmax").folder, folder)
    toml = folder / "checkpoint.toml"
    text = toml.read_text()
    start = text.index("[tolerances]")
    end = text.index("[rubric]")
    text = text[:start] + "[tolerances]\n" + tolerances + "\n\n" + text[end:]
    if not families:
        a = text.index("input_families = [")
        text = text[:a] + text[text.index("]\n\n", a) + 3 :]
    toml.write_text(text)
    return checkpoints.load(folder)


def test_a_loose_tolerance_is_refused_with_the_numbers(tmp_path: Path) -> None:
    """c3a-softmax's tolerances before issue 29: bf16's atol 1e-2 is 40× a typical output at
    width 4096, and fp32's 1e-5 let the reference rounded through fp16 pass."""
    ck = _softmax_copy(
        tmp_path,
        "float32 = { atol = 1e-5, rtol = 1e-5 }\nfloat16 = { atol = 2e-3, rtol = 1e-2 }\n"
        "bfloat16 = { atol = 1e-2, rtol = 2e-2 }",
    )
    loose = validation.loose_tolerances(ck)
    texts = [x.text() for x in loose]
    assert any(
        x.dtype == "bfloat16" and x.answer == "zeros" and "scale=0.05" in x.case for x in loose
    ), texts
    assert any(x.dtype == "float32" and "rounded through float16" in x.answer for x in loose)
    assert any(x.dtype == "float16" and "rounded through bfloat16" in x.answer for x in loose)
    zeros = next(x for x in loose if x.answer == "zeros")
    assert zeros.max_err > 0 and 0 < zeros.worst <= 1.0
    assert f"largest error {zeros.max_err:.3g}" in zeros.text()
    assert "(atol 0.01, rtol 0.02) accepts zeros" in zeros.text()
    check = validation.tolerance_check(ck)
    assert not check.ok and check.got.startswith("accepts") and "largest error" in check.reason


def test_a_named_shortcut_accepted_on_every_case_of_a_dtype_is_refused(tmp_path: Path) -> None:
    """With rtol 20 % in bf16 and no input family of large magnitudes, the estimated row sum
    (2 % a row at width 4096) passes every bf16 case: the checkpoint's own named shortcut must
    be rejected somewhere."""
    ck = _softmax_copy(
        tmp_path,
        "float32 = { atol = 1e-8, rtol = 1e-5 }\nfloat16 = { atol = 1e-6, rtol = 2e-3 }\n"
        "bfloat16 = { atol = 1e-6, rtol = 2e-1 }",
        families=False,
    )
    named = [x for x in validation.loose_tolerances(ck) if "shortcut" in x.answer]
    assert [(x.dtype, x.answer) for x in named if "row sum" in x.answer] == [
        ("bfloat16", "the shortcut 'estimated row sum'")
    ], [x.text() for x in named]
    assert named[0].case.startswith("every bfloat16 case")


def test_an_answer_within_two_ulps_proves_nothing() -> None:
    """A constant where every output lies within an ulp of the others cannot be rejected by
    any tolerance an honest kernel passes: it is skipped, not held against the checkpoint."""
    import torch

    ref = torch.full((64,), 100.0, dtype=torch.float16) + torch.tensor(
        0.0625, dtype=torch.float16
    ) * (torch.arange(64) % 2).to(torch.float16)
    wide = ref.double()
    tol_allowed = wide.abs() * 1.5e-3 + 5e-4
    const = torch.full_like(wide, float(wide.mean()))
    assert validation._margin(const, wide, tol_allowed, validation._ulps(wide, ref.dtype)) is None


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(checkpoints.builtins()))
def test_every_builtin_passes_the_tolerance_rule(name: str) -> None:
    loose = validation.loose_tolerances(checkpoints.get(name))
    assert not loose, [x.text() for x in loose]
