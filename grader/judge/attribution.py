"""Attribution: whose a number is (which implementation), and which side of a comparison.

Nothing is given to the nearest name: a number is an implementation's only when the sentence
says so —
- written with it: "torch's 110 µs", "my 244 MB", "X의 244 MB", "the naive version (1.02 GB)";
- linked right after it: "244 MB for my kernel", "1,02 GB de la versión ingenua", "(naive)";
- in the clause of its subject: the implementation named before it that is not the object of a
  comparison ("faster than torch, at 94 % of peak": torch is compared with, the 94 % is the
  subject's; "Compared with the naive version, my kernel … moves 244 MB": my kernel's);
- "it", "its", "su", "él": the sentence's subject (the first implementation it names that
  is not compared with), else what the sentence before spoke of — its subject, never the
  baseline it was compared with ("… against 1.02 GB for the naive version. Its time …": yours);
- "the kernel", "this kernel", "este kernel", "이 커널": yours;
- a sentence that names none: the implementation the sentence before spoke of, else yours.
Anything else — the far side of "against" with nothing named, two subjects in one clause —
is left unread: the student is asked to say whose it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grader.judge import numbers
from grader.judge.lang import LANG

CONTRAST = re.compile(
    r"(?<![\w])(?:against|vs\.?|versus|whereas|while|frente a|contra|mientras(?: que)?"
    r"|en cambio|instead of|rather than|en lugar de|en vez de|replac\w*|reemplaz\w*"
    r"|sustitu\w*|반면|대비|대신|대)(?![\w])"
)
_BREAK = re.compile(
    r"[;:]|,(?!\d)|(?<![\w])(?:but|pero|however|sin embargo|whereas|while|mientras)(?![\w])"
)
_ARTICLES = r"(?:\s*(?:the|a|an|that of|(?:el|la|los|las|lo)(?: de)?|un|una|del|de la|de los)\s+)?"


@dataclass
class Mention:
    start: int
    end: int
    what: str
    compared: bool = False  # the object of a comparison ("than torch", "torch보다")
    pronoun: bool = False


def mentions(b: str) -> list[Mention]:
    """The implementations a (normalised, blanked) sentence names, and its pronouns."""
    taken = list(b)
    found: list[Mention] = []
    for impl, pat in LANG.impl:
        for m in pat.finditer("".join(taken)):
            found.append(Mention(m.start(), m.end(), impl))
            taken[m.start() : m.end()] = " " * (m.end() - m.start())
    for p in LANG.pronoun.finditer("".join(taken)):
        found.append(Mention(p.start(), p.end(), "", pronoun=True))
    found.sort(key=lambda x: x.start)
    found = _merged(b, found)
    for x in found:
        if not x.pronoun:  # "naive 버전보다": the Korean noun after a Latin name is the name's
            tail = _KO_NOUN.match(b, x.end)
            x.end = tail.end() if tail else x.end
        x.compared = _is_compared(b, x)
    return found


_KO_NOUN = re.compile(r"\s?(?:버전|구현|커널|코드|연산|함수)(?=[\uac00-\ud7a3\s(]|$)")


def _merged(b: str, found: list[Mention]) -> list[Mention]:
    """One name read as two ("the naive five-kernel version"): one mention, so that its second
    half is not taken for a subject beside the compared-with first."""
    out: list[Mention] = []
    for x in found:
        last = out[-1] if out else None
        if (
            last is not None
            and not x.pronoun
            and not last.pronoun
            and last.what == x.what
            and re.fullmatch(r"[\s-]*", b[last.end : x.start])
        ):
            last.end = x.end
            continue
        out.append(x)
    return out


def _is_compared(b: str, m: Mention) -> bool:
    before = b[max(0, m.start - 60) : m.start]
    cb = None
    for x in LANG.compare_before.finditer(before):
        cb = x
    if cb is not None and re.fullmatch(_ARTICLES + r"\s*", before[cb.end() :]):
        return True
    if re.search(
        r"\d\s*(?:×|x|times|veces|배)\s*(?:(?:that )?of |de |del )?" + _ARTICLES + r"$", before
    ):
        return True  # "0.91× cuBLAS"
    # "torch보다", "나이브 버전(1.02 GB)보다": a parenthesis may come between, or the name's
    # own figure ("나이브 버전의 1.24 GB보다")
    return bool(
        re.match(
            r"\s*(?:\([^()]{0,40}\)\s*|의\s*[\d.,]+\s*[a-zµ/%×]*\s*)?" + LANG.compare_after.pattern,
            b[m.end : m.end + 60],
        )
    )


def resolve(
    b: str, ms: list[Mention], context: str | None, spans: list[tuple[int, int]]
) -> str | None:
    """The sentence's subject (its first implementation neither compared with nor only
    saying whose a number is), and each pronoun set to it; none: `context`, the sentence
    before's."""

    def subject_like(x: Mention) -> bool:
        return not x.pronoun and not x.compared and not _linked(b, x, spans) and not aside(b, x)

    subject = next((m.what for m in ms if subject_like(m)), None)
    for m in ms:
        if m.pronoun:
            first = next((x.what for x in ms if subject_like(x) and x.end <= m.start), None)
            m.what = first or context or subject or ""
    return subject


