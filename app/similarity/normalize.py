"""A Python source as the token sequence that the fingerprints are taken over.

`tokenize` (not `ast`: a file that does not compile still has tokens) gives the tokens; what
a copier can change without changing the program is removed or abstracted:

- comments, blank lines, line breaks inside brackets and the indentation's width are gone (a
  block is one INDENT and one DEDENT symbol however it is indented, a statement ends in one
  `;` symbol whether a newline or a semicolon ended it);
- a string that is a statement of its own (a docstring, anywhere) is gone;
- every other string is `$`, every number `#` (f-strings too, whole);
- keywords (`def`, `for`, `if`, `return`, `None`, …) and operators stay what they are;
- every identifier is `N`, except, with ``names="attributes"``, a name right after a dot:
  `tl.load(x_ptr + offs)` is `N . load ( N + N )`. A copier renames their own variables and
  even the module's alias (`import triton.language as T`), but not `load`: Triton's API and a
  tensor's methods (`.to`, `.stride`, `.dtype`) keep their names. Which mode is the default
  is measured on the repository's kernels (`benchmarks/similarity_tune.py`).

Each symbol keeps the lines of its token in the original source, so that a match can be shown
on the lines it came from.
"""

from __future__ import annotations

import io
import keyword
import tokenize
from dataclasses import dataclass
from typing import Literal

NameMode = Literal["all", "attributes"]
NAME_MODES: tuple[NameMode, ...] = ("all", "attributes")

IDENT = "N"
STRING = "$"
NUMBER = "#"
END = ";"
INDENT = "{"
DEDENT = "}"

_KEYWORDS = frozenset(keyword.kwlist)
_DROPPED = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER})
# Python 3.12 splits an f-string into START, MIDDLE…, END (and the expressions' own tokens):
# the whole f-string is one string symbol.
_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)
_FSTRING_END = getattr(tokenize, "FSTRING_END", -1)
_STATEMENT_START = frozenset({END, INDENT, DEDENT})
_IMPORTS = frozenset({"import", "from"})
_CLOSE = frozenset({")", "]", "}"})


class Unreadable(ValueError):
    """The source does not tokenize (an unterminated bracket or string, a bad dedent, …)."""


@dataclass(frozen=True, slots=True)
class Normalized:
    """The symbols of a source and, for each, the first and last line of its token (1-based)."""

    symbols: tuple[str, ...]
    first_lines: tuple[int, ...]
    last_lines: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.symbols)

    def lines(self, first: int, last: int) -> tuple[int, int]:
        """The lines that symbols first…last (inclusive) span in the source."""
        return self.first_lines[first], self.last_lines[last]


def _raw_tokens(source: str) -> list[tokenize.TokenInfo]:
    try:
        return list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError) as e:  # IndentationError is a SyntaxError
        raise Unreadable(f"does not tokenize: {e}") from e


def _merge_fstrings(tokens: list[tokenize.TokenInfo]) -> list[tokenize.TokenInfo]:
    """One STRING token for each f-string (Python ≥ 3.12 tokenizes their insides)."""
    if _FSTRING_START < 0:
        return tokens
    out: list[tokenize.TokenInfo] = []
    depth = 0
    start: tokenize.TokenInfo | None = None
    for tok in tokens:
        if tok.type == _FSTRING_START:
            if depth == 0:
                start = tok
            depth += 1
        elif tok.type == _FSTRING_END:
            depth -= 1
            if depth == 0 and start is not None:
                out.append(tokenize.TokenInfo(tokenize.STRING, "f", start.start, tok.end, ""))
        elif depth == 0:
            out.append(tok)
    return out


def _symbol(tok: tokenize.TokenInfo, previous: str, names: NameMode) -> str | None:
    """The symbol of one token, None for one that says nothing about the program."""
    kind = tok.type
    if kind in _DROPPED:
        return None
    if kind == tokenize.NAME:
        if tok.string in _KEYWORDS:
            return tok.string
        if names == "attributes" and previous == ".":
            return tok.string
        return IDENT
    if kind == tokenize.NUMBER:
        return NUMBER
    if kind == tokenize.STRING:
        return STRING
    if kind == tokenize.NEWLINE or (kind == tokenize.OP and tok.string == ";"):
        return END
    if kind == tokenize.INDENT:
        return INDENT
    if kind == tokenize.DEDENT:
        return DEDENT
    text = tok.string.strip()
    return text or None  # OP, and ERRORTOKEN (a stray `$` or `?`) as itself


def _statements(
    tokens: list[tokenize.TokenInfo], names: NameMode
) -> list[tuple[str, bool, int, int]]:
    """(symbol, is a name, first line, last line) of the tokens, less docstrings and imports."""
    out: list[tuple[str, bool, int, int]] = []
    # A string at the start of a statement is held back until the next token says whether the
    # statement is that string alone (a docstring: dropped) or goes on (`"a" in s`: kept).
    held: list[tokenize.TokenInfo] = []
    previous = END
    importing = False
    for tok in tokens:
        if held:
            if tok.type == tokenize.STRING or tok.type in _DROPPED:
                if tok.type == tokenize.STRING:
                    held.append(tok)
                continue
            if _symbol(tok, STRING, names) == END or tok.type == tokenize.ENDMARKER:
                held.clear()
                continue  # the docstring and its statement's end
            out += [(STRING, False, h.start[0], h.end[0]) for h in held]
            held.clear()
            previous = STRING
        sym = _symbol(tok, previous, names)
        if sym is None:
            continue
        if previous in _STATEMENT_START:
            if tok.type == tokenize.STRING:
                held.append(tok)
                continue
            importing = sym in _IMPORTS
        if importing:  # `import torch` or `import torch as th`: the same in every submission
            previous = sym if sym in _STATEMENT_START else STRING
            continue
        if sym == END and previous == END:
            continue  # `a; ` then a newline: one statement end
        is_name = tok.type == tokenize.NAME and tok.string not in _KEYWORDS
        if sym == DEDENT and out:  # a block ends on its last line, not on the next statement's
            out.append((sym, False, out[-1][3], out[-1][3]))
        else:
            out.append((sym, is_name, tok.start[0], tok.end[0]))
        previous = sym
    return out


def _layout(raw: list[tuple[str, bool, int, int]]) -> Normalized:
    """Parentheses that only group (`return (a, b)`, `(x + y).to(…)`) and a comma before a
    closing bracket are dropped: formatters add and remove them; call parentheses stay."""
    symbols: list[str] = []
    first: list[int] = []
    last: list[int] = []
    opened: list[bool] = []  # per open "(": kept (a call, a def)
    after_operand = False  # the previous symbol ends an operand: a "(" after it is a call
    for sym, is_name, a, b in raw:
        if sym == "(":
            call = after_operand
            opened.append(call)
            after_operand = False
            if not call:
                continue
        elif sym in _CLOSE:
            if symbols and symbols[-1] == ",":
                symbols.pop(), first.pop(), last.pop()
            if sym == ")" and opened and not opened.pop():
                after_operand = True
                continue
            after_operand = True
        else:
            after_operand = is_name or sym == STRING
        symbols.append(sym)
        first.append(a)
        last.append(b)
    return Normalized(tuple(symbols), tuple(first), tuple(last))


def normalize(source: str, names: NameMode = "attributes") -> Normalized:
    """The symbols of `source`; raises `Unreadable` if it does not tokenize."""
    if names not in NAME_MODES:
        raise ValueError(f"names must be one of {NAME_MODES}, not {names!r}")
    return _layout(_statements(_merge_fstrings(_raw_tokens(source)), names))
