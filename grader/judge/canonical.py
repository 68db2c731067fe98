"""The program the sandbox runs, regenerated from the checked tree (never the submission's own
bytes): each statement written by `ast.unparse`, docstrings, comments and the main block gone,
and each statement put at its own line of the original file where it fits (a statement that
unparses to more lines than it had pushes the next ones down until a blank line or a comment
gives the room back). `lines[i]` is the original line of the program's line i + 1 (0: a blank
line), so a traceback or a compiler message names the student's own line either way.

The text has one line model: it holds no form feed, vertical tab, U+2028/2029 or other
character `str.splitlines()` would split at but the tokenizer would not (unparse escapes every
unprintable character in a string), and no line inside a string that begins with `def`,
`class` or `@`. `regenerate` checks that the text parses back to exactly the checked tree and
raises `Unregenerable` otherwise: the grader then refuses the file rather than run something it
did not check."""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass

from grader import syntax

INDENT = "    "
# str.splitlines() breaks at these; the tokenizer breaks only at \n (and \r, escaped by unparse)
_SPLITTERS = frozenset("\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


class Unregenerable(Exception):
    """The checked tree cannot be written back exactly (the message says where)."""


@dataclass
class Program:
    text: str
    lines: list[int]  # original line of each line of `text` (0: a blank filler line)

    def source_line(self, n: int) -> int:
        """The original line of the program's line `n` (1-based), or `n` if unknown."""
        if 1 <= n <= len(self.lines) and self.lines[n - 1]:
            return self.lines[n - 1]
        return n


def strip_docstrings(tree: ast.Module) -> None:
    """Drop every docstring (module, function, class): never run, never checked."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                first = body.pop(0)
                if not body and not isinstance(node, ast.Module):
                    body.append(ast.copy_location(ast.Pass(), first))


class _Writer:
    def __init__(self) -> None:
        self.out: list[str] = []
        self.origin: list[int] = []

    def put(self, chunk: str, depth: int, lineno: int) -> None:
        while len(self.out) < lineno - 1:  # the statement's own line, where there is room
            self.out.append("")
            self.origin.append(0)
        parts = chunk.split("\n")
        for i, part in enumerate(parts):
            if i and part.lstrip().startswith(("def ", "class ", "@", "async ")):
                raise Unregenerable(
                    f"line {lineno}: a string spanning lines has a line that begins with "
                    f"'{part.lstrip()[:10]}': write it on one line (with \\n)"
                )
            self.out.append(INDENT * depth + part if i == 0 else part)
            self.origin.append(lineno)

    def block(self, body: list[ast.stmt], depth: int) -> None:
        for stmt in body:
            self.stmt(stmt, depth)

    def header(self, node: ast.stmt, depth: int) -> None:
        """A compound statement's first line(s), written from a copy without its bodies."""
        bare = copy.copy(node)
        for part in ("body", "orelse", "finalbody", "handlers"):
            if hasattr(bare, part):
                setattr(bare, part, [])
        bare.body = [ast.Pass()]  # type: ignore[attr-defined]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for dec in node.decorator_list:
                self.put("@" + ast.unparse(dec), depth, dec.lineno)
            bare.decorator_list = []  # type: ignore[attr-defined]
        text = ast.unparse(bare).strip("\n")
        suffix = "\n" + INDENT + "pass"
        if not text.endswith(suffix):
            raise Unregenerable(f"line {node.lineno}: cannot write this statement back")
        self.put(text[: -len(suffix)], depth, node.lineno)

    def clause(self, word: str, body: list[ast.stmt], depth: int) -> None:
        """`else:` / `finally:`: on the line before its body's first statement, where free."""
        self.put(word, depth, max(len(self.out) + 1, body[0].lineno - 1))
        self.block(body, depth + 1)

    def stmt(self, node: ast.stmt, depth: int) -> None:
        if isinstance(node, ast.If):
            self.header(node, depth)
            self.block(node.body, depth + 1)
            orelse = node.orelse
            while len(orelse) == 1 and isinstance(orelse[0], ast.If):  # elif: the same tree
                elif_ = orelse[0]
                text = ast.unparse(elif_.test)
                self.put(f"elif {text}:", depth, elif_.lineno)
                self.block(elif_.body, depth + 1)
                orelse = elif_.orelse
            if orelse:
                self.clause("else:", orelse, depth)
        elif isinstance(node, ast.For | ast.While | ast.AsyncFor):
            self.header(node, depth)
            self.block(node.body, depth + 1)
            if node.orelse:
                self.clause("else:", node.orelse, depth)
        elif isinstance(node, ast.Try | ast.TryStar):
            self.put("try:", depth, node.lineno)
            self.block(node.body, depth + 1)
            star = "*" if isinstance(node, ast.TryStar) else ""
            for h in node.handlers:
                head = "except" + star
                if h.type is not None:
                    head += " " + ast.unparse(h.type)
                if h.name:
                    head += f" as {h.name}"
                self.put(head + ":", depth, h.lineno)
                self.block(h.body, depth + 1)
            if node.orelse:
                self.clause("else:", node.orelse, depth)
            if node.finalbody:
                self.clause("finally:", node.finalbody, depth)
        elif isinstance(
            node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.With | ast.AsyncWith
        ):
            self.header(node, depth)
            self.block(node.body, depth + 1)
        elif isinstance(node, ast.Match):
            self.put(f"match {ast.unparse(node.subject)}:", depth, node.lineno)
            for case in node.cases:
                head = "case " + ast.unparse(case.pattern)
                if case.guard is not None:
                    head += " if " + ast.unparse(case.guard)
                self.put(head + ":", depth + 1, case.pattern.lineno)
                self.block(case.body, depth + 2)
        else:
            self.put(ast.unparse(node), depth, node.lineno)


def regenerate(body: list[ast.stmt]) -> Program:
    """The program of `body` (already checked), or `Unregenerable`."""
    w = _Writer()
    w.block(body, 0)
    text = "\n".join(w.out) + "\n"
    if any(c in _SPLITTERS for c in text):
        raise Unregenerable("the file holds a line separator the program cannot carry")
    try:
        again = syntax.parse(text, filename="submission.py")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise Unregenerable(f"the regenerated program does not parse ({exc})") from exc
    if ast.dump(again) != ast.dump(ast.Module(body=body, type_ignores=[])):
        raise Unregenerable("the regenerated program differs from the checked one")
    return Program(text, w.origin)
