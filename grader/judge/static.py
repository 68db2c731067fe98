"""The static check: in the trusted parent, before anything runs, every line of a submission is
held to the allowlist in `allowlist.py`. What is not on it is refused as `forbidden`, with the
line, the construct and what to write instead.

Host code (module level, plain functions, lambdas) may use the allowed modules' listed
attributes, the listed attributes of any other object (tensor metadata, views, allocation,
container methods), the listed builtins and the names the file itself defines. Module names are
only ever the base of an attribute (`torch.empty`), never values that could be passed around.
No dunder or private name, no attribute assignment, no class, no hook keyword.

Kernel bodies (`@triton.jit`, or `triton.jit(fn)`) may use triton.language, the builtins
Triton's compiler knows, their own locals, other kernels of the file and module-level
constants: under the interpreter a kernel body runs as Python, and this keeps host Python out
of it.

`check()` also returns the source the sandbox runs: the `if __name__ == "__main__":` block,
which the grader never executes, blanked out (its lines kept, so line numbers still match).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from grader.judge.checker import Checker
from grader.judge.defines import bound_by


@dataclass
class StaticReport:
    syntax_error: str | None = None
    forbidden: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # wrong shape of submission (no entry…)
    runnable: str = ""  # the source the sandbox runs: the main block blanked
    kernels: list[str] = field(default_factory=list)  # the file's Triton kernels, by name

    @property
    def ok(self) -> bool:
        return self.syntax_error is None and not self.forbidden and not self.problems


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


def _blank(source: str, blocks: list[ast.stmt]) -> str:
    lines = source.splitlines(keepends=True)
    for node in blocks:
        end = node.end_lineno or node.lineno
        for i in range(node.lineno - 1, end):
            lines[i] = "\n"
        lines[node.lineno - 1] = "pass  # the main block: never run by the grader\n"
    return "".join(lines)


def check(
    source: str, entry: str, host_ops: set[str] | frozenset[str] = frozenset()
) -> StaticReport:
    """`host_ops`: the checkpoint's epilogue operations (tensor methods and torch functions
    that host code may also call, e.g. `mean`, `sum`)."""
    report = StaticReport()
    try:
        tree = ast.parse(source, filename="submission.py")
    except SyntaxError as exc:
        report.syntax_error = f"SyntaxError: {exc.msg} (line {exc.lineno}, column {exc.offset})"
        return report
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, absurd nesting
        report.syntax_error = f"the file cannot be read as Python ({type(exc).__name__})"
        return report

    mains = [n for n in tree.body if _is_main_guard(n)]
    body = [n for n in tree.body if not _is_main_guard(n)]
    report.runnable = _blank(source, mains)
    checker = Checker(tree, body, set(host_ops))
    try:
        checker.run(body)
    except RecursionError:
        checker.forbidden.append("the file nests too deeply to be checked")
    report.forbidden = list(dict.fromkeys(checker.forbidden))
    report.kernels = sorted(checker.kernels)

    defined = any(
        (isinstance(n, ast.FunctionDef) and n.name == entry)
        or (isinstance(n, ast.Assign) and any(entry in bound_by(t) for t in n.targets))
        or (isinstance(n, ast.AnnAssign) and entry in bound_by(n.target) and n.value is not None)
        for n in body
    )
    if not defined:
        report.problems.append(
            f"no function named '{entry}' at the top level of the file: the checkpoint calls "
            f"{entry}(...)"
        )
    if not checker.kernels:
        report.problems.append(
            "no @triton.jit kernel in the file: the checkpoint asks for a Triton kernel"
        )
    return report
