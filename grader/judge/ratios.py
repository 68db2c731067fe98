"""A ratio's two sides and its direction: "A is N× faster than B" is A's against B, as B's time
(bytes) over A's; "N× slower", "N× more traffic", "N× the time of B" the inverse; a percentage
("58 % faster", "76 % less") as the ratio it says. claims.py reads the number; this orients it."""

from __future__ import annotations

import re

from grader.judge import numbers
from grader.judge.attribution import (
    _NOT_LINK,
    CONTRAST,
    Mention,
    _linked,
    _paren_at,
    aside,
    clause_end,
    clause_start,
    compared_with,
    ratio_owner,
)
from grader.judge.claim import Claim
from grader.judge.lang import LANG

OTHER = "other"  # an implementation none of the grading's ("a classmate's kernel")
NOT_OURS = (
    "whose is it? kgrade measured yours, the naive version, torch and torch.compile only: a "
    "figure of another implementation (a classmate's) is not yours and is not checked"
)


def _clause(b: str, n: numbers.Num) -> tuple[str, str]:
    lo, hi = clause_start(b, n.start), clause_end(b, n.end)
    return b[max(lo, n.start - 60) : n.start], b[n.end : min(hi, n.end + 50)]


def possessive_pair(
    b: str, ms: list[Mention], start: int, end: int, spans: list[tuple[int, int]]
) -> tuple[str, str] | None:
    """The two sides of a ratio between two owned figures of its clause: "los 1,02 GB de la
    versión ingenua son 4,16 veces más que los 244 MB de mi kernel" (naive, submission)."""
    lo, hi = clause_start(b, start), clause_end(b, end)
    owned = [m for m in ms if m.what and not m.pronoun and _linked(b, m, spans)]
    left = [m for m in owned if lo <= m.start and m.end <= start]
    right = [m for m in owned if end <= m.start and m.end <= hi]
    if not left or not right or left[-1].what == right[0].what:
        return None
    if not _NOT_LINK.search(b[end : right[0].start]):  # the right side after "than"/"que"
        return None
    return left[-1].what, right[0].what


def pair_before(
    b: str, n: numbers.Num, found: list[numbers.Num], done: list[Claim]
) -> tuple[str, str] | None:
    """A bare ratio opening a parenthesis right after a pair of figures of its kind with two
    owners ("68 µs vs 110 µs for torch (1.62×)"): the ratio of that pair (yours, torch)."""
    p = _paren_at(b, n.start)
    if p is None or b[p[0] + 1 : n.start].strip(" ~≈"):
        return None
    i = next((k for k, x in enumerate(found) if x.start == n.start), -1)
    if i < 2 or found[i - 1].end > p[0] or len(done) < i:
        return None
    a, z = done[i - 2], done[i - 1]
    if (
        a.quantity != z.quantity
        or a.quantity not in ("time", "traffic")
        or not a.subject
        or not z.subject
        or a.subject == z.subject
        or a.unread
        or z.unread
        or not re.search(CONTRAST, b[found[i - 2].end : found[i - 1].start])
    ):
        return None
    return a.subject, z.subject


def _pronoun_subject(
    b: str, ms: list[Mention], start: int, context: str | None
) -> tuple[str, str] | None:
    """A pronoun subject of the ratio's own clause, after every name before it ("It takes
    134.7 µs while torch takes 439.7 µs, so it is 3.27× faster"): the sentence's first subject
    when it is named, else the sentence before's; never the baseline named in between."""
    lo = clause_start(b, start)
    pron = [m for m in ms if m.pronoun and lo <= m.start and m.end <= start]
    named = [m for m in ms if m.what and not m.pronoun and m.end <= start]
    if not pron or not named or named[-1].end > pron[-1].start:
        return None
    # a semicolon opens a clause with a subject of its own: "Torch takes 110 µs; my kernel
    # takes 68 µs, so it is 1.62× faster" (yours)
    semi = b.rfind(";", 0, pron[-1].start) + 1
    first = next((m for m in ms if semi <= m.start and m.end <= start), None)
    if first is None or not first.what or first.pronoun or first.compared:
        first = next((m for m in ms if m.end <= start), None)
    if first is not None and first.what and not first.pronoun and not first.compared:
        return first.what, "the pronoun's subject"
    return (
        (context, "the pronoun's subject")
        if first is not None and first.pronoun and context
        else None
    )


