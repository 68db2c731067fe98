"""Turning what the sandbox returned into a verdict, per-case results and per-config results.

Everything here runs in the trusted parent on data it validated itself: the child's frames only
carry bytes that were compared against references the child never saw.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from grader.judge.casegroups import MISSING
from grader.judge.collect import Collected, Record
from grader.judge.hidden import withheld_message
from grader.models import CaseResult, ConfigResult, Verdict
from grader.plan.runs import PlannedRun
from grader.sandbox.bwrap import RunOutcome
from grader.text import untrusted


@dataclass
class Hints:
    """The causes a wrong output's kind can have on this checkpoint, said after such a
    failure: only where they can apply (a hint on every NaN named an overflowed exp() on a
    vector add). The unwritten-element cause is said where the poison shows it (NaN)."""

    declared: dict[str, str] = dataclasses.field(default_factory=dict)  # CheckpointDef.hints
    poison_nan: bool = True

    def lines(self, cases: list[CaseResult]) -> list[str]:
        kinds = dict.fromkeys(c.failure for c in cases if not c.passed and c.failure)
        out = []
        if "nan" in kinds and self.poison_nan:
            out.append(
                "Outputs are pre-filled with NaN, so an element your kernel never wrote shows "
                "up as NaN: check that the grid and the masks cover every element."
            )
        return out + [self.declared[k] for k in kinds if self.declared.get(k)]


@dataclass
class Evaluation:
    verdict: Verdict
    cases: list[CaseResult]
    configs: list[ConfigResult]
    messages: list[str]
    ran_cases: bool


_BLOCK = re.compile(r"(\w*BLOCK\w*)=(\d+)")


def _config_hint(configs: list[ConfigResult], rows: bool) -> list[str]:
    """How many configs are wrong, and a fix where the failures show its cause. The configs
    themselves are listed once, by the view (the page's table, the CLI report's lines): the
    page showed them twice when this message listed them too. `rows`: the failing cases are
    2-D (a row is their last dimension), where a block narrower than the row can explain them."""
    bad = [c for c in configs if not c.passed]
    good = [c for c in configs if c.passed]
    if not bad:
        return []
    lines = [
        f"{len(bad)} of {len(configs)} autotune configs give wrong results (each with the "
        "widths it is wrong for under the autotune configs). Every config is checked because "
        "on a GPU the autotuner keeps the fastest one, right or wrong."
    ]
    # a block narrower than the row explains a config's failures only where it is wrong on
    # rows wider than its block and no narrower one (a config wrong on width 1 has another fault)
    too_small = [
        c
        for c in bad
        if rows
        and (m := _BLOCK.findall(c.config))
        and c.failed_widths
        and any(int(v) < min(c.failed_widths) for _, v in m)
    ]
    if too_small:
        name = _BLOCK.findall(too_small[0].config)[0][0]
        lines.append(
            f"These configs have {name} smaller than the row, so the kernel never touches the "
            f"columns past {name}. Fix: prune them per call, e.g. "
            f"@triton.autotune(..., prune_configs_by={{'early_config_prune': lambda configs, "
            f"nargs, **kw: [c for c in configs if c.kwargs['{name}'] >= nargs['n_cols']]}}), "
            f"or compute {name} = triton.next_power_of_2(n_cols) in the wrapper."
        )
    if good:
        lines.append(f"{len(good)} config(s) are correct on every case they were run on.")
    return lines


def _error_verdict(err: dict[str, Any]) -> Verdict:
    if err.get("compile"):
        return Verdict.COMPILE_ERROR
    if err.get("kind") in {"MemoryError", "OutOfMemoryError"} or "can't allocate memory" in str(
        err.get("message", "")
    ):
        return Verdict.MEMORY_LIMIT
    return Verdict.RUNTIME_ERROR


def evaluate(
    runs: list[PlannedRun],
    collected: Collected,
    outcome: RunOutcome,
    show_hidden: bool,
    fenced: bool = False,
    hints: Hints | None = None,
) -> Evaluation:
    """`fenced`: the child ran under the interpreter, where every tensor ends next to a page it
    cannot touch (harness/fenced.py), so a SIGSEGV is a load or store out of bounds. A run that
    stopped at a libdevice function the interpreter cannot run is left to the GPU stage, as
    bf16 cases are where the interpreter cannot compute bf16: said, never a compile error.
    Calls are taken in the plan's order (the checkpoint's declared cases, then draws), not the
    order the child ran them in (shuffled: harness/child.py), so a result's cases keep the
    checkpoint's order from one grading to the next."""
    collected = dataclasses.replace(
        collected, records=sorted(collected.records, key=lambda rec: rec.run.id)
    )
    left = _left_to_gpu(collected)
    all_runs = runs
    if left:
        kept = [rec for rec in collected.records if rec.run.id not in left]
        collected = dataclasses.replace(collected, records=kept)
        runs = [r for r in runs if r.id not in left]
    cases = _case_results(runs, collected, outcome, show_hidden)
    configs = _config_results(collected.records, cases)
    seen = _Seen.of(runs, collected)
    verdict, messages = _verdict(seen, collected, outcome, cases)
    if verdict is Verdict.WRONG_ANSWER:
        names = {r.case.name for r in runs}
        rows = all(len(r.case.shape) >= 2 for r in runs)
        messages += _wrong_messages(cases, len(names), configs, rows)
        messages += (hints or Hints()).lines(cases)
    messages += _exit_messages(seen, collected, outcome, len(runs), fenced)
    if left:
        unchecked = [r for r in all_runs if r.id in left]
        messages.append(gpu_only_message(left, len(all_runs), unchecked, show_hidden))
        if verdict is Verdict.CORRECT:  # the submission decided what was left unchecked
            verdict = Verdict.UNCHECKED
    return Evaluation(verdict, cases, configs, messages, ran_cases=bool(collected.records))


