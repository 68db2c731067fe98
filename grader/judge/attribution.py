"""Attribution: which implementation, which shape and which side of a comparison a number in
an explanation's sentence belongs to (claims.py reads the numbers; this says whose they are).

- `Mention`: a name found in the sentence (an implementation, a benchmark case, a dimension).
- `resolve_pronouns`: "it"/"its" is the implementation the sentence names first before it.
- `case_of`: the benchmark case ("k1000-bf16") a number is at; `DIM_HINT`: one dimension named
  ("K = 1000", "seq 4096").
- `orient`: whose speedup over whom ("cuBLAS is 1.25× faster than my kernel" is the
  submission's 0.80×, written the other way round).
- `side_of_comparison`: "600 TFLOP/s against cuBLAS's 748" (600 is the other side's), "A … than
  B (a against b)" (a is A's, b is B's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CONTRAST = re.compile(
    r"\b(?:against|vs\.?|versus|compared (?:to|with)|than|instead of|rather than|down from"
    r"|up from|whereas|while)\b"
)


@dataclass
class Mention:
    start: int
    end: int
    what: str


PRONOUN = re.compile(r"\bit(?:s|'s)?\b")


def resolve_pronouns(s: str, named: list[Mention]) -> list[Mention]:
    """'it'/'its' speaks of the sentence's first-named implementation before it (its
    grammatical subject: "cuBLAS is faster than my kernel: it reaches ..." is cuBLAS; "my
    kernel reaches ..., 0.80× cuBLAS; its tensor pipe ..." is mine); none before: dropped."""
    out = list(named)
    for m in PRONOUN.finditer(s):
        first = next((n for n in named if n.end <= m.start() and n.what != "ceiling"), None)
        if first is not None:
            out.append(Mention(m.start(), m.end(), first.what))
    return sorted(out, key=lambda m: m.start)


def nearest(ms: list[Mention], start: int, end: int) -> Mention | None:
    before = [m for m in ms if m.end <= start]
    if before:
        return before[-1]
    after = [m for m in ms if m.start >= end]
    return after[0] if after else None


def case_mentions(s: str, names: list[str]) -> list[Mention]:
    found: list[Mention] = []
    for name in names:  # longest first, so that "large-8192-bf16" is not read as "large-8192"
        for m in re.finditer(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", s):
            if not any(f.start < m.end() and m.start() < f.end for f in found):
                found.append(Mention(m.start(), m.end(), name))
    return sorted(found, key=lambda m: m.start)


DIM_HINT = re.compile(
    r"(?<![\w.-])(?:[mnkbhd]|seq(?:uence)?(?:[- ]len(?:gth)?)?|head[- ]dim|batch)"
    r"\s*(?:=|of|:)?\s*(\d{2,})(?![\d.,]*\s*(?:%|×|x\b|tflop|gb|mb|µs|ms))"
)
_AT_CASE = re.compile(r"^(?:(?!\band\b)[^,;:\d]){0,30}?\b(?:at|on|for|in|with)\s+(?:the\s+)?$")


def case_of(s: str, cases: list[Mention], start: int, end: int) -> str | None:
    """The case a number is at: one linked right after it ("600 TFLOP/s at k1000-bf16"),
    else the nearest before it, else the nearest after it."""
    after = [m for m in cases if m.start >= end]
    if after and _AT_CASE.match(s[end : after[0].start]):
        return after[0].what
    near = nearest(cases, start, end)
    return near.what if near else None


_SLOWER = re.compile(r"\b(?:slower|longer|more time)\b")


@dataclass(frozen=True)
class Orientation:
    versus: str | None  # the baseline it is against; None: as read otherwise
    inverse: bool  # written as the baseline's over the submission's: the submission's is 1/N


def orient(b: str, subjects: list[Mention], start: int, end: int) -> Orientation:
    """Whose speedup over whom: the implementation named before the number in its clause
    (the owner) against the one it is compared with right after it ("than my kernel")."""
    clause = re.split(r"[,;:(]", b[:start])[-1]
    first = len(b[:start]) - len(clause)
    owner = next((m for m in reversed(subjects) if first <= m.start and m.end <= start), None)
    other = next(
        (m for m in subjects if end <= m.start <= end + 60 and COMPARED.search(b[end : m.start])),
        None,
    )
    slower = bool(_SLOWER.search(b[end : end + 30]))
    baseline_owner = owner is not None and owner.what != "submission"
    if owner is not None and baseline_owner and other is not None and other.what == "submission":
        return Orientation(owner.what, not slower)  # "cuBLAS is 1.25× faster than my kernel"
    if slower and (owner is None or owner.what == "submission") and other is not None:
        return Orientation(None, other.what != "submission")  # "mine is 1.25× slower than X"
    return Orientation(None, False)


COMPARED = re.compile(r"\b(?:than|over|vs\.?|versus|against|compared (?:to|with)|relative to)\b")


_VS_AFTER = re.compile(r"^\s*(?:against|vs\.?|versus|compared (?:to|with)|than)\s+(?:the\s+)?$")


def side_of_comparison(
    b: str, subjects: list[Mention], start: int, end: int, hi: int
) -> str | None:
    """A number on one side of a comparison the sentence spells out. "600 TFLOP/s against
    cuBLAS's 748": the number before 'against X' is not X's, it is the other side's. "the naive
    version moves 134× more than my kernel (35.18 GB against 262 MB)": in a parenthesis after
    'A ... than B', the first number is A's, the one after the contrast B's."""
    nxt = next((m for m in subjects if m.start >= end), None)
    if nxt is not None and nxt.start <= hi and _VS_AFTER.match(b[end : nxt.start]):
        if nxt.what != "submission":
            return "submission"
        before = [m for m in subjects if m.end <= start and m.what != "submission"]
        return before[-1].what if before else None
    paren = b.rfind("(", 0, start)
    if paren < 0 or ")" in b[paren:start]:
        return None
    clause_start = max(b.rfind(c, 0, paren) for c in ",;:") + 1
    pre = b[clause_start:paren]
    cmp_ = COMPARED.search(pre)
    if cmp_ is None:
        return None
    a = [m for m in subjects if clause_start <= m.start and m.end <= clause_start + cmp_.start()]
    z = [m for m in subjects if clause_start + cmp_.end() <= m.start and m.end <= paren]
    if not a or not z:
        return None
    return z[0].what if CONTRAST.search(b[paren:start]) else a[-1].what
