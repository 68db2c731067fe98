"""One claim of an explanation, and the sentences it is read from (claims.py reads them)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

GEOMEAN = "geometric mean"
# a single letter before the dot is an abbreviation only in a dotted chain ("U.S.", "a.k.a."):
# "reads past n. My kernel…" and "the naive version's. I chose…" end their sentences
_ABBREV = re.compile(
    r"(?:\b(?:vs|e\.g|i\.e|approx|ca|cf|etc|resp|fig|aprox|p\.ej)|(?<![\w'’])(?:[a-z]\.)+[a-z])\.$",
    re.I,
)
_BREAK = re.compile(
    r"[.!?。]+(?=\s|$)|\n\s*\n(?:\s*(?:[-*•]|\d+[.)])\s+)?|\n\s*[-*•]\s+|\n\s*\d+[.)]\s+"
)  # a list item's marker after a blank line is the break's, never a sentence "1." of its own


def sentences(text: str) -> list[str]:
    """Sentences, split at . ! ? followed by a space, blank lines and list bullets; never
    inside a number (4.2) or a name (F.softmax, torch.compile) or after 'vs.' or 'e.g.'."""
    out, start = [], 0
    for m in _BREAK.finditer(text):
        if m.group(0)[0] == "." and _ABBREV.search(text[start : m.end()]):
            continue
        piece = text[start : m.end()].strip()
        if piece:
            out.append(piece)
        start = m.end()
    rest = text[start:].strip()
    if rest:
        out.append(rest)
    return [" ".join(s.split()) for s in out]


_ITEM = re.compile(r"\n\s*(?:[-*•]|\d+[.)])\s+$")
_OPENS = re.compile(r"\s*(?:[-*•]|\d+[.)])\s+")


def list_items(text: str) -> list[bool]:
    """For each of `sentences(text)`: whether it opens a list item ("- …", "2. …")."""
    out, start, item = [], 0, bool(_OPENS.match(text))
    for m in _BREAK.finditer(text):
        if m.group(0)[0] == "." and _ABBREV.search(text[start : m.end()]):
            continue
        if text[start : m.end()].strip():
            out.append(item)
        item = bool(_ITEM.search(m.group(0)) or _OPENS.match(text, m.end()))
        start = m.end()
    if text[start:].strip():
        out.append(item)
    return out


@dataclass
class Claim:
    quote: str  # as written: "241 MB"
    value: float  # in the base unit: bytes, GB/s, µs, %, ×, a count
    quantity: str
    sentence: str
    subject: str | None = None  # the implementation; None with `unread`
    versus: str | None = None  # a ratio's other side
    dims: list[int] | None = None
    dtype: str | None = None
    shape_name: str | None = None  # a benchmark case named in the sentence ("k1000-bf16")
    dim_hint: int | None = None  # one dimension named: "K = 1000", "600 columns"
    geomean: bool = False
    negated: bool = False
    percent_form: str | None = None  # kept for stored readings; ratios are oriented on reading
    direction: str | None = None  # traffic: "read", "write"; None: read + written
    inverse: bool = False  # kept for stored readings
    relation: str = "="  # "=", "≈", ">=", "<=", ">", "<", "!=", "range"
    high: float | None = None  # a range's upper end
    unread: str | None = None  # why it could not be read: what the student must say
    how: str = ""  # how the implementation was told
    source: str = "prose"  # "prose", "code" (a line of a visible code block) or "block"
    index: int = 0  # the sentence's number (1-based; a block line's)
    qualitative: bool = False  # a comparison with no number


@dataclass
class Sentence:
    index: int
    text: str
    claims: list[Claim] = field(default_factory=list)
    source: str = "prose"  # or "code": a line of a visible code block (checked, meets no point)