def _left_to_gpu(collected: Collected) -> dict[int, str]:
    """Run id -> the libdevice function its call stopped at under the interpreter (the child's
    word `GpuOnly`, harness/interp_libdevice.py), for runs that did nothing else refused."""
    left: dict[int, str] = {}
    for rec in collected.records:
        err = rec.error or {}
        if err.get("kind") == "GpuOnly" and not rec.forbidden:
            left[rec.run.id] = untrusted(err.get("gpu_only", "?"), 60)
    return left


def gpu_only_message(
    left: dict[int, str], n_runs: int, unchecked: list[PlannedRun], show_hidden: bool
) -> str:
    """Which cases the submission's own code kept from this CPU check. Their calls were not
    compared here, so the precheck cannot be `correct` (evaluate: UNCHECKED): only a GPU,
    which runs every case, can decide."""
    names = ", ".join(  # (the names harness/interp_libdevice.label gives)
        n if n.startswith("tl.") else f"libdevice.{n}" for n in sorted(set(left.values()))[:4]
    )
    shown = list(
        dict.fromkeys(
            r.case.name if show_hidden or not r.case.hidden else "hidden cases" for r in unchecked
        )
    )
    cases = ", ".join(shown[:8]) + (", …" if len(shown) > 8 else "")
    return (
        f"{names} cannot run under Triton's interpreter (this CPU check), so {len(left)} of "
        f"{n_runs} calls (cases: {cases}) could not be checked on the CPU: their values are "
        "checked on a GPU only. Where the grader has a GPU, the GPU stage runs every case and "
        "decides; without one, this file's correctness could not be checked on the CPU, so it "
        "cannot reach level 2 here. The compile check compiled your kernels for a GPU."
    )


@dataclass
class _Seen:
    """What the child's records show, as typed facts: the verdict is decided from these."""

    forbidden: list[str]  # aten ops the entry ran outside its kernels
    no_launch: bool  # a call that returned without launching a kernel
    errors: list[dict[str, Any]]  # the calls that raised, in order
    compared_wrong: bool  # an output compared and wrong
    missing: list[PlannedRun]  # runs that never returned a result

    @classmethod
    def of(cls, runs: list[PlannedRun], collected: Collected) -> _Seen:
        records = collected.records
        seen_runs = {rec.run.id for rec in records}
        return cls(
            forbidden=list(dict.fromkeys(f for rec in records for f in rec.forbidden)),
            no_launch=any(rec.error is None and rec.launches == 0 for rec in records),
            errors=[rec.error for rec in records if rec.error is not None],
            compared_wrong=any(
                rec.comparison is not None and not rec.comparison.passed for rec in records
            ),
            missing=[r for r in runs if r.id not in seen_runs],
        )


