"""The text of an explanation as a reader sees it: what is read for claims and points.

Dropped first: HTML comments (closed or not), `<script>`/`<style>`, any element that is hidden
(`hidden`, `aria-hidden="true"`, `display:none`, `visibility:hidden`, `font-size:0`,
`opacity:0`, `<template>`), Markdown reference comments (`[//]: # (...)`), images, zero-width
and bidi control characters. Fenced blocks: the ```claims block is taken apart (claimblock.py);
any other visible one (```text, a plain ```, code) is read line by line for its figures, as
the page shows it, but meets no point. Kept: the words of links, emphasis and inline code
(`dram__bytes_read.sum`); an exponent in `<sup>` is read as `^` ("10<sup>8</sup>" is 10^8)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from grader.judge.lang import LANG

_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad]")
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_FENCE = re.compile(
    r"^ {0,3}(```+|~~~+)[ \t]*([\w-]*)[^\n]*\n(.*?)(?:^ {0,3}\1[ \t]*$|\Z)", re.S | re.M
)
_REF_COMMENT = re.compile(
    r"^\s*\[(?://|comment|#)?\]:\s*(?:#|<>)?\s*(?:\(.*?\)|\".*?\"|'.*?')?\s*$", re.M
)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
# an exponent as HTML renders it: "2.44 × 10<sup>8</sup>" reads "2.44 × 10^8", never "108"
_SUP = re.compile(r"<sup>\s*([+\-\u2212]?\s*\d{1,3})\s*</sup>", re.I)
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_HIDDEN_STYLE = re.compile(
    r"display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d]*[1-9])"
    r"|opacity\s*:\s*0(?![.\d]*[1-9])|color\s*:\s*transparent",
    re.I,
)
_VOID = {"br", "hr", "img", "input", "meta", "link", "area", "base", "col", "wbr", "source"}
_DROP = {"script", "style", "template", "noscript", "head", "title"}
_BLOCK = {"p", "div", "li", "br", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table"}


class _Visible(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.stack: list[bool] = []  # per open element: hidden

    def _hidden(self) -> bool:
        return any(self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): (v or "") for k, v in attrs}
        hidden = (
            tag in _DROP
            or "hidden" in a
            or a.get("aria-hidden", "").lower() == "true"
            or bool(_HIDDEN_STYLE.search(a.get("style", "")))
        )
        if tag in _BLOCK and not self._hidden():
            self.out.append("\n")
        if tag not in _VOID:
            self.stack.append(hidden)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        if self.stack:
            self.stack.pop()
        if tag in _BLOCK and not self._hidden():
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden():
            self.out.append(data)


_CLAIMS_FENCES = ("claims", "claim", "afirmaciones", "datos", "주장")
# where a fenced code block stood in the prose: "\ue000N\ue001" (private-use characters, dropped
# from what the student wrote), so that a block hidden in a comment is not read
_CODE_MARK = re.compile("\ue000(\\d+)\ue001")
_PRIVATE = re.compile("[\ue000\ue001]")


def split_block(text: str) -> tuple[str, str | None]:
    """The prose without its fenced blocks, and the ```claims block's lines (None: none).
    Every other fenced block (```text, a plain ```, code) leaves a mark where it stood
    (`code_blocks` has their text): a visible one is read line by line, as the instructor
    reads it on the page."""
    claims: list[str] = []
    found = False
    count = 0

    def cut(m: re.Match[str]) -> str:
        nonlocal found, count
        if m.group(2).lower() in _CLAIMS_FENCES:
            found = True
            claims.append(m.group(3))
            return "\n\n"
        count += 1
        return f"\n\n\ue000{count - 1}\ue001\n\n"

    prose = _FENCE.sub(cut, _PRIVATE.sub("", text))
    return prose, ("\n".join(claims) if found else None)


def code_blocks(text: str) -> list[str]:
    """The text of each fenced block that is not the claims block, in order."""
    return [
        m.group(3)
        for m in _FENCE.finditer(_PRIVATE.sub("", text))
        if m.group(2).lower() not in _CLAIMS_FENCES
    ]


def pieces(shown: str, blocks: list[str]) -> list[tuple[str, str]]:
    """The visible text as ("prose", text) and ("code", a block's text) pieces, in order; a
    block whose mark was hidden (in a comment, a hidden element) is not among them."""
    out: list[tuple[str, str]] = []
    at = 0
    for m in _CODE_MARK.finditer(shown):
        out.append(("prose", shown[at : m.start()]))
        i = int(m.group(1))
        if i < len(blocks):
            out.append(("code", blocks[i]))
        at = m.end()
    out.append(("prose", shown[at:]))
    return out


def prose_only(shown: str) -> str:
    """The visible text without the marks of its code blocks."""
    return _CODE_MARK.sub(" ", shown)


def visible(text: str) -> str:
    """The rendered, visible text of Markdown/HTML prose (fenced blocks already cut)."""
    s = _INVISIBLE.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    s = _COMMENT.sub(" ", s)
    s = _REF_COMMENT.sub("", s)
    s = _IMAGE.sub(" ", s)
    s = _LINK.sub(r"\1", s)
    s = _SUP.sub(lambda m: "^" + re.sub(r"\s", "", m.group(1)).replace("\u2212", "-"), s)
    parser = _Visible()
    try:
        parser.feed(s)
        parser.close()
        s = "".join(parser.out)
    except Exception:  # malformed markup: the tags stripped by hand
        s = re.sub(r"<[^>]*>", " ", s)
    s = re.sub(r"(?m)^\s{0,3}#{1,6}\s+", "", s)  # headings
    s = re.sub(r"(?<![\w*])[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}(?![\w*])", "", s)  # emphasis
    s = s.replace("`", "")
    s = re.sub(r"(?m)^\s*>\s?", "", s)  # quotes
    return column_tables(_INVISIBLE.sub("", s))


