"""A Python source as the token sequence that the fingerprints are taken over.

`tokenize` (not `ast`: a file that does not compile still has tokens) gives the tokens; what
a copier can change without changing the program is removed or abstracted:

- comments, blank lines, line breaks inside brackets and the indentation's width are gone (a
  block is one INDENT and one DEDENT symbol however it is indented, a statement ends in one
  `;` symbol whether a newline or a semicolon ended it);
- a string that is a statement of its own (a docstring, anywhere) is gone, and so is every
  `import` and `from … import` statement (every submission has the same, under any alias);
- parentheses that only group (`return (a, b)`, `(x + y).to(…)`: not a call's, not a def's)
  and a comma right before a closing bracket are gone: formatters add and remove them;
- every other string is `$`, every number `#` (f-strings too, whole);
- keywords (`def`, `for`, `if`, `return`, `None`, …) and operators stay what they are;
- every identifier is `N`, except, with ``names="attributes"``, a name right after a dot:
  `tl.load(x_ptr + offs)` is `N . load ( N + N )`. A copier renames their own variables and
  even the module's alias (`import triton.language as T`), but not `load`: Triton's API and a
  tensor's methods (`.to`, `.stride`, `.dtype`) keep their names. Which mode is the default
  is measured on the repository's kernels (`benchmarks/similarity_tune.py`).

Each symbol keeps the lines of its token in the original source, so that a match can be shown
on the lines it came from.

The tokens are `tokenize`'s. On Python 3.11 the interpreter's own tokenizer (C, the one
`tokenize` itself uses from 3.12 on; eight times faster than 3.11's pure-Python `tokenize`)
gives them instead where it read the whole source; anything it stops on goes through `tokenize`,
which decides. A test holds both to the same symbols on every kernel of the repository.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import itertools
import keyword
import sys
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

NameMode = Literal["all", "attributes"]
NAME_MODES: tuple[NameMode, ...] = ("all", "attributes")

IDENT = "N"
STRING = "$"
NUMBER = "#"
END = ";"
INDENT = "{"
DEDENT = "}"

_KEYWORDS = frozenset(keyword.kwlist)
_IMPORTS = frozenset({"import", "from"})
_CLOSE = frozenset({")", "]", "}"})
_BRACKETS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}
_STATEMENT_START = frozenset({END, INDENT, DEDENT})
_NAME, _NUMBER, _STRING = tokenize.NAME, tokenize.NUMBER, tokenize.STRING
_NEWLINE, _INDENT, _DEDENT = tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT
_SKIPPED = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER})
# Python 3.12 splits an f-string into START, MIDDLE…, END (and the expressions' own tokens):
# the whole f-string is one string symbol.
_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)
_FSTRING_END = getattr(tokenize, "FSTRING_END", -1)

Token = tuple[str, int, int, int]  # text, type (operators: OP or their own), first, last line

# 3.11's TokenizerIter(source); 3.12 changed its signature (and tokenize uses it there)
_CTokenizer: Any = None
if sys.version_info[:2] == (3, 11):  # pragma: no branch
    with contextlib.suppress(ImportError):
        _CTokenizer = importlib.import_module("_tokenize").TokenizerIter


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


def _last_code_line(source: str) -> int:
    lines = source.splitlines()
    for n in range(len(lines), 0, -1):
        text = lines[n - 1].strip()
        if text and not text.startswith("#"):
            return n
    return 0


def _python_tokens(source: str) -> list[Token]:
    """`tokenize`'s tokens as (text, type, first line, last line); f-strings whole."""
    try:
        raw = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError) as e:  # IndentationError is a SyntaxError
        raise Unreadable(f"does not tokenize: {e}") from e
    out: list[Token] = []
    depth = 0
    start = 0
    for kind, text, (first, _), (last, _), _ in raw:
        if kind == _FSTRING_START:
            start = first if depth == 0 else start
            depth += 1
        elif kind == _FSTRING_END:
            depth -= 1
            if depth == 0:
                out.append(("f", _STRING, start, last))
        elif depth == 0 and kind not in _SKIPPED:
            out.append((text, tokenize.OP if kind == tokenize.ERRORTOKEN else kind, first, last))
    return out


