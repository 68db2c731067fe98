"""A stored grade as the submission page shows it: cases grouped, the citable facts as tables,
the roofline plot."""

from __future__ import annotations

from typing import Any

from app.checkpoints import versions
from app.deps import SessionDep
from app.models import Submission
from app.settings import get_settings
from app.submissions import results, service
from app.web import plots
from grader import (
    CaseGroup,
    CaseResult,
    Citable,
    CiteTable,
    GradeResult,
    cite_tables,
    explanation_recheck,
)
from grader import group_cases as group


def grouped(cases: list[dict[str, Any]]) -> list[CaseGroup]:
    """One row per case: its calls (draws × autotune configs), failures, the crash if the
    process died in it (once: the calls after it never ran), and worst error."""
    try:
        return group([CaseResult.model_validate(c) for c in cases])
    except ValueError:
        return []


def citable_tables(result: dict[str, Any]) -> list[CiteTable]:
    """'What you can cite', as tables (grader/judge/facts.py), from a stored result."""
    try:
        cite = Citable.model_validate(result["citable"]) if result.get("citable") else None
    except ValueError:
        return []
    return cite_tables(cite) if cite is not None else []


def stored(result: dict[str, Any]) -> dict[str, Any]:
    """A stored result as today's model has it: fields added since it was stored get their
    defaults (a result from an older kgrade must still render); one that no longer validates
    is shown as it is."""
    try:
        return GradeResult.model_validate(result).model_dump(mode="json")
    except ValueError:
        return result


def view(
    session: SessionDep, sub: Submission, result_seen: dict[str, Any] | None
) -> dict[str, Any]:
    """`result_seen`: the stored result as the viewer may see it (app/deadlines: hidden cases
    withheld from a student until the due time)."""
    result = stored(result_seen or {})
    bench = result.get("benchmark")
    changed = results.in_force(session, [sub]).get(sub.id)
    return {
        "sub": sub,
        # the level in force, the grader's and the override, as the JSON and the CLI say them
        "graded_level": sub.level if changed is None else changed[0],
        "override": None if changed is None else changed[1],
        "results": results.history(session, sub),
        "short": versions.short,
        "r": result,
        "cite_tables": citable_tables(result),
        "recheck_text": explanation_recheck.editable(
            sub.explanation, result.get("explanation") or {}
        ),
        "groups": grouped(result.get("cases") or []),
        "roofline": plots.roofline(bench) if bench and bench.get("shapes") else None,
        "lines": sub.source.splitlines(),
        "report": service.nsight_report(get_settings(), sub.id) is not None,
    }