def topic(b: str, ms: list[Mention], spans: list[tuple[int, int]], told: list[str]) -> str | None:
    """What the sentence speaks of, for the next one's "it": its subjects (pronouns as they
    were resolved; never a compared-with baseline nor a name that only says whose a number
    is), the first that is yours or has a figure here; else its first subject."""
    subjects = [
        m.what
        for m in ms
        if m.what
        and not m.compared
        and not _linked(b, m, spans)
        and not aside(b, m)
        and not in_cause(b, m)
    ]
    told_here = set(told)
    for what in subjects:
        if what == "submission" or what in told_here:
            return what
    return subjects[0] if subjects else None


def clause_start(b: str, pos: int) -> int:
    last = 0
    for m in _BREAK.finditer(b, 0, pos):
        last = m.end()
    return last


def clause_end(b: str, pos: int) -> int:
    m = _BREAK.search(b, pos)
    return m.start() if m else len(b)


_CLAUSE_WORDS = re.compile(r"\d|(?<![\w])(?:and|y|is|es|are|son|was|reaches|alcanza)(?![\w])")
# a comparison between a number and a name: "dos kernels en vez de los nueve de la ingenua"
_NOT_LINK = re.compile(
    r"(?<![\w])(?:than|que|against|frente|en vez|en lugar|instead of|rather than)(?![\w])"
)


def _linked_after(b: str, m: Mention, end: int) -> bool:
    """The mention right after a number owns it: "244 MB for my kernel", "(naive)"."""
    gap = b[end : m.start]
    linked = (
        len(gap) <= 30
        and LANG.link_after.match(gap)
        and not _CLAUSE_WORDS.search(gap)
        and not _holds_figure(b, m)  # "244 MB (naive, 1.02 GB)": the paren is naive's own
    )
    return bool(linked and not _BREAK.search(gap.strip(" (")) and not _NOT_LINK.search(gap))


