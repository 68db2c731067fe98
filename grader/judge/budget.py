"""The result's share of text that came from the child: bounded in the JSON, after escaping.

`grader/text.py` escapes each control character of the child's text to four or six characters
(`\\x01`, `\\u202e`), and the stored JSON may write a character as twelve bytes (`\\ud83d\\ude00`),
so a cap counted on the child's raw bytes (the sandbox keeps 64 KiB of its output) or on
characters is no cap on the result. `fit` caps each field where that text lands (the program's
output, the messages, each case's message and config label, each config's label) by its cost in
the JSON (`text.json_cost`), within one budget per kind: the whole stays under 64 KiB of such
text, whatever the characters. An honest result is far below it and left as it is.
"""

from __future__ import annotations

from grader.judge.casegroups import MISSING
from grader.models import CaseResult, GradeResult
from grader.text import cap_json, json_cost

STDOUT_BYTES = 24 << 10
MESSAGES_BYTES = 12 << 10
CASES_BYTES = 16 << 10  # case messages and config labels, cases' and configs' together
MAX_CASES = 128  # calls listed in the case table (the headline counts them all)
# a field past its kind's budget keeps this much (a message's start, a config's label)
FLOOR_BYTES = 160


def _pool(texts: list[str], budget: int, floor: int) -> list[str]:
    """Each text capped to what is left of `budget` (at least `floor`), in order."""
    out = []
    for text in texts:
        kept = cap_json(text, max(budget, floor))
        budget -= json_cost(kept)
        out.append(kept)
    return out


def _listed(cases: list[CaseResult]) -> list[CaseResult]:
    """At most MAX_CASES rows for a grading's calls, no call uncounted: the failing calls
    first, each its own row (up to half the rows), then each case's other calls of one outcome
    (passed, failed, no result) merged into one row that counts them (`calls`) and keeps the
    worst error; rows in the order their first call came."""
    if len(cases) <= MAX_CASES:
        return cases
    own = set(sorted(i for i, c in enumerate(cases) if not c.passed)[: MAX_CASES // 2])
    rows: dict[object, CaseResult] = {}
    for i, c in enumerate(cases):
        key: object = i if i in own else (c.name, c.passed, c.message == MISSING)
        row = rows.get(key)
        if row is None:
            rows[key] = c if i in own else c.model_copy(update={"config": None})
            continue
        worst = [e for e in (row.max_abs_err, c.max_abs_err) if e is not None]
        row.calls += c.calls
        row.max_abs_err = max(worst) if worst else None
        row.nonfinite = max(row.nonfinite, c.nonfinite)
    return list(rows.values())


def fit(result: GradeResult) -> GradeResult:
    """`result` with the child's text within its budgets (in place; returned for chaining),
    and its case table at most MAX_CASES calls long (an autotuner's every config on every
    case: 64 configs of 14 calls made a 200 KB result), said in a message."""
    listed = _listed(result.cases)
    if len(listed) < len(result.cases):
        result.messages.append(
            f"The case table counts all {len(result.cases)} calls in {len(listed)} rows: "
            "a case's calls of one outcome are merged into one row with its worst error"
            + (
                "; the first failing calls are each a row of their own."
                if any(not c.passed for c in listed)
                else "."
            )
        )
        result.cases = listed
    result.stdout = cap_json(result.stdout, STDOUT_BYTES)
    result.messages = _pool(result.messages, MESSAGES_BYTES, FLOOR_BYTES)
    labels = [c.config for c in result.configs]
    texts = [c.message for c in result.cases] + [c.config or "" for c in result.cases]
    kept = _pool(labels + texts, CASES_BYTES, FLOOR_BYTES // 4)
    n, m = len(labels), len(result.cases)
    for config, label in zip(result.configs, kept[:n], strict=True):
        config.config = label
    for case, msg, label in zip(result.cases, kept[n : n + m], kept[n + m :], strict=True):
        if case.message != MISSING:  # the grader's own words, which views look for
            case.message = msg
        case.config = label if case.config is not None else None
    return result
