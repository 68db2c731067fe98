"""Readings of claims.py kept here (claims.py is at its size limit): a figure's negation,
the far side of a contrast, a size per item, Korean "N %를 쓰고".

A negation after a figure that does not negate it. Korean "N밖에 … 않다" is "only N" (an
affirmative: "36.6 µs밖에 걸리지 않습니다" claims 36.6 µs), and "X처럼 N … 않다" is "unlike X,
not N": the N is X's, affirmed ("naive처럼 9개 커널을 띄우지 않습니다": the naive nine). A
negation after a consequence ending ("피크의 93 %라서 더 빨라질 여지가 없습니다") is the
consequence's, not the figure's."""

from __future__ import annotations

import re

from grader.judge.attribution import CONTRAST, Mention, clause_end
from grader.judge.lang import LANG

_ONLY = re.compile(r"밖에|뿐")
_LIKE = re.compile(r"\s*처럼")


def negated_after(before: str, after: str) -> bool:
    """Does a negation after the figure (in `after`, the rest of its clause) negate it?
    `before`: its clause up to the figure."""
    if not LANG.negation_after.pattern:
        return False
    m = LANG.negation_after.search(after)
    if m is None:
        return False
    then = LANG.consequence.search(after, 0, m.start())
    return not (_ONLY.search(after, 0, m.start()) or _LIKE.search(before) or then)


_AFTER_CONTRAST = re.compile(
    r"(?:" + CONTRAST.pattern + r")\s*(?:(?:the|los|las|el|la|unos|about|~|≈)\s*)?$"
)


def far_side(
    b: str, ms: list[Mention], start: int, end: int, who: str, how: str
) -> tuple[str, str]:
    """A figure right after "frente a", "against", "vs" with no owner of its own is the other
    side: "tarda 134,7 µs frente a 439,7 µs: 3,27 veces más rápido que torch" is torch's
    439,7 µs (the baseline the sentence compares with after it), not yours."""
    if who != "submission" or how in ("linked after it", "named with it"):
        return who, how
    if not _AFTER_CONTRAST.search(b, max(0, start - 20), start):
        return who, how
    later = [m for m in ms if m.compared and m.what not in ("", "submission") and m.start >= end]
    if not later:
        return who, how
    # the comparison must be this figure's: not past the parenthesis it is in, nor past a
    # new subject ("(1.0 GB against 241 MB), and my kernel … than torch" keeps 241 MB yours)
    between = b[end : later[0].start]
    mine = any(m.what == "submission" and end <= m.start < later[0].start for m in ms)
    if ")" in between or mine:
        return who, how
    return later[0].what, "the comparison after it"


def sides(
    b: str, ms: list[Mention], start: int, end: int, who: str, how: str
) -> tuple[str | None, str]:
    """far_side, then like_side."""
    side, by = far_side(b, ms, start, end, who, how)
    return like_side(b, ms, start, end, side, by)


def like_side(
    b: str, ms: list[Mention], start: int, end: int, who: str, how: str
) -> tuple[str | None, str]:
    """Korean "X처럼 N" affirmed is the subject's N, X only compared with ("제 커널은 naive
    버전처럼 커널 5개를 띄웁니다": mine launches 5); negated ("X처럼 N … 않다") it stays X's.
    With no subject before X, the N is not read."""
    before = [m for m in ms if m.what and m.end <= start]
    if not before or before[-1].what != who or not _LIKE.match(b, before[-1].end):
        return who, how
    after = b[end : clause_end(b, end)]
    if LANG.negation_after.pattern and LANG.negation_after.search(after):
        return who, how
    subject = [m for m in before[:-1] if not m.compared and m.what != who]
    return (subject[-1].what, "the subject (처럼: compared with)") if subject else (None, "")


# Korean 당 ("per", after its noun: "원소 하나당 12바이트", "12바이트당 덧셈 하나") and 씩
# ("each": "12바이트씩"); 해당 ("the said") is not one
_PER_BEFORE = re.compile(r"(?<![\w])(?:per|por|every|cada)\s*(?:~|≈|about|unos)?\s*$|(?<!해)당\s*$")
_PER_AFTER = re.compile(
    r"^\s*(?:per|por|for each|para cada|de cada)\s+(?:an? |un |una )?(?:elements?|elementos?|"
    r"adds?|sumas?|ops?|operations?|operaci[oó]n|values?|valor(?:es)?|floats?|items?)(?![\w])"
    r"|^(?:당|씩)"
)


def per_item(before: str, after: str) -> bool:
    """A byte figure per element or per operation ("one add per 12 bytes", "12 bytes per
    element", "요소당 12바이트") is a size per item, never the kernel's DRAM traffic."""
    return bool(_PER_BEFORE.search(before) or _PER_AFTER.match(after))


_USES = re.compile(r"^\s*(?:을|를)\s*(?:쓰|씁|썼|사용)")


def uses(after: str) -> str:
    """Korean "81 %를 쓰고" is "uses 81 %" (쓰다: to use), not a write: that 쓰 is no traffic
    cue for the percentage before it."""
    return _USES.sub(lambda m: " " * len(m.group(0)), after)
