"""Static checks on a submission's source, run in the trusted parent before anything executes.

They answer fast and in plain words: a syntax error, a missing entry function, no
`@triton.jit` kernel, an import outside the allowlist, a builtin that escapes static reading
(eval, exec, __import__, …) or a reach into torch's private or compiler machinery. The sandbox
is the boundary; these checks keep honest mistakes cheap and the harness's instrumentation
out of reach.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

ALLOWED_IMPORTS = {
    "torch",
    "triton",
    "math",
    "typing",
    "functools",
    "itertools",
    "dataclasses",
    "__future__",
    "time",
    "operator",
    "enum",
    "collections",
}
BANNED_BUILTINS = {
    "eval",
    "exec",
    "compile",
    "__import__",
    "open",
    "globals",
    "locals",
    "vars",
    "setattr",
    "delattr",
    "breakpoint",
    "input",
    "memoryview",
}
# Attribute names that only serve to reach behind the interpreter's back.
BANNED_DUNDERS = {
    "__dict__",
    "__class__",
    "__subclasses__",
    "__globals__",
    "__builtins__",
    "__code__",
    "__closure__",
    "__bases__",
    "__mro__",
    "__getattribute__",
    "__reduce__",
    "__reduce_ex__",
    "__loader__",
    "__spec__",
    "__self__",
    "__func__",
    "__wrapped__",
    "__torch_dispatch__",
    "__torch_function__",
}
# torch sub-APIs that compile or register code (a way to get kernels written by someone else).
BANNED_TORCH = {
    "compile",
    "_dynamo",
    "_inductor",
    "jit",
    "library",
    "utils",
    "cuda.jiterator",
    "_C",
    "_ops",
    "_prims",
    "_refs",
    "_decomp",
    "fx",
    "export",
    "overrides",
}


@dataclass
class StaticReport:
    syntax_error: str | None = None
    forbidden: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # wrong shape of submission (no entry…)

    @property
    def ok(self) -> bool:
        return self.syntax_error is None and not self.forbidden and not self.problems


def _dotted(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _is_main_guard(node: ast.If) -> bool:
    test = node.test
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
    )


def _decorator_is_triton_jit(dec: ast.expr) -> bool:
    target = dec.func if isinstance(dec, ast.Call) else dec
    name = _dotted(target) or ""
    return name.endswith("jit") and ("triton" in name or name == "jit")


def check(source: str, entry: str) -> StaticReport:
    report = StaticReport()
    try:
        tree = ast.parse(source, filename="submission.py")
    except SyntaxError as exc:
        report.syntax_error = f"SyntaxError: {exc.msg} (line {exc.lineno}, column {exc.offset})"
        return report

    # The `if __name__ == "__main__":` block never runs in the grader: skip it.
    body = [n for n in tree.body if not (isinstance(n, ast.If) and _is_main_guard(n))]
    module = ast.Module(body=body, type_ignores=[])
    torch_aliases = {"torch"}
    for node in ast.walk(module):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
            shown = {n: f"import {n}" for n in names}
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "torch":
                # `from torch import compile` reaches what `torch.compile` would
                for a in node.names:
                    shown[f"{node.module}.{a.name}"] = f"from {node.module} import {a.name}"
            for name in shown:
                top = name.split(".")[0]
                if isinstance(node, ast.ImportFrom) and node.level:
                    report.forbidden.append(f"line {node.lineno}: relative imports are not allowed")
                elif top not in ALLOWED_IMPORTS:
                    report.forbidden.append(
                        f"line {node.lineno}: import of '{name}' is not allowed in a submission "
                        f"(allowed: {', '.join(sorted(ALLOWED_IMPORTS - {'__future__'}))})"
                    )
                elif top == "torch" and name != "torch":
                    sub = name.removeprefix("torch.")
                    if sub.split(".")[0] in BANNED_TORCH or sub in BANNED_TORCH:
                        report.forbidden.append(
                            f"line {node.lineno}: '{shown[name]}' is not allowed"
                        )
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == "torch" and alias.asname:
                        torch_aliases.add(alias.asname)
        elif isinstance(node, ast.Name) and node.id in BANNED_BUILTINS:
            report.forbidden.append(
                f"line {node.lineno}: '{node.id}' is not allowed in a submission"
            )
        elif isinstance(node, ast.Attribute):
            if node.attr in BANNED_DUNDERS:
                report.forbidden.append(f"line {node.lineno}: '.{node.attr}' is not allowed")
            dotted = _dotted(node)
            if dotted:
                root, _, rest = dotted.partition(".")
                if root in torch_aliases and rest:
                    first = rest.split(".")[0]
                    if first in BANNED_TORCH or any(rest.startswith(b) for b in BANNED_TORCH):
                        report.forbidden.append(
                            f"line {node.lineno}: 'torch.{rest}' is not allowed in a submission"
                        )
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and (node.value in BANNED_DUNDERS or node.value in {"__import__", "__builtins__"})
        ):
            report.forbidden.append(f"line {node.lineno}: the string {node.value!r} is not allowed")

    functions = {n.name: n for n in body if isinstance(n, ast.FunctionDef)}
    if entry not in functions and not any(
        isinstance(n, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == entry for t in n.targets)
        for n in body
    ):
        report.problems.append(
            f"no function named '{entry}' at the top level of the file: the checkpoint calls "
            f"{entry}(...)"
        )
    kernels = [
        n
        for n in ast.walk(module)
        if isinstance(n, ast.FunctionDef)
        and any(_decorator_is_triton_jit(d) for d in n.decorator_list)
    ]
    if not kernels:
        report.problems.append(
            "no @triton.jit kernel in the file: the checkpoint asks for a Triton kernel"
        )
    # de-duplicate, keep order
    report.forbidden = list(dict.fromkeys(report.forbidden))
    return report
