"""A negation after a figure that does not negate it. Korean "N밖에 … 않다" is "only N" (an
affirmative: "36.6 µs밖에 걸리지 않습니다" claims 36.6 µs), and "X처럼 N … 않다" is "unlike X,
not N": the N is X's, affirmed ("naive처럼 9개 커널을 띄우지 않습니다": the naive nine). A
negation after a consequence ending ("피크의 93 %라서 더 빨라질 여지가 없습니다") is the
consequence's, not the figure's."""

from __future__ import annotations

import re

from grader.judge.lang import LANG

_ONLY = re.compile(r"밖에|뿐")
_LIKE = re.compile(r"처럼")


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
