"""Hidden cases withheld from a stored grade at read time: each hidden case's name, shape,
dtype, error and message, the autotune configs' lists of failed cases, and every message that
names one. The stored result keeps them all (so a moved deadline needs no regrade); the
viewer decides, on a plain dict of `GradeResult`'s JSON."""

from __future__ import annotations

import re
from typing import Any

WITHHELD = "A hidden case failed; its details are shown after the due time."


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


def withhold(result: dict[str, Any]) -> dict[str, Any]:
    """A copy of `result` without the hidden cases' details; the result itself is unchanged."""
    names = hidden_names(result)
    if not names:
        return result
    alias = _aliases(result, names)
    out = dict(result)
    out["cases"] = [_case(c, alias) for c in result.get("cases") or []]
    out["configs"] = [_config(cfg, alias) for cfg in result.get("configs") or []]
    mention = re.compile("|".join(rf"(?<![\w-]){re.escape(n)}(?![\w-])" for n in names))
    messages = [WITHHELD if mention.search(str(m)) else m for m in result.get("messages") or []]
    out["messages"] = list(dict.fromkeys(messages))
    if result.get("stdout"):
        # what the entry printed may show a hidden case's inputs
        out["stdout"] = "(withheld until the due time: this grading ran hidden cases)"
    return out


def _config(cfg: Any, alias: dict[str, str]) -> Any:
    if not isinstance(cfg, dict):
        return cfg
    failed = cfg.get("failed_cases") or []
    if not any(n in alias for n in failed):
        return cfg
    # the failed widths would show a hidden case's last dimension
    return {**cfg, "failed_cases": [alias.get(n, n) for n in failed], "failed_widths": []}


def _case(case: Any, alias: dict[str, str]) -> Any:
    if not isinstance(case, dict) or case.get("name") not in alias:
        return case
    return {
        **case,
        "name": alias[case["name"]],
        "shape": None,
        "dtype": None,
        "max_abs_err": None,
        "message": "" if case.get("passed") else "wrong on a hidden case",
    }