def owner(
    b: str,
    ms: list[Mention],
    start: int,
    end: int,
    prev_end: int,
    context: str | None,
    spans: list[tuple[int, int]] | None = None,
) -> tuple[str | None, str]:
    """Whose the number at b[start:end] is, and how that was read ('' when unread)."""
    spans = [sp for sp in (spans or []) if sp[1] <= start]
    named = outside_closed(b, [m for m in ms if m.what], start)
    before = [m for m in named if m.end <= start]
    mine = _owner_in_parenthesis(b, named, start, end)
    if mine is not None:  # "(110 µs el mío)", "(244 MB for the naive version)"
        return mine, "named in its parenthesis"
    side = _after_compared(b, named, start) or _parenthesised(b, named, start, context)
    if side is not None:
        return side, "its side of the comparison"
    own = _in_parenthesis(b, named, start)
    if own is not None:  # "(la versión ingenua, 1,02 GB)", "(torch: 110 µs)"
        return own, "named in its parenthesis"
    nxt = next((m for m in named if m.start >= end), None)
    if nxt is not None and _VS_AFTER.match(b[end : nxt.start]):  # "229 µs against cuBLAS's"
        return _far_side(nxt.what, named)
    # written with it: "torch's 110 µs", "the naive version (1.02 GB)", "X의 244 MB"
    if before:
        m = before[-1]
        gap = b[m.end : start]
        of = "" if m.compared else r"(?:(?:of|de|del)\s+)?"  # "the ceiling of 756 TFLOP/s"
        # "torch: 110 µs" is torch's; "… less than the naive version: 110 MB" the subject's
        mark = "[(=]" if m.compared else "[(:=]"
        if re.fullmatch(r"\s*(?:'s|’s)?\s*(?:own\s+)?" + mark + r"?\s*" + of, gap) or (
            LANG.possessive.pattern
            and re.fullmatch(r"(?:" + LANG.possessive.pattern + r")\s*", gap)
        ):
            return m.what, "named with it"
    after = [m for m in named if m.start >= end]
    if after and _linked_after(b, after[0], end):
        return after[0].what, "linked after it"
    lo = clause_start(b, start)
    subj = [m for m in before if not m.compared and not _linked(b, m, spans)]
    if subj:
        m = subj[-1]
        prev_owned = prev_end > m.end or (prev_end >= 0 and _linked(b, m, [(0, prev_end)]))
        # a closed parenthesis is its own ("68 µs (frente a 110 µs de torch) y mueve 244 MB")
        here = re.sub(r"\([^()]*\)", " ", b[max(m.end, clause_start(b, start)) : start])
        if REPLACE.search(here) or (
            prev_owned and (CONTRAST.search(here) or _from_to(b, prev_end, start))
        ):  # the far side: "244 MB against 1.02 GB", "replaces five kernels"
            return _far_side(m.what, named)
        if m.start >= lo or not any(x.start >= lo for x in named if x.end <= start):
            return m.what, "its clause's subject"
        return m.what, "the sentence's subject"
    if not named:
        return (context or "submission"), "no implementation named"
    if all(m.compared for m in named):  # only the compared-with: the implicit subject
        return (context or "submission"), "no subject named"
    nxt = after[0] if after else None
    if (
        nxt is not None
        and not nxt.compared
        and _paren_at(b, nxt.start) in (None, _paren_at(b, start))
    ):
        gap = b[end : nxt.start]
        if not _BREAK.search(gap) and not CONTRAST.search(gap):
            return nxt.what, "its clause's subject (after it)"
    replaced = bool(before and REPLACE.search(b[before[-1].end : start]))
    if not replaced and not [m for m in before if not m.compared and not _linked(b, m, spans)]:
        return (context or "submission"), "no subject before it"
    return None, ""


def ratio_owner(
    b: str,
    ms: list[Mention],
    start: int,
    subject: str | None,
    context: str | None,
    spans: list[tuple[int, int]] | None = None,
    owned: list[tuple[int, int]] | None = None,
) -> tuple[str | None, str]:
    """Whose a ratio is: the implementation its clause names before it (not compared
    with), else the sentence's subject, else the sentence before's."""
    spans = spans or []
    own = [
        m
        for m in outside_closed(b, ms, start)
        if m.what
        and not m.compared
        and m.end <= start
        and not _linked(b, m, spans)
        # "X moves 1.24 GB, … 11× less": X's bytes are one side, the ratio the subject's
        and not any(m.end <= a and e <= start for a, e in owned or [])
    ]
    if own:
        return own[-1].what, "its clause's subject"
    if subject:
        return subject, "the sentence's subject"
    return context, "the sentence before's subject" if context else ""


def _linked(b: str, m: Mention, spans: list[tuple[int, int]]) -> bool:
    """A name that only says whose a number is: "1.02 GB for the naive version"."""
    for _, e in spans:
        gap = b[e : m.start]
        if (
            e <= m.start
            and len(gap) <= 40
            and LANG.link_after.match(gap)
            and not _BREAK.search(gap.strip(" ("))
        ):
            return True
    return False


REPLACE = re.compile(
    r"(?<![\w])(?:instead of|rather than|en lugar de|en vez de|replac\w*|reemplaz\w*|sustitu\w*"
    r"|대신)(?![\w])"
)
_VS_AFTER = re.compile(
    r"^\s*(?:against|vs\.?|versus|compared (?:to|with)|than|frente a|contra|comparad[oa] con)"
    r"\s+(?:the\s+|el\s+|la\s+)?$"
)


def _from_to(b: str, prev_end: int, start: int) -> bool:
    """'from 1.0 GB (naive) to 241 MB', 'desde 1,02 GB hasta 244 MB', '1.02 GB에서 244 MB로'."""
    gap = b[prev_end:start]
    if "에서" in gap:
        return True
    return bool(
        # the "to" right before the number ("… vuelve a la DRAM …, mueve 1,02 GB" is no "to")
        re.search(r"(?<![\w])(?:to|hasta|down to|a)\s+(?:(?:only|just|solo|sólo)\s+)?$", gap)
        and re.search(
            r"(?<![\w])(?:from|desde|pasa de|baja de|de)(?![\w])",
            b[max(0, prev_end - 40) : prev_end],
        )
    )