def _record_case(rec: Record, show_hidden: bool) -> CaseResult:
    """One call's result, as the student sees it (a hidden case by number only)."""
    # `hidden` marks a hidden case in the result (views withhold it: grader/judge/hidden.py);
    # without show_hidden its details are left out of the result itself
    hidden = rec.run.case.hidden and not show_hidden
    nonfinite = 0
    if rec.error is not None:
        passed, err, msg, kind = False, None, str(rec.error.get("message", "")), "error"
    else:
        assert rec.comparison is not None
        c = rec.comparison
        passed, err, msg, kind = c.passed, c.max_abs_err, c.message, c.kind or "values"
        nonfinite = c.nonfinite
    return CaseResult(
        name=rec.run.case.name if not hidden else f"hidden-{rec.run.id}",
        passed=passed,
        max_abs_err=err,
        message=msg if not hidden else ("" if passed else withheld_message(kind)),
        failure="" if passed else kind,
        nonfinite=nonfinite,
        shape=None if hidden else rec.run.case.shape,
        dtype=None if hidden else rec.run.case.dtype,
        draw=rec.run.draw,
        config=rec.config,
        hidden=rec.run.case.hidden,
    )


def _missing_case(r: PlannedRun, show_hidden: bool) -> CaseResult:
    """A run the child never answered."""
    hidden = r.case.hidden and not show_hidden
    return CaseResult(
        name=r.case.name if not hidden else f"hidden-{r.id}",
        passed=False,
        message=MISSING,
        failure="crashed",
        shape=None if hidden else r.case.shape,
        dtype=None if hidden else r.case.dtype,
        draw=r.draw,
        hidden=r.case.hidden,
    )


def _case_results(
    runs: list[PlannedRun], collected: Collected, outcome: RunOutcome, show_hidden: bool
) -> list[CaseResult]:
    """Each call's result, in the order they came, then the runs never answered (unless the
    child was killed for its time or memory: then the limit is the answer)."""
    cases = [_record_case(rec, show_hidden) for rec in collected.records]
    killed = outcome.timed_out or outcome.memory_exceeded
    if collected.ready and not killed:
        seen = {rec.run.id for rec in collected.records}
        cases += [_missing_case(r, show_hidden) for r in runs if r.id not in seen]
    return cases


def _config_results(records: list[Record], cases: list[CaseResult]) -> list[ConfigResult]:
    """Per autotune config: right on every case it ran, or the cases and widths it failed."""
    configs: dict[str, ConfigResult] = {}
    for rec, case in zip(records, cases, strict=False):
        if rec.config is None:
            continue
        c = configs.setdefault(rec.config, ConfigResult(config=rec.config, passed=True))
        if not case.passed:
            c.passed = False
            if rec.run.case.name not in c.failed_cases:
                c.failed_cases.append(rec.run.case.name)
            width = rec.run.case.shape[-1] if rec.run.case.shape else 1
            if width not in c.failed_widths:
                c.failed_widths = sorted([*c.failed_widths, width])
    return list(configs.values())


