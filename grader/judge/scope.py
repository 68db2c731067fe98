"""Which case a number is at: the case (a shape, a dtype, a benchmark case's name, a dimension
named in words, the course's shape, the geometric mean) its own clause names.

A sentence may name more than one case ("With bf16 inputs at 8192×4096 it is 2.98× faster,
while on the short rows of 600 columns it is 1.18× faster"): each number is at the case of its
own clause, never at the first case named. A number whose clause names none takes the case
written just before it with no other number between but its own clause's ("With bf16 inputs
at 8192×4096, it takes 68 µs and is 2.98× faster"), else the sentence's one case; when the
sentence names several, it is left unread (the student is asked to say which). The geometric
mean scopes only its own number; a dtype in an accumulation ("accumulates in fp32") names no
case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from grader.judge.attribution import Mention, clause_end, clause_start, nearest
from grader.judge.lang import LANG

WHICH_CASE = (
    "at which case? the sentence names more than one shape or case: name the one this "
    "number is at in its own clause"
)
_ACCUMULATE = re.compile(r"(?:accumul\w*|acumul\w*|sum\w* in|suma\w* en)[^.,;:]{0,30}$")
_ACCUMULATE_KO = re.compile(r"^\s*(?:로|으로)\s*(?:\S+\s*)?(?:누적|합산|더)")


@dataclass
class Site:
    """The case words of one clause (or of clauses next to each other with no number
    between)."""

    start: int
    end: int
    shapes: list[Mention] = field(default_factory=list)
    dtypes: list[Mention] = field(default_factory=list)
    cases: list[Mention] = field(default_factory=list)
    hints: list[Mention] = field(default_factory=list)
    geomean: bool = False
    course: bool = False


@dataclass
class Where:
    dims: list[int] | None = None
    dtype: str | None = None
    shape_name: str | None = None
    dim_hint: int | None = None
    geomean: bool = False
    unread: str | None = None


def case_dtypes(b: str, dtypes: list[Mention]) -> list[Mention]:
    """The dtypes that name a case: not the one an accumulation is done in."""
    return [
        d
        for d in dtypes
        if not _ACCUMULATE.search(b[max(0, d.start - 40) : d.start])
        and not _ACCUMULATE_KO.match(b[d.end : d.end + 12])
    ]


def sites(
    b: str,
    numbers: list[tuple[int, int]],
    shapes: list[Mention],
    dtypes: list[Mention],
    cases: list[Mention],
    hints: list[Mention],
) -> list[Site]:
    tagged: list[tuple[str, Mention]] = [("shapes", m) for m in shapes]
    tagged += [("dtypes", m) for m in case_dtypes(b, dtypes)]
    tagged += [("cases", m) for m in cases] + [("hints", m) for m in hints]
    tagged += [("geomean", Mention(m.start(), m.end(), "")) for m in LANG.geomean.finditer(b)]
    tagged += [("course", Mention(m.start(), m.end(), "")) for m in LANG.course_shape.finditer(b)]
    out: list[Site] = []
    for kind, m in sorted(tagged, key=lambda t: t[1].start):
        lo, hi = clause_start(b, m.start), clause_end(b, m.end)
        last = out[-1] if out else None
        # clauses next to each other are one case's words only while no number comes between:
        # "With bf16 inputs, at 8192×4096, it is 2.98×"
        if last is None or (lo > last.end and any(last.start <= a < lo for a, _ in numbers)):
            last = Site(lo, hi)
            out.append(last)
        last.start, last.end = min(last.start, lo), max(last.end, hi)
        if kind in ("geomean", "course"):
            setattr(last, kind, True)
        else:
            getattr(last, kind).append(m)
    return out


def _near(ms: list[Mention], start: int, end: int) -> Mention | None:
    return nearest(ms, start, end) or (ms[0] if ms else None)  # a clause quoted whole


THAT_UNKNOWN = (
    "at which shape? 'that shape' needs one shape named in a sentence before: name it here"
)


def _of_site(b: str, site: Site, start: int, end: int) -> Where:
    near = _near(site.shapes, start, end)
    if near is not None and not near.what:  # "on that shape", with none (or two) named before
        return Where(unread=THAT_UNKNOWN)
    dt = _near(site.dtypes, start, end)
    hint = _near(site.hints, start, end)
    return Where(
        dims=[int(x) for x in re.findall(r"\d+", near.what)] if near else None,
        dtype=dt.what if dt else None,
        shape_name=case_of(b, site.cases, start, end),
        dim_hint=int(hint.what) if hint else None,
        geomean=site.geomean,
    )


def where(b: str, start: int, end: int, found: list[Site], numbers: list[tuple[int, int]]) -> Where:
    """The case of the number at b[start:end]."""
    own = next((s for s in found if s.start <= start < s.end), None)
    if own is not None:
        return _of_site(b, own, start, end)
    before = [s for s in found if s.end <= start]
    # the numbers of the number's own clause share its case: "At 8192 by 4096 in bf16, it
    # takes 37 µs and is 1.24× faster"
    lo = clause_start(b, start)
    if before and not any(
        before[-1].end <= a < min(start, max(lo, before[-1].end)) for a, _ in numbers
    ):
        return _of_site(b, before[-1], start, end)  # "With bf16 at 8192×4096, it is 2.98×"
    # the geometric mean scopes only its own clause's number: never a case to carry
    cases = [s for s in found if s.shapes or s.dtypes or s.cases or s.hints or s.course]
    # a dimension named only after the number, in a clause of its own ("…, 0.32× cuBLAS's 634
    # TFLOP/s: with K = 1000 the grid is one wave"), explains; it does not scope the number
    named = [s for s in cases if not (s.start > end and s.hints and not (s.shapes or s.cases))]
    if len(named) == 1 and named[0].end <= start:
        return _of_site(b, named[0], start, end)
    if len(cases) == 1:
        # a case named after the number, in a later clause with numbers of its own, is theirs
        # ("moves 244 MB and is 1.62× faster, and with bf16 at 8192×4096 it is 2.98× faster":
        # pass 6); with none of its own it is the sentence's ("…, at 8192×4096 in bf16")
        site = cases[0]
        if site.start >= end and any(site.start <= a < site.end for a, _ in numbers):
            return Where()
        return _of_site(b, site, start, end)
    if not cases:
        alone = len(found) == 1 and not any(found[0].start <= a < found[0].end for a, _ in numbers)
        return Where(geomean=alone)  # "The geometric mean of the speedups, over six shapes, is …"
    if all(not (s.shapes or s.dtypes or s.cases or s.hints) for s in cases):
        return Where()  # only the course's shape, named twice
    return Where(unread=WHICH_CASE)


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
# a dimension named in words: "rows of 600 columns", "600 columnas", "600열", "4096 rows"
WORD_DIM = re.compile(
    r"(?<![\w.,])(\d{2,})\s*(?:" + LANG.cols + "|" + LANG.rows + r")"
    r"|(?:" + LANG.cols + r")\s*(?:of|de)\s*(\d{2,})(?![\d.,])"
)
_AT_CASE = re.compile(
    r"^(?:(?!\band\b)[^,;:\d]){0,30}?\b(?:at|on|for|in|with|en|con|para)\s+(?:the\s+|el\s+|la\s+)?$"
)


def case_of(s: str, cases: list[Mention], start: int, end: int) -> str | None:
    """The case a number is at: one linked right after it ("600 TFLOP/s at k1000-bf16"),
    else the nearest before it, else the nearest after it."""
    after = [m for m in cases if m.start >= end]
    if after and _AT_CASE.match(s[end : after[0].start]):
        return after[0].what
    near = nearest(cases, start, end)
    return near.what if near else None
