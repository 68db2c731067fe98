"""A grade's calls grouped by case, as the CLI report and the web page show them.

A call that never returned a result (the process died first: a SIGSEGV, an exit) is not a
wrong answer: the first such call is where the process died ("crashed"), and every call after
it never ran. Counting them as wrong calls showed "2 of 2 calls wrong" on every case of a
submission that crashed on its first call."""

from __future__ import annotations

from dataclasses import dataclass

from grader.models import CaseResult

MISSING = "no result: the process died before returning one"


@dataclass
class CaseGroup:
    name: str
    shape: list[int] | None
    dtype: str | None
    calls: int = 0
    failed: int = 0  # calls that returned a wrong output or raised
    not_run: int = 0  # calls after the crash, which never ran
    crashed: bool = False  # the process died during one of this case's calls
    worst: float | None = None
    message: str = ""
    hidden: bool = False  # a hidden case, withheld (its shape and dtype are None)
    nonfinite: int = 0  # the most NaN/inf mismatches one wrong call had
    failed_worst: float | None = None  # the worst error among the wrong calls only

    @property
    def error(self) -> str:
        """The "max abs err" cell: a wrong case's own error (a NaN or infinity mismatch said as
        one, never as the finite elements' 0.00e+00, nor a right call's error beside it)."""
        if self.nonfinite:
            return f"NaN/inf in {self.nonfinite} element{'s' if self.nonfinite > 1 else ''}"
        worst = self.failed_worst if self.failed else self.worst
        return f"{worst:.2e}" if worst is not None else ""

    @property
    def shape_text(self) -> str:
        """Its shape as a tuple, or why none is shown (never "None")."""
        if self.shape is not None:
            return str(tuple(self.shape))
        return "hidden until the due time" if self.hidden else ""

    @property
    def passed(self) -> bool:
        return not (self.failed or self.not_run or self.crashed)

    @property
    def result(self) -> str:
        """One word or a few: pass, 1 wrong, crashed, not run."""
        if self.crashed:
            return "crashed"
        if self.failed:
            return f"{self.failed} wrong"
        return "not run" if self.not_run else "pass"

    @property
    def tally(self) -> str:
        """For the CLI report, e.g. "(1 of 2 calls wrong)" or "(crashed on it)"."""
        if self.crashed:
            return "  (the process died during this case)"
        if self.not_run == self.calls:
            return "  (never ran: the process had died)"
        done = self.calls - self.not_run
        wrong = f"{self.failed} of {done} calls wrong" if self.failed else f"{done} calls"
        return f"  ({wrong}{f', {self.not_run} never ran' if self.not_run else ''})"


def group(cases: list[CaseResult]) -> list[CaseGroup]:
    groups: dict[str, CaseGroup] = {}
    died = False
    for c in cases:
        g = groups.setdefault(c.name, CaseGroup(c.name, c.shape, c.dtype, hidden=c.hidden))
        n = max(c.calls, 1)  # a merged row stands for n calls (judge/budget.py)
        g.calls += n
        if not c.passed and c.message == MISSING:
            if died:
                g.not_run += n
            else:  # the first call without a result is the one the process died in
                g.crashed, died = True, True
                g.not_run += n - 1
                g.message = g.message or "the process died during this call; no result came back"
        elif not c.passed:
            g.failed += n
            g.message = g.message or c.message
            g.nonfinite = max(g.nonfinite, c.nonfinite)
            if c.max_abs_err is not None and (
                g.failed_worst is None or c.max_abs_err > g.failed_worst
            ):
                g.failed_worst = c.max_abs_err
        if c.max_abs_err is not None and (g.worst is None or c.max_abs_err > g.worst):
            g.worst = c.max_abs_err
    return list(groups.values())