def _symbols(tokens: Sequence[Sequence[Any]], keep_attributes: bool) -> tuple[Normalized, int]:
    """The symbols of (text, type, first line, last line, …) tokens, and the brackets left open.
    Docstrings and imports are dropped; so are parentheses that only group (`return (a, b)`,
    `(x + y).to(…)`) and a comma before a closing bracket: formatters add and remove them,
    while call parentheses stay."""
    symbols: list[str] = []
    first: list[int] = []
    last: list[int] = []
    keywords, starts = _KEYWORDS, _STATEMENT_START
    previous = END  # the previous symbol kept
    skipping = False  # inside an import, or a statement that is a string alone
    operand = False  # the previous symbol ends an operand: a "(" after it is a call
    opened: list[bool] = []  # per open "(": kept (a call, a def)
    depth = 0
    for i, tok in enumerate(tokens):
        text, kind = tok[0], tok[1]
        name = False
        if kind == _NAME:
            if text in keywords:
                sym = text
            else:
                sym = text if keep_attributes and previous == "." else IDENT
                name = True
        elif kind == _NEWLINE or text == ";":
            sym = END
        elif kind == _STRING:
            sym = STRING
        elif kind == _NUMBER:
            sym = NUMBER
        elif kind == _INDENT:
            sym = INDENT
        elif kind == _DEDENT:
            sym = DEDENT
        else:
            sym = text.strip()
            if sym in _BRACKETS:
                depth += _BRACKETS[sym]
            elif not sym:
                continue
        if not skipping and previous in starts and sym not in starts:
            # `import torch as th` is in every submission; a string alone is a docstring
            skipping = sym in _IMPORTS or (sym == STRING and _alone(tokens, i))
        if skipping:
            if sym == END:
                skipping, previous = False, END
            continue
        if sym == "(":
            opened.append(operand)
            if not operand:
                previous = sym
                continue
        elif sym in _CLOSE:
            if symbols and symbols[-1] == ",":
                symbols.pop(), first.pop(), last.pop()
            if sym == ")" and opened and not opened.pop():
                operand, previous = True, sym
                continue
        elif sym == END and previous == END:
            continue  # `a; ` then a newline: one statement end
        operand = name or sym == STRING or sym in _CLOSE
        symbols.append(sym)
        if sym == DEDENT and last:  # a block ends on its last line, not on the next one's
            first.append(last[-1])
            last.append(last[-1])
        else:
            first.append(tok[2])
            last.append(tok[3])
        previous = sym
    return Normalized(tuple(symbols), tuple(first), tuple(last)), depth


def _alone(tokens: Sequence[Sequence[Any]], i: int) -> bool:
    """Whether the string at i (and any strings right after it) is the whole statement."""
    for tok in itertools.islice(tokens, i + 1, None):
        if tok[1] != _STRING:
            return tok[1] == _NEWLINE or tok[0] == ";"
    return True


def normalize(source: str, names: NameMode = "attributes", *, fast: bool = True) -> Normalized:
    """The symbols of `source`; raises `Unreadable` if it does not tokenize. `fast=False`
    takes `tokenize`'s tokens even where the interpreter's would do (the tests compare)."""
    if names not in NAME_MODES:
        raise ValueError(f"names must be one of {NAME_MODES}, not {names!r}")
    keep = names == "attributes"
    if fast and _CTokenizer is not None:
        try:
            tokens = list(_CTokenizer(source))
        except Exception:  # SyntaxError mostly; whatever it is, tokenize decides below
            tokens = None
        # on some errors (a bad dedent, an unclosed bracket) it stops instead of raising
        if tokens is not None and (not tokens or tokens[-1][3] >= _last_code_line(source)):
            result, depth = _symbols(tokens, keep)
            if depth == 0:
                return result
    return _symbols(_python_tokens(source), keep)[0]
