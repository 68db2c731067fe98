"""The static check: in the trusted parent, before anything runs, every line of a submission is
held to the allowlist in `allowlist.py`. What is not on it is refused as `forbidden`, with the
line, the construct and what to write instead.

Host code (module level, plain functions, lambdas) may use the allowed modules' listed
attributes, the listed attributes of any other object (tensor metadata, views, allocation,
container methods), the listed builtins and the names the file itself defines. Module names are
only ever the base of an attribute (`torch.empty`), never values that could be passed around.
No dunder or private name, no attribute assignment, no class, no hook keyword, no state kept
between calls (`global`, `nonlocal`, mutating a module-level or default container).

Kernels are module-level functions decorated with `triton.jit` (under `triton.autotune` /
`triton.heuristics`), or wrapped once by bare name (`k = triton.jit(f)`); a kernel's name is
bound exactly once in the whole file. Kernel bodies may use triton.language, the builtins
Triton's compiler knows, their own locals, other kernels of the file and module-level
constants: under the interpreter a kernel body runs as Python, and this keeps host Python out
of it.

The file is parsed once. Its tree, docstrings and the `if __name__ == "__main__":` block taken
out, is what is checked, and `check()` returns the program the sandbox runs regenerated from
that very tree (`canonical.py`): the submission's own bytes never run. The program keeps each
statement at its original line where it fits, and `StaticReport.lines` maps each of its lines
back to the original one for the rest.

The whole walk is bounded: a file that nests deeper than `MAX_DEPTH` is refused before any
recursive step, and every list of refusals is capped (`MAX_REFUSALS`, then "and K more")."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from grader import syntax
from grader.judge.canonical import Program, Unregenerable, regenerate, strip_docstrings
from grader.judge.checker import Checker
from grader.judge.defines import bound_by

MAX_DEPTH = 100  # levels of nesting (statements and expressions); honest code stays far below
MAX_REFUSALS = 20  # refusals listed; the rest counted
MAX_REFUSAL_CHARS = 400  # one refusal's text
MAX_INT_BITS = 1024  # a numeric literal's size (Python prints ints of up to 4300 digits only)


@dataclass
class StaticReport:
    syntax_error: str | None = None
    forbidden: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # wrong shape of submission (no entry…)
    runnable: str = ""  # the program the sandbox runs, regenerated from the checked tree
    lines: list[int] = field(default_factory=list)  # runnable's line i+1 -> the file's line
    kernels: list[str] = field(default_factory=list)  # the file's Triton kernels, by name
    no_kernel: bool = False  # no Triton kernel at all: forbidden (the rest of `problems`: not)

    @property
    def ok(self) -> bool:
        return self.syntax_error is None and not self.forbidden and not self.problems

    def source_line(self, n: int) -> int:
        """The file's line of the runnable program's line `n`."""
        return Program(self.runnable, self.lines).source_line(n)


def _is_main_guard(node: ast.stmt) -> bool:
    """Exactly `if __name__ == "__main__":` (either order), with no else."""
    if not isinstance(node, ast.If) or node.orelse or not isinstance(node.test, ast.Compare):
        return False
    t = node.test
    if len(t.ops) != 1 or not isinstance(t.ops[0], ast.Eq):
        return False
    sides = [t.left, t.comparators[0]]
    return any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides) and any(
        isinstance(s, ast.Constant) and s.value == "__main__" for s in sides
    )


def too_deep(tree: ast.AST, limit: int = MAX_DEPTH) -> str | None:
    """Why the tree nests too deeply for the (recursive) walk, or None. Iterative."""
    todo: list[tuple[ast.AST, int, int]] = [(tree, 0, 0)]
    while todo:
        node, depth, line = todo.pop()
        line = getattr(node, "lineno", None) or line
        if depth > limit:
            return (
                f"line {line}: this {type(node).__name__} is nested more than {limit} levels "
                "deep (a long chain of operators or attributes, or deeply nested blocks): split "
                "it into named steps"
            )
        todo.extend((child, depth + 1, line) for child in ast.iter_child_nodes(node))
    return None


def capped(messages: list[str], limit: int = MAX_REFUSALS) -> list[str]:
    """The first `limit` distinct messages, each cut to a readable length, then how many more."""
    unique = list(dict.fromkeys(messages))
    out = [m if len(m) <= MAX_REFUSAL_CHARS else m[: MAX_REFUSAL_CHARS - 1] + "…" for m in unique]
    if len(out) > limit:
        out = [*out[:limit], f"… and {len(out) - limit} more refusals of the same kinds"]
    return out


def _parse(source: str, report: StaticReport) -> ast.Module | None:
    try:
        return syntax.parse(source, filename="submission.py")
    except SyntaxError as exc:
        msg = str(exc.msg)[:200]
        report.syntax_error = f"SyntaxError: {msg} (line {exc.lineno}, column {exc.offset})"
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, absurd nesting
        report.syntax_error = f"the file cannot be read as Python ({type(exc).__name__})"
    return None


def _walk(tree: ast.Module, body: list[ast.stmt], host_ops: set[str]) -> Checker | None:
    """The check proper; None if it could not complete (the caller refuses the file)."""
    try:
        checker = Checker(tree, body, host_ops)
        checker.run(body)
    except (RecursionError, MemoryError):
        return None
    return checker


def huge_literal(tree: ast.AST, bits: int = MAX_INT_BITS) -> str | None:
    """Why a numeric literal is too large to check (Python will not print an int of more
    than 4300 digits: the regenerated program could not be written), or None. Iterative."""
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, int | complex):
            v = n.value
            size = abs(int(v.real)).bit_length() if isinstance(v, complex) else abs(v).bit_length()
            if size > bits:
                return (
                    f"line {n.lineno}: a numeric literal of more than {bits} bits: write it "
                    "as an expression (2 ** 64) or a smaller number"
                )
    return None


def check(
    source: str, entry: str, host_ops: set[str] | frozenset[str] = frozenset()
) -> StaticReport:
    """`host_ops`: the checkpoint's epilogue operations (tensor methods and torch functions
    that host code may also call, e.g. `mean`, `sum`). Whatever goes wrong inside the check
    (parse, the passes, the regenerated program) refuses the file as `forbidden`, saying what
    could not be checked: never an error of the grader."""
    try:
        return _check(source, entry, host_ops)
    except Exception as exc:  # the guard of the whole static check
        report = StaticReport()
        report.forbidden = [
            "the file could not be checked (the static check stopped on "
            f"{type(exc).__name__}): write it more plainly (docs/SUBMISSIONS.md)"
        ]
        return report


def _check(source: str, entry: str, host_ops: set[str] | frozenset[str]) -> StaticReport:
    report = StaticReport()
    tree = _parse(source, report)
    if tree is None:
        return report
    if (why := too_deep(tree) or huge_literal(tree)) is not None:
        report.forbidden = [why]
        return report
    strip_docstrings(tree)
    body = [n for n in tree.body if not _is_main_guard(n)]
    tree.body = body
    checker = _walk(tree, body, set(host_ops))
    if checker is None:
        report.forbidden = ["the file nests too deeply to be checked: split long expressions"]
        return report
    report.forbidden = capped(sorted(checker.forbidden, key=_line))  # in the file's order
    report.kernels = sorted(checker.kernels)
    if not report.forbidden:
        try:
            program = regenerate(body)
        except Unregenerable as exc:
            report.forbidden = [f"{exc} (the grader runs exactly what it checked)"]
        except (RecursionError, MemoryError):
            report.forbidden = ["the file nests too deeply to be checked: split long expressions"]
        else:
            report.runnable, report.lines = program.text, program.lines

    defined = any(
        (isinstance(n, ast.FunctionDef) and n.name == entry)
        or (isinstance(n, ast.Assign) and any(entry in bound_by(t) for t in n.targets))
        or (isinstance(n, ast.AnnAssign) and entry in bound_by(n.target) and n.value is not None)
        for n in body
    )
    if not defined:
        report.problems.append(
            f"no function named '{entry[:80]}' at the top level of the file: the checkpoint "
            f"calls {entry[:80]}(...)"
        )
    if not checker.kernels:
        report.no_kernel = True
        report.problems.append(
            "no @triton.jit kernel in the file: the checkpoint asks for a Triton kernel"
        )
    return report


def _line(message: str) -> int:
    """A refusal's line ("line 18: …"), for the file's order; one without comes last."""
    m = re.match(r"line (\d+):", message)
    return int(m.group(1)) if m else 1 << 30
