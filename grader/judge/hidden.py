"""Hidden cases withheld from a stored grade at read time: each hidden case's name, shape,
dtype, error and message, the autotune configs' lists of failed cases, and every message that
names one. The stored result keeps them all (so a moved deadline needs no regrade); the
viewer decides, on a plain dict of `GradeResult`'s JSON."""

from __future__ import annotations

import re
from typing import Any

# A failure's kind (CaseResult.failure) in words that show nothing of the case.
FAILURES = {
    "shape": "a wrong output shape or dtype",
    "nan": "NaN where the reference is finite (or a number where it is NaN)",
    "inf": "infinity where the reference is finite (or the other way round)",
    "values": "values outside the tolerance",
    "error": "an error raised by your entry",
    "crashed": "the process died during this case",
}

UNTIL = "the due time"


def withheld_message(kind: str, until: str = UNTIL) -> str:
    """A hidden case's failure as a student sees it before `until`: its kind, nothing of the
    case ("NaN where the reference is finite …"), and when the rest is shown."""
    what = FAILURES.get(kind, "a wrong output")
    return (
        f"Failed: {what}. This case is hidden until {until}: its name, shape, dtype and "
        "values are shown then."
    )


def _kind(case: dict[str, Any]) -> str:
    """A stored case's kind of failure (`failure`; one stored before it was kept: read off
    its message, or none)."""
    if case.get("failure"):
        return str(case["failure"])
    message = str(case.get("message") or "")
    for kind, words in (
        ("crashed", "process died"),
        ("nan", "NaN"),
        ("inf", "infinit"),
        ("shape", "shape"),
        ("shape", "dtype"),
        ("values", "outside atol"),
    ):
        if words in message:
            return kind
    return ""


def _summary(result: dict[str, Any], alias: dict[str, str], until: str) -> str:
    """What replaces a message that names a hidden case: how many hidden cases failed, and
    how (the kinds are the grader's, never the case's shape or values)."""
    failed: dict[str, list[str]] = {}
    for c in result.get("cases") or []:
        if isinstance(c, dict) and c.get("name") in alias and not c.get("passed"):
            kinds = failed.setdefault(alias[c["name"]], [])
            what = FAILURES.get(_kind(c), "a wrong output")
            if what not in kinds:
                kinds.append(what)
    if not failed:
        return f"A message about a hidden case is withheld until {until}."
    said = "; ".join(f"{n}: {', '.join(k)}" for n, k in failed.items())
    n = len(failed)
    return (
        f"{n} hidden case{'s' if n > 1 else ''} failed ({said}). A hidden case's name, shape, "
        f"dtype and values are shown after {until}; the checkpoint's visible cases are above."
    )


def hidden_names(result: dict[str, Any]) -> set[str]:
    """The cases the checkpoint declared hidden (`hidden = true`), whatever their names."""
    return {
        str(c.get("name"))
        for c in result.get("cases") or []
        if isinstance(c, dict) and c.get("hidden")
    }


def _aliases(result: dict[str, Any], names: set[str]) -> dict[str, str]:
    """`hidden-1`, `hidden-2`, … for the hidden names, skipping any a shown case has (a
    result stored before checkpoint.toml refused such names)."""
    taken = {str(c.get("name")) for c in result.get("cases") or [] if isinstance(c, dict)} - names
    alias: dict[str, str] = {}
    i = 0
    for n in sorted(names):
        i += 1
        while f"hidden-{i}" in taken:
            i += 1
        alias[n] = f"hidden-{i}"
    return alias


def withhold(result: dict[str, Any], until: str = UNTIL) -> dict[str, Any]:
    """A copy of `result` without the hidden cases' details; the result itself is unchanged.
    `until`: when they are shown ("2026-12-08 23:59 CET (Europe/Berlin)"). What is known is
    still said: that a hidden case failed, and how."""
    names = hidden_names(result)
    if not names:
        return result
    alias = _aliases(result, names)
    out = dict(result)
    out["cases"] = [_case(c, alias, until) for c in result.get("cases") or []]
    out["configs"] = [_config(cfg, alias) for cfg in result.get("configs") or []]
    mention = re.compile("|".join(rf"(?<![\w-]){re.escape(n)}(?![\w-])" for n in names))
    summary = _summary(result, alias, until)
    messages = [summary if mention.search(str(m)) else m for m in result.get("messages") or []]
    out["messages"] = list(dict.fromkeys(messages))
    if result.get("stdout"):
        # what the entry printed may show a hidden case's inputs
        out["stdout"] = f"(withheld until {until}: this grading ran hidden cases)"
    return out


def _config(cfg: Any, alias: dict[str, str]) -> Any:
    if not isinstance(cfg, dict):
        return cfg
    failed = cfg.get("failed_cases") or []
    if not any(n in alias for n in failed):
        return cfg
    # the failed widths would show a hidden case's last dimension
    return {**cfg, "failed_cases": [alias.get(n, n) for n in failed], "failed_widths": []}


def _case(case: Any, alias: dict[str, str], until: str) -> Any:
    if not isinstance(case, dict) or case.get("name") not in alias:
        return case
    kind = "" if case.get("passed") else _kind(case)
    return {
        **case,
        "name": alias[case["name"]],
        "shape": None,
        "dtype": None,
        "max_abs_err": None,
        "nonfinite": 0,
        "failure": kind,
        "message": "" if case.get("passed") else withheld_message(kind, until),
    }
