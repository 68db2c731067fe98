"""A checkpoint opens only after a validation run: its reference grades correct, every
known-bad solution gets the verdict it names, its starter is not accepted as is, and its
tolerances reject trivial and approximate answers on every case (the tolerance rule, below).

The gradings are independent sandboxed runs, so they run side by side, one per core. Each
check is reported as it finishes (`on_progress`), so that a caller can show the run live: the
service's validation task stores each one as it comes.

problem.py is first imported in its own sandboxed process (grader/sandbox/problem.py), which
every grading of the run then shares; one that does not load fails the check `problem.py`
and nothing is graded."""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import torch

from grader.checkpoints import Arg, Checkpoint, CheckpointError
from grader.models import CaseSpec, CheckpointDef, Tolerance
from grader.options import GradeOptions
from grader.pipeline import grade, resolve_device
from grader.plan.inputs import usable_cpus
from grader.sandbox import problem


@dataclass
class Check:
    name: str
    expected: str
    got: str
    ok: bool
    reason: str = ""  # why the grading got what it got (its first message after the headline)


@dataclass(frozen=True)
class _Planned:
    name: str
    path: Path
    expect: str  # the verdict it must get; "a|b" accepts either
    wanted: bool  # passes when the verdict is expected (True) or when it is not (False)


# The checks so far, in their fixed order: None for those still running.
Progress = Callable[[list[Check | None]], None]


def _plan(checkpoint: Checkpoint) -> list[_Planned]:
    """The gradings, in the checks' fixed order: reference, each wrong solution, starter."""
    plan = [_Planned("reference.py", checkpoint.reference_solution, "correct", True)]
    for wrong in checkpoint.wrong_solutions():
        plan.append(_Planned(f"solutions/wrong/{wrong.path.name}", wrong.path, wrong.expect, True))
    if checkpoint.starter is not None:
        plan.append(_Planned("starter.py", checkpoint.starter, "correct", False))
    return plan


def _run(item: _Planned, checkpoint: Checkpoint, options: GradeOptions) -> Check:
    result = grade(item.path.read_text(), checkpoint, options)
    verdict = result.verdict.value
    ok = (verdict in item.expect.split("|")) == item.wanted
    expected = item.expect if item.wanted else f"not {item.expect}"
    return Check(item.name, expected, verdict, ok, _reason(result.messages))


def _reason(messages: list[str]) -> str:
    """Why the grading got its verdict: the message after the headline (which only restates
    the verdict: "Level 1 (wrong_answer): it runs, but …"), else the headline."""
    return messages[1] if len(messages) > 1 else messages[0] if messages else ""


def validate(
    checkpoint: Checkpoint,
    options: GradeOptions,
    workers: int | None = None,
    on_progress: Progress | None = None,
) -> list[Check]:
    """The checks in a fixed order: reference, each wrong solution, starter, the tolerance
    rule (`tolerance_check`: every tolerance rejects trivial answers). `workers`:
    gradings at a time (default: one per core). `on_progress`, if given, is called with the
    checks so far (None where one still runs) once before the first grading and again as
    each check finishes, from the calling thread."""
    sandboxed = not options.unsafe_no_sandbox
    checkpoint = problem.attach(
        checkpoint, resolve_device(options.device), sandboxed, options.limits
    )
    try:
        loaded = _loads(checkpoint)
        if loaded is not None:
            if on_progress is not None:
                on_progress([loaded])
            return [loaded]
        return _validate(checkpoint, options, workers, on_progress)
    finally:
        problem.release(checkpoint.folder)


def _loads(checkpoint: Checkpoint) -> Check | None:
    """None if problem.py loads in its sandbox and defines what a checkpoint needs, else the
    failed check that says why."""
    try:
        declared = checkpoint.problem.declared()
    except CheckpointError as exc:  # it raised (at its line), or its process failed
        return Check("problem.py", "loads", "does not load", False, str(exc))
    missing = [f for f in ("make_inputs", "reference") if f not in declared.functions]
    if missing:
        why = "missing function " + ", ".join(f"{f}()" for f in missing)
        return Check("problem.py", "loads", "incomplete", False, why)
    return None