_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_EMPTY_CELL = {"", "—", "–", "-", "n/a", "·"}


def _cells(line: str) -> list[str] | None:
    if not re.match(r"^\s*\|.*\|\s*$", line) or _RULE.match(line):
        return None
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _names_impl(cell: str) -> bool:
    return any(pat.fullmatch(cell.lower()) for _, pat in LANG.impl)


def _cell(impl: str, value: str, label: str) -> str:
    if value.isdigit() and re.search(r"kernel|커널|launch|lanzamiento", label.lower()):
        return f"{impl}: {value} kernels."  # "| 커널 수 | 1 | 1 | 3 |": a count in any language
    return f"{impl}: {value} {label}."


_COUNT_LABEL = re.compile(
    r"^\W*(?:number of |n\.? ?(?:de |of )?|nº ?(?:de )?|# ?)?(?:kernels?|launch(?:es)?|"
    r"lanzamientos?|kernels? launched|커널(?: ?수| ?개수)?)"
    r"\s*(?:count|launched|lanzados)?\s*[:=]\s*",
    re.IGNORECASE,
)
_BARE_COUNT = re.compile(r"(?<![\w.,])(\d+)(?![\w.,]*\s*(?:kernels?|커널|개))(?=\s*(?:[,;)]|$|\s))")


def count_line(line: str) -> str:
    """A labelled line of counts ("kernels: mine 3, naive 5", "커널 수: 제 커널 1, naive 5"):
    each bare whole number is a kernel count ("mine 3 kernels, naive 5 kernels"), checked like
    one written in a sentence."""
    m = _COUNT_LABEL.match(line)
    if not m:
        return line
    rest = _BARE_COUNT.sub(lambda n: f"{n.group(1)} kernels", line[m.end() :])
    return rest


def column_tables(s: str) -> str:
    """A table whose header row names the implementations ("| | my kernel | torch | naive |"):
    each cell a sentence of its column's implementation ("torch: 248 MB DRAM traffic.")."""
    lines, out, i = s.split("\n"), [], 0
    while i < len(lines):
        head = _cells(lines[i])
        if (
            head is None
            or len(head) < 3
            or i + 1 >= len(lines)
            or not _RULE.match(lines[i + 1])
            or not all(_names_impl(h) for h in head[1:])
        ):
            out.append(lines[i])
            i += 1
            continue
        i += 2
        while i < len(lines) and (row := _cells(lines[i])) is not None:
            cells = zip(head[1:], row[1:], strict=False)
            said = [_cell(h, v, row[0]) for h, v in cells if v not in _EMPTY_CELL]
            out.append("\n\n".join(said) + "\n")
            i += 1
    return "\n".join(out)