def _oriented_value(c: Claim, before: str, after: str) -> float:
    """A ratio's value as the subject's against the other side: 'N× slower' 1/N, 'N× more
    traffic' 1/N, '58 % faster' 1.58, '76 % less' 1/0.24, '38 % less time' 1/0.62."""
    around = after + " " + before[-30:]
    slower = bool(LANG.slower.search(after)) and not LANG.faster.search(after[:20])
    more = bool(LANG.more.search(after[:30])) and not LANG.less.search(after[:30])
    v = c.value
    if c.percent_form:
        up = c.quantity == "speedup" and c.percent_form != "less"  # "38 % less time": 1/0.62
        v = 1 + v / 100 if up else 1 / max(1 - v / 100, 1e-9)
        if (c.quantity == "speedup" and slower) or (c.quantity == "traffic_ratio" and more):
            v = 1 / v
    elif c.quantity == "speedup":
        if (
            slower
            or re.search(r"(?:the|el|la|del) (?:time|tiempo)|시간", after[:30])
            # "tarda 0,0369 ms, 1,24 veces más que torch": more time, slower
            or (more and not LANG.faster.search(after[:30]))
        ):
            v = 1 / v
    elif more or (
        not LANG.less.search(around) and v < 1 and not re.search(r"ratio|raz[oó]n|비율", around)
    ):
        v = 1 / v
    return v


def orient(
    c: Claim,
    b: str,
    ms: list[Mention],
    n: numbers.Num,
    context: str | None,
    spans: list[tuple[int, int]],
    owned: list[tuple[int, int]],
    pair: tuple[str, str] | None = None,
) -> None:
    """Orient a ratio: the subject's against the other side, as their time (bytes) over the
    subject's. 'A is N× faster than B': N; 'N× slower': 1/N; 'N× less traffic': N; 'N× more':
    1/N; 'N× the traffic/time of B': 1/N; a percentage: '58 % faster' 1.58, '76 % less' 1/0.24."""
    before, after = _clause(b, n)
    other = compared_with(b, ms, n.start, n.end)
    subjects = [
        m
        for m in ms
        if m.what
        and not m.compared
        and not m.pronoun
        and not _linked(b, m, spans)
        and not aside(b, m)  # "(the naive version: 1.24 GB, torch: 114 MB)": an aside
    ]
    # a consequence after a semicolon is of that clause's subject: "Torch tarda 110 µs; mi
    # kernel tarda 68 µs, así que es 1,62 veces más rápido" (yours)
    semi = b.rfind(";", 0, n.start) + 1
    then = semi and LANG.consequence.search(b, semi, n.start)
    own = [m for m in subjects if semi <= m.start and m.end <= n.start] if then else []
    first = (own or subjects)[:1]
    subject = first[0].what if first else None
    who, how = ratio_owner(
        b, [m for m in ms if m is not other], n.start, subject, context, spans, owned
    )
    who, how = _pronoun_subject(b, ms, n.start, context) or (who, how)
    named_subject = how in ("its clause's subject", "the sentence's subject")
    if other is None:  # none compared with: a baseline's is against yours; yours against
        # the one baseline the sentence names, else unread
        named = {m.what for m in ms if m.what and m.what not in (who, "ceiling", "submission")}
        if who not in (None, "submission"):
            other_what: str | None = "submission"
        elif len(named) == 1:
            other_what = next(iter(named))
        else:
            other_what = None
    else:
        other_what = other.what
    if pair is not None:  # "68 µs vs 110 µs for torch (1.62×)": that pair's, whatever follows
        who, other_what = pair
    pair = None if pair is not None else possessive_pair(b, ms, n.start, n.end, spans)
    if pair is not None:  # "los 1,02 GB de la ingenua son 4,16 veces más que los 244 MB míos"
        who, other_what = pair
    who = who or "submission"
    v = _oriented_value(c, before, after)
    c.percent_form = None
    if who == other_what and who != "submission" and not named_subject:
        # nothing is compared with itself: "…cuBLAS ya gana la GEMM. Frente a torch es 1,62
        # veces más rápido" has no subject of its own, and it is not torch: it is yours
        who, how = "submission", "no subject named"
    if who != "submission" and other_what == "submission":
        who, other_what, v = "submission", who, 1 / v
    c.value, c.subject, c.versus, c.how = v, who, other_what, how or "the comparison"
    if c.relation in (">=", "<=", ">", "<") and c.value != n.value:
        c.relation = {">=": "<=", "<=": ">=", ">": "<", "<": ">"}[c.relation]
    if other_what is None:
        c.unread = (
            "against which implementation? name it ('than torch', 'frente a la versión ingenua')"
        )
    if OTHER in (who, other_what):
        c.unread = NOT_OURS