def _validate(
    checkpoint: Checkpoint,
    options: GradeOptions,
    workers: int | None,
    on_progress: Progress | None,
) -> list[Check]:
    plan = _plan(checkpoint)
    checks: list[Check | None] = [None] * len(plan)
    if not checkpoint.wrong_solutions():
        checks.append(Check("solutions/wrong/", "at least one", "none", False))
    checks.append(None)  # the tolerance rule's, last: it runs here, beside the gradings
    if on_progress is not None:
        on_progress(list(checks))
    with ThreadPoolExecutor(max_workers=max(1, workers or usable_cpus())) as pool:
        running = {pool.submit(_run, item, checkpoint, options): i for i, item in enumerate(plan)}
        running[pool.submit(tolerance_check, checkpoint)] = len(checks) - 1
        for future in as_completed(running):
            checks[running[future]] = future.result()
            if on_progress is not None:
                on_progress(list(checks))
    return [c for c in checks if c is not None]


# --- the tolerance rule ----------------------------------------------------------------------
# A tolerance must reject what is not an answer. On every case (drawn with fixed seeds, so a
# checkpoint always gets the same verdict), each of these is compared with the reference under
# the case's dtype's tolerance, and a checkpoint under which one passes on every draw of a case
# is refused with the numbers: zeros, the best constant (the reference's mean), the input
# itself, the output of the draw before ("last round's"), the reference moved by half an ulp of
# the next coarser dtype (the worst rounding through it), and the checkpoint's named shortcuts
# (problem.py's SHORTCUTS). An answer equal to the reference (a constant on a width-1 softmax)
# proves nothing either way and is skipped.

RULE_ELEMENTS = 1 << 16  # a large case is checked shrunk (leading dimensions first) to this
SMALL_OUTPUT = 64  # outputs this small are drawn RULE_DRAWS_SMALL times: luck must repeat
RULE_DRAWS, RULE_DRAWS_SMALL = 2, 8
INDISTINCT = 2  # ulps of the output's dtype: an answer this close is an honest one's rounding
# "only the outputs above atol written" is tried where it would save a store on this many
LARGER_ONLY_FRACTION = 0.1
# the next coarser dtype per output dtype, by its mantissa bits: rounding through it errs by up
# to half an ulp, 2^-(bits + 1) of the value
COARSER = {"float32": ("float16", 10), "float16": ("bfloat16", 7), "bfloat16": ("float8", 3)}


@dataclass
class Loose:
    """An answer a tolerance accepts: the case, the answer, its largest error and what the
    tolerance allows there (the worst ratio of the two is at most 1, or it would fail)."""

    case: str
    dtype: str
    answer: str
    max_err: float
    worst: float  # the largest error / (atol + rtol·|reference|) over the output
    atol: float
    rtol: float

    def text(self) -> str:
        return (
            f"{self.dtype} tolerance (atol {self.atol:g}, rtol {self.rtol:g}) accepts "
            f"{self.answer} on {self.case}: its largest error {self.max_err:.3g} is "
            f"{self.worst:.2f} of what the tolerance allows there"
        )


def _shrunk(case: CaseSpec) -> CaseSpec:
    """The case with its leading dimensions halved until it has RULE_ELEMENTS (a 1-D one its
    only one): rows, batches and heads repeat what one of them shows."""
    shape = list(case.shape)
    for i in range(max(1, len(shape) - 1)):
        while math.prod(shape) > RULE_ELEMENTS and shape[i] > 1:
            shape[i] = (shape[i] + 1) // 2
    return case if shape == case.shape else case.model_copy(update={"shape": shape})