_CAUSE_BEFORE = re.compile(r"(?<![\w])(?:because|since|porque|ya que|puesto que)(?![\w])")
_CAUSE_AFTER = re.compile(r"(?:때문에|덕분에|므로|니까)")


def in_cause(b: str, m: Mention) -> bool:
    """A name in a clause of cause: "… porque cuBLAS ya gana la GEMM densa", "cuBLAS가 이미
    GEMM을 이기기 때문에 …": not what the sentence speaks of for the next one."""
    if _CAUSE_BEFORE.search(b, clause_start(b, m.start), m.start):
        return True
    return bool(_CAUSE_AFTER.search(b[m.end : clause_end(b, m.end)]))


def aside(b: str, m: Mention) -> bool:
    """A name inside a parenthesis: an aside, never the sentence's subject ("a single kernel
    launch (the naive version needs 5)")."""
    return _paren_at(b, m.start) is not None


def _paren_at(b: str, pos: int) -> tuple[int, int] | None:
    """The parenthesis around b[pos] (open, close), if any."""
    opened = b.rfind("(", 0, pos)
    if opened < 0 or ")" in b[opened:pos]:
        return None
    close = b.find(")", pos)
    return opened, close if close >= 0 else len(b)


def outside_closed(b: str, named: list[Mention], start: int) -> list[Mention]:
    """The names a number at `start` may be given to: not those inside a parenthesis closed
    before it ("mi kernel tarda 63 µs (la versión ingenua, 340 µs) y mueve 244 MB": the naive
    version is named only for its own figure)."""
    out = []
    for m in named:
        p = _paren_at(b, m.start)
        if p is not None and p[1] < start:
            continue
        out.append(m)
    return out


def _holds_figure(b: str, m: Mention) -> bool:
    """A name opening a parenthesis with its own figure: '(la versión ingenua, 1,02 GB)'."""
    p = _paren_at(b, m.start)
    return p is not None and bool(re.search(r"\d", b[m.end : p[1]]))


def _owner_in_parenthesis(b: str, named: list[Mention], start: int, end: int) -> str | None:
    """A number in a parenthesis with its owner named right after it, inside it."""
    p = _paren_at(b, start)
    if p is None:
        return None
    after = [m for m in named if m.start >= end and m.end <= p[1]]
    if not after:
        return None
    gap = b[end : after[0].start]
    if len(gap) > 30 or re.search(r"\d", gap) or _BREAK.search(gap):
        return None
    return after[0].what if (not gap.strip() or LANG.link_after.match(gap)) else None


def _after_compared(b: str, named: list[Mention], start: int) -> str | None:
    """'5.20× faster than the naive version (353 µs)': a parenthesis right after the
    compared-with name, with no contrast in it, holds that name's figure."""
    p = _paren_at(b, start)
    if p is None or CONTRAST.search(b[p[0] : p[1]]):
        return None
    if any(p[0] < m.start and m.end <= p[1] for m in named):
        return None  # "(mine: 46 µs)", "(37 µs for mine)": its own name says whose (pass 6)
    # '(1.24 GB over nine kernels)', '(커널 9개, 1.24 GB)': one implementation's figures, each
    # of its own quantity; '(35.18 GB … 262 MB)', two of one quantity: a pair, the two sides
    kinds = [n.quantity for n in numbers.find(b[p[0] : p[1]], ".")]
    if len(set(kinds)) < len(kinds) or re.search(r"\d", _without_read_numbers(b[p[0] : p[1]])):
        return None
    last = [m for m in named if m.end <= p[0]]
    if last and last[-1].compared and not b[last[-1].end : p[0]].strip():
        return last[-1].what
    return None


def _without_read_numbers(inside: str) -> str:
    """The text of a parenthesis without its read numbers (digits left: a figure not read)."""
    for n in reversed(numbers.find(inside, ".")):
        inside = inside[: n.start] + " " + inside[n.end :]
    return inside


def _in_parenthesis(b: str, named: list[Mention], start: int) -> str | None:
    """A number in a parenthesis that opens with a name: that name's ('(torch, 110 µs)',
    '(나이브 버전은 1.02 GB)')."""
    p = _paren_at(b, start)
    if p is None:
        return None
    inside = [m for m in named if p[0] < m.start and m.end <= start and not m.compared]
    if not inside or not re.fullmatch(r"\(\s*", b[p[0] : inside[0].start]):
        return None
    return inside[-1].what


