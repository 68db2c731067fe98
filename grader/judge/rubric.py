"""The C3a rubric: a level from 0 to 4 and the sentence that explains it."""

from __future__ import annotations

from grader.checkpoints import Checkpoint
from grader.models import GradeResult, Ratio, RubricSpec, Verdict

LEVEL0 = {
    Verdict.COMPILE_ERROR,
    Verdict.FORBIDDEN,
    Verdict.TIME_LIMIT,
    Verdict.MEMORY_LIMIT,
    Verdict.INTERNAL_ERROR,
    Verdict.UNCHECKED,  # no evidence either way until a GPU has run every case
}


def level(result: GradeResult, level3_reasons: list[str] | None) -> int:
    """0: no valid attempt; 1: runs but wrong; 2: correct without evidence of a win;
    3: correct and a proven win with backed explanation (decided by the GPU stage);
    4 is only ever set by an instructor's approval. `level3_reasons` is None when no GPU
    stage ran, else the reasons level 3 was not earned (empty: earned)."""
    if result.verdict in LEVEL0:
        return 0
    if result.verdict is Verdict.RUNTIME_ERROR:
        # It imported and ran: a crash inside a case is a wrong answer that did not finish.
        return 1 if result.cases else 0
    if result.verdict is Verdict.WRONG_ANSWER:
        return 1
    if level3_reasons is not None and not level3_reasons:
        return 3
    return 2


_WHY = {
    Verdict.COMPILE_ERROR: "your file or your kernel does not compile",
    Verdict.FORBIDDEN: "the submission does something the checkpoint does not allow",
    Verdict.TIME_LIMIT: "it ran past the time limit",
    Verdict.MEMORY_LIMIT: "it used more memory than allowed",
    Verdict.INTERNAL_ERROR: "the grader failed (not your fault; it will be retried or looked at)",
    Verdict.RUNTIME_ERROR: "it crashed while running",
    Verdict.WRONG_ANSWER: "it runs, but its output is wrong on at least one case",
    Verdict.UNCHECKED: "its correctness could not be checked on the CPU (only a GPU can run "
    "some of its cases)",
}


def headline(result: GradeResult, device: str) -> str:
    if result.verdict is Verdict.CORRECT:
        n = len({c.name for c in result.cases})
        runs = len(result.cases)
        where = "under the Triton interpreter" if device == "cpu" else "on the GPU"
        configs = f", {len(result.configs)} autotune configs each" if result.configs else ""
        return (
            f"Level {result.level}: correct on all {n} cases {where} ({runs} calls: each "
            f"shape drawn at least twice with fresh random inputs{configs})."
        )
    return f"Level {result.level} ({result.verdict.value}): {_WHY[result.verdict]}."


def win_text(spec: RubricSpec) -> str:
    """What level 3's speedup test asks, in the rubric's own bound: "faster than" where the
    bound is 1 or more, "as fast as" where it is below (vector add's 0.95: torch's add already
    runs at DRAM bandwidth)."""
    bound = spec.min_speedup_lower_bound
    how = "faster than" if bound >= 1 else "as fast as"
    return (
        f"{how} the '{spec.baseline}' baseline (the lower bound of the speedup's 95 % "
        f"interval above {bound:g})"
    )


def not_shown(spec: RubricSpec, gm: Ratio, shapes: int = 0) -> str:
    """Why a measured speedup does not meet level 3's test (`win_text`)."""
    goal = "beat" if spec.min_speedup_lower_bound >= 1 else "match"
    over = f", geometric mean over {shapes} shapes" if shapes else ""
    return (
        f"Not shown to {goal} '{spec.baseline}': speedup {gm.median:.2f}× (95 % CI "
        f"{gm.low:.2f}–{gm.high:.2f}×{over}); level 3 needs the lower bound above "
        f"{spec.min_speedup_lower_bound:g}."
    )


def cpu_ceiling_message(checkpoint: Checkpoint) -> str:
    baseline = checkpoint.definition.rubric.baseline
    if checkpoint.definition.rubric.level3 == "explained_gap":
        return (
            "Not benchmarked: no GPU here, so level 2 is the most a CPU grading gives. Level 3 "
            f"needs a GPU grading against the '{baseline}' baseline (losing to it costs "
            "nothing), Nsight metrics, and an explanation that quantifies the gap, backed by "
            "the measurements."
        )
    return (
        "Not benchmarked: no GPU here, so level 2 is the most a CPU grading gives. Level 3 "
        f"needs a GPU grading that shows the kernel {win_text(checkpoint.definition.rubric)}, "
        "Nsight metrics, and an explanation backed by them."
    )


def level3_message(checkpoint: Checkpoint) -> str:
    if checkpoint.definition.rubric.level3 == "explained_gap":
        return (
            f"Level 3: correct, timed against the '{checkpoint.definition.rubric.baseline}' "
            "baseline, Nsight evidence collected, and an explanation of the gap the "
            "measurements back. Level 4 comes from an instructor's approval of a contribution "
            "(a merged kernel PR or a GPU MODE leaderboard entry)."
        )
    return (
        f"Level 3: correct, {win_text(checkpoint.definition.rubric)}, Nsight evidence "
        "collected, and an explanation the measurements back. Level 4 comes from an "
        "instructor's approval of a contribution (a merged kernel PR or a GPU MODE leaderboard "
        "entry)."
    )