def rule_cases(d: CheckpointDef) -> list[CaseSpec]:
    """The cases the rule is proven on: every correctness case, and every benchmark shape
    under each of the timed rounds' input families."""
    out = [*d.interpreter_cases, *d.gpu_cases]
    for shape in d.benchmark_shapes:
        for family in d.families():
            params = {**family, **shape.params}
            label = ", ".join(f"{k}={v}" for k, v in family.items())
            name = f"{shape.name} (timed{', ' + label if label else ''})"
            out.append(shape.model_copy(update={"name": name, "params": params}))
    return out


def _answers(
    checkpoint: Checkpoint, inputs: list[Arg], ref: torch.Tensor, before: torch.Tensor, atol: float
) -> tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]:
    """(the trivial answers, the checkpoint's named shortcuts) for one draw."""
    out: dict[str, torch.Tensor] = {"zeros": torch.zeros_like(ref)}
    finite = ref[torch.isfinite(ref)].to(torch.float64)
    if finite.numel():
        out["a constant (the reference's mean)"] = torch.full_like(ref, float(finite.mean()))
    first = next((a for a in inputs if isinstance(a, torch.Tensor)), None)
    if first is not None and tuple(first.shape) == tuple(ref.shape):
        out["the input itself"] = first.to(ref.dtype)
    if tuple(before.shape) == tuple(ref.shape):
        out["the output of the draw before"] = before
        small = ref.abs() <= atol
        if float(small.float().mean()) >= LARGER_ONLY_FRACTION:  # a store saved on many
            out[f"only the outputs above atol written (the draw before's on {_pct(small)})"] = (
                torch.where(small, before, ref)
            )
    coarse = COARSER.get(str(ref.dtype).removeprefix("torch."))
    if coarse is not None:
        wide = ref.to(torch.float64)
        moved = wide + wide.abs() * 2.0 ** -(coarse[1] + 1)
        out[f"the reference rounded through {coarse[0]} (half an ulp)"] = moved.to(ref.dtype)
    named: dict[str, torch.Tensor] = {}
    # computed in problem.py's own sandboxed process, like everything of problem.py's
    for name, got in checkpoint.problem.shortcuts(inputs).items():
        named[f"the shortcut '{name}'"] = got.to(ref.dtype).reshape(ref.shape)
    return out, named


def _pct(mask: torch.Tensor) -> str:
    return f"{100 * float(mask.float().mean()):.0f} % of them"


def _case_draws(checkpoint: Checkpoint, case: CaseSpec) -> list[tuple[list[Arg], torch.Tensor]]:
    draws = []
    for seed in range(RULE_DRAWS_SMALL):
        inputs = checkpoint.make_inputs(case, torch.Generator().manual_seed(0x70_1E + seed))
        draws.append((inputs, checkpoint.reference(inputs)))
        if seed + 1 >= RULE_DRAWS and draws[0][1].numel() > SMALL_OUTPUT:
            break
    return draws


def _accepted(
    checkpoint: Checkpoint, case: CaseSpec, tol: Tolerance
) -> tuple[dict[str, tuple[float, float]], dict[str, tuple[float, float]]]:
    """The answers (trivial, named) the tolerance accepts on every draw of `case`, each with
    its worst (largest error, error over what is allowed)."""
    draws = _case_draws(checkpoint, _shrunk(case))
    kept: list[dict[str, tuple[float, float]]] = [{}, {}]
    for i, (inputs, ref) in enumerate(draws):
        answers = _answers(checkpoint, inputs, ref, draws[i - 1][1], tol.atol)
        wide = ref.to(torch.float64)
        allowed = wide.abs().mul_(tol.rtol).add_(tol.atol)
        floor = _ulps(wide, ref.dtype)
        for group, seen in zip(answers, kept, strict=True):
            for name, answer in group.items():
                if i > 0 and name not in seen:
                    continue  # rejected, or equal to the reference, on an earlier draw
                margin = _margin(answer.to(torch.float64), wide, allowed, floor)
                if margin is None:
                    seen.pop(name, None)
                    continue
                was = seen.get(name, (0.0, 0.0))
                seen[name] = (max(margin[0], was[0]), max(margin[1], was[1]))
    return kept[0], kept[1]  # accepted on the first draw and on none rejected since


