"""The text of an explanation as a reader sees it: what is read for claims and points.

Dropped first: HTML comments (closed or not), `<script>`/`<style>`, any element that is hidden
(`hidden`, `aria-hidden="true"`, `display:none`, `visibility:hidden`, `font-size:0`,
`opacity:0`, `<template>`), Markdown reference comments (`[//]: # (...)`), images, fenced code
blocks (the ```claims block is taken apart, claimblock.py), zero-width and bidi control
characters. Kept: the words of links, emphasis and inline code (`dram__bytes_read.sum`);
an exponent in `<sup>` is read as `^` ("10<sup>8</sup>" is 10^8)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

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


def split_block(text: str) -> tuple[str, str | None]:
    """The prose without its fenced blocks, and the ```claims block's lines (None: none).
    Other fenced blocks (code) are dropped from the prose: they are not sentences."""
    claims: list[str] = []
    found = False

    def cut(m: re.Match[str]) -> str:
        nonlocal found
        if m.group(2).lower() in ("claims", "claim", "afirmaciones", "datos", "주장"):
            found = True
            claims.append(m.group(3))
        return "\n\n"

    prose = _FENCE.sub(cut, text)
    return prose, ("\n".join(claims) if found else None)


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
    return _INVISIBLE.sub("", s)
