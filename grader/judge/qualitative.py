"""Claims with no number: a comparison ("faster than torch", "fewer bytes than the naive
version", "más rápido que PyTorch", "torch보다 빠르다") is a ratio claim with the relation > or
< 1; "one kernel", "un solo kernel", "단일 커널" a kernel count of 1."""

from __future__ import annotations

import re

from grader.judge.attribution import Mention, clause_end, clause_start, owner
from grader.judge.claim import Claim
from grader.judge.lang import LANG

# "no more bytes than", "not faster than", "no es más lento que": the comparison denied is a
# bound ("no more" is "at most as many"), never the comparison itself
_DENIED = re.compile(r"(?:\bno|\bnot|\bnever|\bnunca|\bni)(?:\s+(?:es|son|is|are|was|be))?\s+$")


# What an implementation has more or less of than another, besides speed and traffic (pass 4:
# "fewer kernels than torch", "점유율은 torch보다 높습니다", "lower DRAM bandwidth than torch"):
# checked as the two implementations' measured values, compared
_PER_IMPL = [
    ("bandwidth", re.compile(r"bandwidth|ancho de banda|대역폭", re.I)),
    (
        "kernels",
        re.compile(
            r"\bkernels\b|\blaunch(?:es)?\b|lanzamientos|n[uú]mero de kernels|수의 커널|커널 수"
            r"|개의 커널|커널을 (?:더 )?(?:적게|많이)",
            re.I,
        ),
    ),
    ("occupancy", re.compile(r"occupancy|ocupaci[oó]n|점유율|오큐펀시", re.I)),
    ("l2_hit", re.compile(r"l2|aciertos|적중률|히트율", re.I)),
]
PER_IMPL = frozenset(q for q, _ in _PER_IMPL)


def _per_impl(clause: str) -> str | None:
    return next((q for q, pat in _PER_IMPL if pat.search(clause)), None)


def _denied(clause: str, *found: re.Match[str] | None) -> bool:
    m = next((f for f in found if f is not None), None)
    return m is not None and bool(_DENIED.search(clause[: m.start()]))


def comparisons(
    sentence: str, b: str, ms: list[Mention], done: list[Claim], context: str | None
) -> list[Claim]:
    """Comparisons with no number: 'faster than torch', 'fewer bytes than the naive
    version', 'más rápido que PyTorch', 'torch보다 빠르다'."""
    out = []
    for m in ms:
        if not m.compared or not m.what:
            continue
        lo, hi = conjunct(b, m, ms)
        if any(
            lo <= _pos(b, d.quote) < hi for d in done if d.quantity in ("speedup", "traffic_ratio")
        ):
            continue
        clause = b[lo:hi]
        if LANG.hypothetical.search(clause):  # "beating it would need TMA": no claim
            continue
        traffic = bool(LANG.cues["traffic"].search(clause))
        faster, slower = LANG.faster.search(clause), LANG.slower.search(clause)
        less, more = LANG.less.search(clause), LANG.more.search(clause)
        other = _per_impl(clause) if (less or more) and not (faster or slower) else None
        if other == "bandwidth":  # "a lower DRAM bandwidth than torch": not its traffic
            q, bigger = other, bool(more) and not less
            denied = _denied(clause, less or more)
        elif traffic and (less or (more and not faster)):
            q, bigger = "traffic_ratio", bool(less)
            denied = _denied(clause, less or more)
        elif faster or slower:
            q, bigger = "speedup", bool(faster) and not slower
            denied = _denied(clause, faster or slower)
        elif other is not None:  # "fewer kernels", "a higher occupancy than torch"
            q, bigger = other, bool(more) and not less
            denied = _denied(clause, less or more)
        else:
            continue
        who, how = owner(b, [x for x in ms if x is not m], m.start, m.end, -1, context)
        who = who or "submission"
        versus = m.what
        if "other" in (who, versus):  # a classmate's: nothing of ours to compare
            continue
        if who != "submission" and versus == "submission":
            who, versus, bigger = "submission", who, not bigger
        quote = sentence[lo:hi].strip() if len(sentence) == len(b) else clause.strip()
        out.append(
            Claim(
                quote=quote,
                value=1.0,
                quantity=q,
                sentence=sentence,
                subject=who,
                versus=versus,
                relation=("<=" if bigger else ">=") if denied else (">" if bigger else "<"),
                how=how or "the comparison",
                qualitative=True,
            )
        )
    return out


def _comparative(text: str) -> bool:
    return any(p.search(text) for p in (LANG.faster, LANG.slower, LANG.less, LANG.more))


def conjunct(b: str, m: Mention, ms: list[Mention]) -> tuple[int, int]:
    """The part of m's clause that is m's own comparison: comparisons joined by a conjunction
    ("a higher DRAM bandwidth than torch and fewer kernels than the naive version", "más
    ancho de banda que torch y menos kernels que la versión ingenua") are each their own
    quantity, comparative and baseline; a part with no comparative word of its own ("faster
    than torch and the naive version") shares its clause's."""
    lo, hi = clause_start(b, m.start), clause_end(b, m.end)
    others = sorted(
        (x for x in ms if x.compared and x is not m and lo <= x.start < hi), key=lambda x: x.start
    )
    a, z = lo, hi
    for x in others:
        if x.end <= m.start:
            cut = _last_and(b, x.end, m.start)
            a = cut.start() if cut is not None else a
        elif x.start >= m.end and z == hi:
            cut = _last_and(b, m.end, x.start)
            z = cut.end() if cut is not None else z
    if (a, z) != (lo, hi) and _comparative(b[a:z]):
        return a, z
    return lo, hi


def _last_and(b: str, start: int, end: int) -> re.Match[str] | None:
    found = list(LANG.conjunction.finditer(b, start, end))
    return found[-1] if found else None


def _pos(b: str, quote: str) -> int:
    i = b.find(quote.lower())
    return i if i >= 0 else -1


def single_kernel(
    sentence: str,
    b: str,
    ms: list[Mention],
    done: list[Claim],
    context: str | None,
    spans: list[tuple[int, int]],
) -> list[Claim]:
    """'one kernel', 'un solo kernel', '단일 커널': a kernel count of 1."""
    out = []
    for m in LANG.single_kernel.finditer(b):
        if any(d.quantity == "kernels" for d in done):
            continue
        who, how = owner(b, ms, m.start(), m.end(), -1, context, spans)
        c = Claim(
            quote=m.group(0),
            value=1.0,
            quantity="kernels",
            sentence=sentence,
            subject=who,
            how=how,
            qualitative=True,
        )
        if who is None:
            c.unread = "whose is it? name the implementation"
        if who == "other":
            continue
        out.append(c)
    return out