def loose_tolerances(checkpoint: Checkpoint) -> list[Loose]:
    """What the tolerances accept that they must not: a trivial answer on any case (every
    draw of it), a named shortcut on every case of a dtype. Empty: they mean something."""
    d = checkpoint.definition
    found: list[Loose] = []
    shortcut_cases: dict[tuple[str, str], list[tuple[str, float, float]]] = {}
    counted: dict[str, int] = {}
    for case in rule_cases(d):
        tol = d.tolerances.get(case.dtype)
        if tol is None:
            continue
        trivial, named = _accepted(checkpoint, case, tol)
        for name, (err, worst) in trivial.items():
            where = f"case {case.name}"
            found.append(Loose(where, case.dtype, name, err, worst, tol.atol, tol.rtol))
        counted[case.dtype] = counted.get(case.dtype, 0) + 1
        for name, (err, worst) in named.items():
            shortcut_cases.setdefault((case.dtype, name), []).append((case.name, err, worst))
    for (dtype, name), cases in shortcut_cases.items():
        if len(cases) == counted[dtype]:  # no case of this dtype rejects it
            tol = d.tolerances[dtype]
            _, err, worst = max(cases, key=lambda c: c[2])
            where = f"every {dtype} case ({len(cases)})"
            found.append(Loose(where, dtype, name, err, worst, tol.atol, tol.rtol))
    return found


def _ulps(wide: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """INDISTINCT ulps of `dtype` at each element of the reference (in float64)."""
    info = torch.finfo(dtype)
    bits = {torch.float32: 23, torch.float16: 10, torch.bfloat16: 7}.get(dtype, 52)
    _, exponent = torch.frexp(wide.abs().clamp_min(info.tiny))
    ulp = torch.ldexp(torch.ones_like(wide), exponent - 1 - bits)
    return ulp.clamp_min_(info.tiny * 2.0**-bits).mul_(INDISTINCT)


def _margin(
    a: torch.Tensor, r: torch.Tensor, allowed: torch.Tensor, floor: torch.Tensor
) -> tuple[float, float] | None:
    """(largest error, largest error over what is allowed) of an answer the tolerance accepts
    (judge/compare.py's rule: within atol + rtol·|ref|, NaN and ±Inf exactly); None when it
    rejects it, or it is within INDISTINCT ulps of the reference everywhere (then no tolerance
    an honest kernel passes could reject it: a constant on a case whose outputs all lie within
    an ulp of one another proves nothing either way)."""
    a_nan, r_nan = torch.isnan(a), torch.isnan(r)
    if not torch.equal(a_nan, r_nan):
        return None
    finite = torch.isfinite(r) & torch.isfinite(a)
    if not torch.equal(a[~finite & ~a_nan], r[~finite & ~r_nan]):
        return None  # an infinity where the reference has none, or the other sign
    err = (a - r).abs_().masked_fill_(~finite, 0.0)
    worst = float((err / allowed.masked_fill(~finite, 1.0)).max()) if err.numel() else 0.0
    biggest = float(err.max()) if err.numel() else 0.0
    if worst > 1.0 or bool((err <= floor).all()):
        return None
    return biggest, worst


def tolerance_check(checkpoint: Checkpoint) -> Check:
    """The rule as one of validation's checks: ok when every tolerance rejects every answer
    (a problem.py that fails while the rule draws its cases fails the check, with why)."""
    try:
        loose = loose_tolerances(checkpoint)
    except Exception as exc:  # an author's problem.py: said, never a traceback
        return Check(TOLERANCES, "rejects trivial answers", "could not run", False, _said(exc))
    got = "rejects them all" if not loose else f"accepts {len(loose)}"
    reason = "; ".join(x.text() for x in loose[:6]) + (" …" if len(loose) > 6 else "")
    return Check(TOLERANCES, "rejects trivial answers", got, not loose, reason)


TOLERANCES = "tolerances"


def _said(exc: Exception) -> str:
    return f"drawing the cases failed: {type(exc).__name__}: {str(exc)[:300]}"