def _verdict(
    seen: _Seen, collected: Collected, outcome: RunOutcome, cases: list[CaseResult]
) -> tuple[Verdict, list[str]]:
    """The verdict, from the sandbox's own accounting first, then what the records show; with
    the message that says why."""
    if outcome.timed_out:
        # A wrong answer already seen says more than the timeout that followed it.
        return Verdict.WRONG_ANSWER if seen.compared_wrong else Verdict.TIME_LIMIT, [
            f"Time limit: the submission ran past {outcome.wall:.0f} s and was stopped "
            "(an endless loop, or a kernel far too slow for the interpreter's small cases)."
        ]
    if outcome.memory_exceeded:
        return Verdict.WRONG_ANSWER if seen.compared_wrong else Verdict.MEMORY_LIMIT, [
            f"Memory limit: the submission used more than its host-memory limit "
            f"({outcome.peak_rss / 2**30:.1f} GiB seen) and was stopped."
        ]
    if collected.import_error is not None:
        verdict = _error_verdict(collected.import_error)
        stage = "compiling" if verdict is Verdict.COMPILE_ERROR else "importing"
        return verdict, [f"Error while {stage} your file: {collected.import_error.get('message')}"]
    if seen.forbidden:
        # an operation's name ("torch.softmax") or a sentence (state kept, a launch refused)
        ops = [f for f in seen.forbidden if " " not in f.strip()]
        said = [f for f in seen.forbidden if " " in f.strip()]
        lines = [f"Refused: {f[0].upper()}{f[1:]}." for f in dict.fromkeys(said[:4])]
        if ops:
            lines.insert(
                0,
                "Your entry computes with PyTorch instead of Triton: it ran "
                + ", ".join(dict.fromkeys(ops[:8]))
                + ". Only allocation, views and copies may run outside your Triton kernels.",
            )
        return Verdict.FORBIDDEN, lines
    if seen.no_launch:
        return Verdict.FORBIDDEN, [
            "Your entry returned without launching any Triton kernel. The checkpoint asks for "
            "the work to be done in a @triton.jit kernel."
        ]
    if seen.errors and not seen.compared_wrong:
        first = next(c for rec, c in zip(collected.records, cases, strict=False) if rec.error)
        return _error_verdict(seen.errors[0]), [
            f"Error while running case '{first.name}': {seen.errors[0].get('message')}"
        ]
    if seen.compared_wrong:
        return Verdict.WRONG_ANSWER, []
    if seen.missing or not collected.done or outcome.reader_error:
        return Verdict.RUNTIME_ERROR, []
    return Verdict.CORRECT, []


def _wrong_messages(
    cases: list[CaseResult], n_cases: int, configs: list[ConfigResult], rows: bool
) -> list[str]:
    """A wrong answer: how many cases, the first failure in full, a hint where one fits."""
    wrong = [c for c in cases if not c.passed and c.message != MISSING]
    names = list(dict.fromkeys(c.name for c in wrong))
    first = wrong[0]
    messages = [
        f"Wrong on {len(names)} of {n_cases} cases ({', '.join(names[:6])}"
        f"{', …' if len(names) > 6 else ''}). First failure: case '{first.name}'"
        + (f" {tuple(first.shape)} {first.dtype}" if first.shape else "")
        + (f", draw {first.draw + 1}" if first.draw else "")
        + (f", config {first.config}" if first.config else "")
        + f": {first.message}"
    ]
    if any(c.draw > 0 for c in wrong) and all(
        c.passed for c in cases if c.draw == 0 and c.config == first.config
    ):
        messages.append(
            "Your entry was right on the first draw of each shape and wrong on later ones "
            "with different data: does it cache or reuse an earlier answer?"
        )
    return messages + _config_hint(configs, rows)


def _exit_messages(
    seen: _Seen, collected: Collected, outcome: RunOutcome, n_runs: int, fenced: bool
) -> list[str]:
    """How the child's process ended, when it ended before answering every run (and nothing
    else explains it), and a result stream the parent refused."""
    messages = []
    killed = outcome.timed_out or outcome.memory_exceeded
    unfinished = seen.missing or not collected.done
    if unfinished and not killed and not collected.import_error and not seen.errors:
        how = (
            f"was killed by {outcome.signal_name}"
            if outcome.signal_name
            else f"exited with status {outcome.returncode}"
        )
        messages.append(
            f"The submission's process {how} before finishing "
            f"({len(seen.missing)} of {n_runs} runs never returned a result)"
            + _signal_hint(outcome.signal_name, fenced)
        )
    if outcome.reader_error:
        refused = untrusted(outcome.reader_error, 300)
        messages.append(f"The submission's result stream was refused: {refused}.")
    return messages


def _signal_hint(signal_name: str | None, fenced: bool) -> str:
    if fenced and signal_name == "SIGSEGV":
        return (
            ". Under the interpreter every tensor your entry is given or makes ends next to "
            "a page the process may not touch, so this was most likely a load or store past "
            "the end of a tensor (or before its start): check the masks of your loads and "
            "stores."
        )
    if signal_name in {"SIGSEGV", "SIGBUS", "SIGABRT"}:
        return ". A SIGSEGV usually means an out-of-bounds load or store: check your masks."
    return "."