def _parenthesised(
    b: str, named: list[Mention], start: int, context: str | None = None
) -> str | None:
    """'A … than B (a against b)': in a parenthesis after a comparison, the first number is
    A's, the one after the contrast B's; A not named: the sentence before's ("- about 4x less
    traffic than the naive version (~0.25 GB vs ~1 GB)" under "what I measured for my kernel")."""
    paren = b.rfind("(", 0, start)
    if paren < 0 or ")" in b[paren:start]:
        return None
    if any(paren < m.start < start for m in named):
        return None  # "(torch 68 µs)": named in it, that name's (_in_parenthesis)
    clause = clause_start(b, paren)
    # the compared-with of the clause before it: "than torch", "torch보다"
    z = [m for m in named if m.compared and clause <= m.start and m.end <= paren]
    if not z:
        return None
    # the comparison's subject: named before it, else the sentence before's ("mi kernel mueve
    # …, y es 1,6 veces más rápido que torch (68 µs frente a 110 µs)")
    a = [m.what for m in named if m.end <= z[0].start and not m.compared]
    if not a and z[0].what != (context or "submission"):
        a = [context or "submission"]
    if not a:
        return None
    return z[0].what if CONTRAST.search(b[paren:start]) else a[-1]


FROM_TO = re.compile(
    r"(?<![\w])(?:from|de|desde)(?![\w]).*(?<![\w])(?:to|a|hasta)(?![\w])|에서.*(?:로|으로)"
)


def _far_side(subject: str, named: list[Mention]) -> tuple[str | None, str]:
    """The far side of 'against', 'instead of', 'from … to' with nothing named there: yours
    when the subject is a baseline; a baseline only when the sentence names exactly one."""
    if subject != "submission":
        return "submission", "the other side of the comparison"
    others = {m.what for m in named if m.what not in ("submission", "ceiling")}
    if len(others) == 1:
        return others.pop(), "the other side of the comparison"
    return None, ""


def compared_with(b: str, ms: list[Mention], start: int, end: int) -> Mention | None:
    """The implementation a ratio is against: the comparison's object in its clause, nearest
    the number (after it: "1.6× faster than torch"; before it: "torch보다 1.62배")."""
    lo, hi = clause_start(b, start), clause_end(b, end)
    objs = [m for m in ms if m.compared and m.what]
    right_before = [
        m for m in objs if lo <= m.end <= start and _JUST_COMPARED.fullmatch(b, m.end, start)
    ]
    if right_before:  # "나이브 버전보다 4.16배 적은 …, torch보다 1.62배": each its own
        return right_before[-1]
    # after it, unless another ratio stands between ("Frente a torch es 1,62 veces … y 5,20
    # veces más rápido que la versión ingenua": the 5,20's), or it opens its own ratio and one
    # before opens this ("frente a torch es de 1,62x y frente a torch.compile de 1,26x")
    after = [m for m in objs if end <= m.start <= hi and not _A_RATIO.search(b, end, m.start)]
    own = [m for m in objs if lo <= m.end <= start and not _A_RATIO.search(b, m.end, start)]
    if after:
        return own[-1] if own and _A_RATIO.search(b, after[0].end, hi) else after[0]
    # after a contrast before it ("36,9 µs frente a los 45,6 µs de torch, es decir, 12,35 veces")
    objs = sorted(objs + [m for m in ms if _contrasted(b, m)], key=lambda m: m.end)
    inside = [m for m in objs if lo <= m.end <= start]
    if inside:
        return inside[-1]
    anywhere = [m for m in objs if m.end <= start]
    return anywhere[-1] if anywhere else None


def _contrasted(b: str, m: Mention) -> bool:  # "frente a los 45,6 µs de torch", "against"
    if m.compared or m.pronoun or m.what in ("", "submission", "ceiling"):
        return False
    return bool(CONTRAST.search(b, clause_start(b, m.start), m.start))


_A_RATIO = re.compile(r"\d(?:\s*(?:" + LANG.ratio_units + r")|x(?![\w]))")  # "1,26x" too
_JUST_COMPARED = re.compile(
    r"\s*(?:" + LANG.compare_after.pattern + r")\s*(?:(?:" + LANG.approx.pattern + r")\s*)?"
)


def nearest(ms: list[Mention], start: int, end: int) -> Mention | None:
    before = [m for m in ms if m.end <= start]
    if before:
        return before[-1]
    after = [m for m in ms if m.start >= end]
    return after[0] if after else None
