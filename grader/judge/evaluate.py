"""Turning what the sandbox returned into a verdict, per-case results and per-config results.

Everything here runs in the trusted parent on data it validated itself: the child's frames only
carry bytes that were compared against references the child never saw.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from grader.judge.casegroups import MISSING
from grader.judge.collect import Collected, Collector, Record
from grader.models import CaseResult, CaseSpec, ConfigResult, Verdict
from grader.plan.runs import PlannedRun
from grader.sandbox.bwrap import RunOutcome
from grader.text import untrusted

__all__ = ["Collected", "Collector", "Evaluation", "PlannedRun", "Record", "evaluate"]


@dataclass
class Evaluation:
    verdict: Verdict
    cases: list[CaseResult]
    configs: list[ConfigResult]
    messages: list[str]
    ran_cases: bool


_BLOCK = re.compile(r"(\w*BLOCK\w*)=(\d+)")


def _config_hint(configs: list[ConfigResult]) -> list[str]:
    bad = [c for c in configs if not c.passed]
    good = [c for c in configs if c.passed]
    if not bad:
        return []
    lines = [
        f"{len(bad)} of {len(configs)} autotune configs give wrong results. Every config is "
        "checked because on a GPU the autotuner keeps the fastest one, right or wrong:"
    ]
    for c in bad[:12]:
        widths = ", ".join(map(str, c.failed_widths)) or "?"
        lines.append(f"  - {c.config}: wrong for widths {widths}")
    if len(bad) > 12:
        lines.append(f"  - … and {len(bad) - 12} more")
    too_small = [
        c
        for c in bad
        if (m := _BLOCK.findall(c.config))
        and c.failed_widths
        and any(int(v) < max(c.failed_widths) for _, v in m)
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
) -> Evaluation:
    """`fenced`: the child ran under the interpreter, where every tensor ends next to a page it
    cannot touch (harness/fenced.py), so a SIGSEGV is a load or store out of bounds."""
    messages: list[str] = []
    cases: list[CaseResult] = []
    by_case: dict[str, CaseSpec] = {r.case.name: r.case for r in runs}

    for rec in collected.records:
        # `hidden` marks a hidden case in the result (views withhold it: grader/judge/hidden.py);
        # without show_hidden its details are left out of the result itself
        hidden = rec.run.case.hidden and not show_hidden
        if rec.error is not None:
            passed, err, msg = False, None, str(rec.error.get("message", ""))
        else:
            assert rec.comparison is not None
            passed, err, msg = (
                rec.comparison.passed,
                rec.comparison.max_abs_err,
                rec.comparison.message,
            )
        cases.append(
            CaseResult(
                name=rec.run.case.name if not hidden else f"hidden-{rec.run.id}",
                passed=passed,
                max_abs_err=err,
                message=msg if not hidden else ("" if passed else "wrong on a hidden case"),
                shape=None if hidden else rec.run.case.shape,
                dtype=None if hidden else rec.run.case.dtype,
                draw=rec.run.draw,
                config=rec.config,
                hidden=rec.run.case.hidden,
            )
        )

    killed = outcome.timed_out or outcome.memory_exceeded
    if collected.ready and not killed:
        seen = {rec.run.id for rec in collected.records}
        for r in runs:
            if r.id not in seen:
                hidden = r.case.hidden and not show_hidden
                cases.append(
                    CaseResult(
                        name=r.case.name if not hidden else f"hidden-{r.id}",
                        passed=False,
                        message=MISSING,
                        shape=None if hidden else r.case.shape,
                        dtype=None if hidden else r.case.dtype,
                        draw=r.draw,
                        hidden=r.case.hidden,
                    )
                )

    configs: dict[str, ConfigResult] = {}
    for rec, case in zip(collected.records, cases, strict=False):
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
    config_list = list(configs.values())

    forbidden = list(dict.fromkeys(f for rec in collected.records for f in rec.forbidden))
    no_launch = [rec for rec in collected.records if rec.error is None and rec.launches == 0]
    errors = [rec.error for rec in collected.records if rec.error is not None]
    wrong = [c for c in cases if not c.passed]
    compared_wrong = [
        rec for rec in collected.records if rec.comparison is not None and not rec.comparison.passed
    ]
    seen_runs = {rec.run.id for rec in collected.records}
    missing = [r for r in runs if r.id not in seen_runs]

    if outcome.timed_out:
        # A wrong answer already seen says more than the timeout that followed it.
        verdict = Verdict.WRONG_ANSWER if compared_wrong else Verdict.TIME_LIMIT
        messages.append(
            f"Time limit: the submission ran past {outcome.wall:.0f} s and was stopped "
            "(an endless loop, or a kernel far too slow for the interpreter's small cases)."
        )
    elif outcome.memory_exceeded:
        verdict = Verdict.WRONG_ANSWER if compared_wrong else Verdict.MEMORY_LIMIT
        messages.append(
            f"Memory limit: the submission used more than its host-memory limit "
            f"({outcome.peak_rss / 2**30:.1f} GiB seen) and was stopped."
        )
    elif collected.import_error is not None:
        verdict = _error_verdict(collected.import_error)
        stage = "compiling" if verdict is Verdict.COMPILE_ERROR else "importing"
        messages.append(f"Error while {stage} your file: {collected.import_error.get('message')}")
    elif forbidden:
        verdict = Verdict.FORBIDDEN
        messages.append(
            "Your entry computes with PyTorch instead of Triton: it ran "
            + ", ".join(forbidden[:8])
            + ". Only allocation, views and copies may run outside your Triton kernels."
        )
    elif no_launch:
        verdict = Verdict.FORBIDDEN
        messages.append(
            "Your entry returned without launching any Triton kernel. The checkpoint asks for "
            "the work to be done in a @triton.jit kernel."
        )
    elif errors and not compared_wrong:
        verdict = _error_verdict(errors[0])
        first_err = next(c for rec, c in zip(collected.records, cases, strict=False) if rec.error)
        messages.append(f"Error while running case '{first_err.name}': {errors[0].get('message')}")
    elif compared_wrong:
        verdict = Verdict.WRONG_ANSWER
    elif missing or not collected.done or outcome.reader_error:
        verdict = Verdict.RUNTIME_ERROR
    else:
        verdict = Verdict.CORRECT

    if verdict is Verdict.WRONG_ANSWER:
        wrong = [c for c in wrong if c.message != MISSING]
        names = list(dict.fromkeys(c.name for c in wrong))
        first = wrong[0]
        messages.append(
            f"Wrong on {len(names)} of {len(by_case)} cases ({', '.join(names[:6])}"
            f"{', …' if len(names) > 6 else ''}). First failure: case '{first.name}'"
            + (f" {tuple(first.shape)} {first.dtype}" if first.shape else "")
            + (f", draw {first.draw + 1}" if first.draw else "")
            + (f", config {first.config}" if first.config else "")
            + f": {first.message}"
        )
        if any(c.draw > 0 for c in wrong) and all(
            c.passed for c in cases if c.draw == 0 and c.config == first.config
        ):
            messages.append(
                "Your entry was right on the first draw of each shape and wrong on later ones "
                "with different data: does it cache or reuse an earlier answer?"
            )
        messages.extend(_config_hint(config_list))

    if (missing or not collected.done) and not killed and not collected.import_error and not errors:
        how = (
            f"was killed by {outcome.signal_name}"
            if outcome.signal_name
            else f"exited with status {outcome.returncode}"
        )
        messages.append(
            f"The submission's process {how} before finishing "
            f"({len(missing)} of {len(runs)} runs never returned a result)"
            + (
                ". Under the interpreter every tensor your entry is given or makes ends next to "
                "a page the process may not touch, so this was most likely a load or store past "
                "the end of a tensor (or before its start): check the masks of your loads and "
                "stores."
                if fenced and outcome.signal_name == "SIGSEGV"
                else ". A SIGSEGV usually means an out-of-bounds load or store: check your masks."
                if outcome.signal_name in {"SIGSEGV", "SIGBUS", "SIGABRT"}
                else "."
            )
        )
    if outcome.reader_error:
        refused = untrusted(outcome.reader_error, 300)
        messages.append(f"The submission's result stream was refused: {refused}.")
    return Evaluation(verdict, cases, config_list, messages, ran_cases=bool(collected.records))
