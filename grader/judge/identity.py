"""One binding per kernel, known before anything runs, and no name left for Python or Triton's
interpreter to fill in: the facts of `defines.py` turned into refusals (`refusals()`).

- A kernel's name (and the name of a function wrapped by `k = triton.jit(f)`) is bound exactly
  once in the whole file: no second def, assignment, parameter, loop or comprehension
  variable, import, `del` or `global` of it anywhere. The wrapped function is used only there.
- `triton.jit`, `triton.autotune` and `triton.heuristics` appear only as the decorators of a
  top-level function (`@triton.jit` innermost) or in a top-level `k = triton.jit(f)` with `f`
  a bare name: any other use (`triton.jit(f if c else g)`, `partial(triton.jit)`, `j =
  triton.jit`) would make a kernel the check cannot name.
- A name Python's builtins or Triton's interpreter supply when the module leaves it unbound
  (the interpreter copies its own module globals, numpy as `np` among them, into the kernel's
  module at the first launch: `triton/runtime/interpreter.py`, `FunctionRewriter.
  _compile_and_exec`) is bound at module level only by a top-level import: `if False: np = 1`
  or `open = 1; del open` would make the check believe the file defines it."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator
from functools import cache

from grader.judge import allowlist as al
from grader.judge.defines import Defines, comprehension_walrus

JIT_KEYWORDS = frozenset(
    {"do_not_specialize", "do_not_specialize_on_alignment", "debug", "noinline"}
)


@cache
def interpreter_globals() -> frozenset[str]:
    """What Triton's interpreter copies into a kernel's module: its own module's globals."""
    import triton.runtime.interpreter as interp

    return frozenset(vars(interp))


@cache
def rewriter_names() -> frozenset[str]:
    """Globals the interpreter's rewrite of a kernel body refers to (`ast.Name(id="...")` in
    its ASTTransformer): a kernel local of that name would change what the rewrite means."""
    import inspect
    import re

    import triton.runtime.interpreter as interp

    text = inspect.getsource(interp.ASTTransformer)
    return frozenset(re.findall(r"ast\.Name\(id=[\"'](\w+)[\"']", text)) - {"lhs", "rhs"}


@cache
def filled_in() -> frozenset[str]:
    """Names Python or the interpreter resolve when the module does not bind them."""
    return interpreter_globals() | frozenset(dir(builtins))


def bindings(nodes: list[ast.AST]) -> Iterator[tuple[str, ast.AST]]:
    """Every binding of a name among `nodes` (a whole tree's), any scope."""
    for n in nodes:
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del):
            yield n.id, n
        elif isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield n.name, n
        elif isinstance(n, ast.Import | ast.ImportFrom):
            for a in n.names:
                yield (a.asname or a.name).split(".")[0], n
        elif isinstance(n, ast.ExceptHandler) and n.name:
            yield n.name, n
        elif isinstance(n, ast.arg):
            yield n.arg, n
        elif isinstance(n, ast.Global | ast.Nonlocal):
            for name in n.names:
                yield name, n
        elif isinstance(n, ast.MatchAs | ast.MatchStar) and n.name:
            yield n.name, n
        elif isinstance(n, ast.MatchMapping) and n.rest:
            yield n.rest, n


def _line(node: ast.AST) -> str:
    return f"line {getattr(node, 'lineno', '?')}"


def refusals(d: Defines, tree: ast.Module) -> list[str]:
    out: list[str] = []
    sites: dict[str, list[ast.AST]] = {}
    for name, node in bindings(d.nodes):
        sites.setdefault(name, []).append(node)
    out += _kernel_names(d, sites)
    out += _wrapped_uses(d, tree)
    out += _decorator_uses(d, tree)
    out += _filled_in_names(d, tree)
    out += [
        f"{_line(node)}: '{name}' is imported as two different things in this file: "
        "import each name once, as one thing"
        for name, node in d.alias_conflicts[:20]
    ]
    out += _rewriter_locals(d)
    return out


def _rewriter_locals(d: Defines) -> list[str]:
    from grader.judge.defines import scope_names

    out: list[str] = []
    for fn in d.kernels.values():
        own, _ = scope_names(fn.body, fn.args)
        for name in sorted(own & rewriter_names()):
            out.append(
                f"{_line(fn)}: '{name}' is a name Triton's interpreter uses when it runs this "
                "kernel: pick another name for it"
            )
    return out


def _kernel_names(d: Defines, sites: dict[str, list[ast.AST]]) -> list[str]:
    out: list[str] = []
    for name in sorted(d.kernel_names | set(d.wrapped)):
        for node in sites.get(name, [])[1:]:
            out.append(
                f"{_line(node)}: '{name}' is a kernel's name, bound again here: a kernel's "
                "name is bound exactly once in the file (no second def, assignment, "
                "parameter, loop variable, import, del or global of it): rename one"
            )
    return out


def _wrapped_uses(d: Defines, tree: ast.Module) -> list[str]:
    """A function wrapped by `k = triton.jit(f)` is used there only, and wrapped once."""
    allowed: set[int] = set()
    for wrap in d.wraps:
        inner: ast.expr = wrap.value
        while isinstance(inner, ast.Call) and d.canon(inner.func) != "triton.jit":
            inner = inner.args[0]
        if isinstance(inner, ast.Call) and isinstance(inner.args[0], ast.Name):
            allowed.add(id(inner.args[0]))
    out: list[str] = []
    seen: set[str] = set()
    for n in d.nodes:
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in d.wrapped:
            if id(n) in allowed and n.id not in seen:
                seen.add(n.id)
                continue
            out.append(
                f"{_line(n)}: '{n.id}' is wrapped as the kernel '{d.wrapped[n.id]}': use "
                f"'{d.wrapped[n.id]}', and wrap a function once"
            )
    return out


def _decorator_uses(d: Defines, tree: ast.Module) -> list[str]:
    """triton.jit/autotune/heuristics only where they make a kernel the check knows."""
    out: list[str] = []
    allowed: set[int] = set()
    top = {id(n) for n in tree.body}
    for node in d.nodes:
        if not isinstance(node, ast.FunctionDef):
            continue
        decs = [d._decorator(x) for x in node.decorator_list]
        if not any(x in al.KERNEL_DECORATORS for x in decs):
            continue
        if id(node) not in top:
            out.append(
                f"{_line(node)}: define kernels at the top level of the file (not inside a "
                "function or an if/for/try block): their names must be known before "
                "anything runs"
            )
            continue
        if any(x not in al.KERNEL_DECORATORS for x in decs):
            out.append(
                f"{_line(node)}: a kernel's decorators are triton.jit, triton.autotune and "
                "triton.heuristics only"
            )
        if decs[-1] != "triton.jit":
            out.append(f"{_line(node)}: @triton.jit must be a kernel's innermost (last) decorator")
        for dec in node.decorator_list:
            allowed.add(id(dec.func if isinstance(dec, ast.Call) else dec))
            if isinstance(dec, ast.Call):
                out += _jit_call_args(d, dec, decorator=True)
    for wrap in d.wraps:
        call: ast.expr = wrap.value
        while isinstance(call, ast.Call):
            allowed.add(id(call.func))
            if d.canon(call.func) == "triton.jit":
                out += _jit_call_args(d, call, decorator=False)
                break
            if isinstance(call.func, ast.Call):
                allowed.add(id(call.func.func))
            call = call.args[0]
    for n in d.nodes:
        if isinstance(n, ast.Name | ast.Attribute) and id(n) not in allowed:
            name = d.canon(n)
            if name in al.KERNEL_DECORATORS:
                out.append(
                    f"{_line(n)}: '{name}' may only decorate a top-level function "
                    f"(@{name}) or, for triton.jit, wrap one by its bare name at the top "
                    "level (k = triton.jit(f)): a kernel must be known by name before "
                    "anything runs"
                )
    return out


def _jit_call_args(d: Defines, call: ast.Call, decorator: bool) -> list[str]:
    out: list[str] = []
    if d.canon(call.func) != "triton.jit":
        return out
    if decorator and call.args:
        out.append(f"{_line(call)}: @triton.jit(...) takes options by keyword only")
    for kw in call.keywords:
        if kw.arg not in JIT_KEYWORDS:
            out.append(
                f"{_line(call)}: triton.jit's option '{kw.arg}=' is not allowed (allowed: "
                f"{', '.join(sorted(JIT_KEYWORDS))})"
            )
    return out


def _filled_in_names(d: Defines, tree: ast.Module) -> list[str]:
    """Names of builtins or of the interpreter's globals: bound at module level only by a
    top-level import (function-local bindings are the function's own: Python never falls
    back to a global for them), and never by a walrus, in any scope (where a walrus binds
    is the subtle part: a comprehension's enclosing function or module)."""
    risky = filled_in()
    out: list[str] = [
        f"{_line(n)}: '{n.target.id}' is a name Python or Triton's interpreter supplies when "
        "the file leaves it unbound: a walrus may not bind it (pick another name)"
        for n in d.nodes
        if isinstance(n, ast.NamedExpr) and n.target.id in risky
    ]
    for stmt in tree.body:
        direct = isinstance(stmt, ast.Import | ast.ImportFrom)
        for name, node in _module_scope_bindings(stmt):
            if name in risky and not direct:
                out.append(
                    f"{_line(node)}: '{name}' is a name Python or Triton's interpreter "
                    "supplies when the file leaves it unbound: bind it at module level only "
                    "by a top-level import, or pick another name"
                )
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            out += _imports_over_interpreter(stmt)
    return out


def _imports_over_interpreter(stmt: ast.Import | ast.ImportFrom) -> list[str]:
    """A top-level import may bind a name of the interpreter's own globals only to the object
    the interpreter has under it (`import math`, `import triton`): under another (`from triton
    import language as interpreter_semantic`) the interpreter would run the file's object."""
    import sys

    import triton.runtime.interpreter as interp

    theirs = vars(interp)
    out = []
    for a in stmt.names:
        name = (a.asname or a.name).split(".")[0]
        if name not in theirs or name.startswith("__"):
            continue
        if isinstance(stmt, ast.Import):
            target = a.name if a.asname else a.name.split(".")[0]
            mine = sys.modules.get(target, _MISSING)
        else:
            module = sys.modules.get(stmt.module or "", _MISSING)
            mine = getattr(module, a.name, _MISSING)
        if mine is not theirs[name]:
            out.append(
                f"{_line(stmt)}: '{name}' is a name of Triton's interpreter's own, which it "
                "copies into your module when a kernel runs: bind it only to what the "
                "interpreter has under it, or pick another name"
            )
    return out


_MISSING = object()


def _module_scope_bindings(stmt: ast.stmt) -> Iterator[tuple[str, ast.AST]]:
    """Bindings a top-level statement makes in the module's own scope."""
    todo: list[ast.AST] = [stmt]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield n.name, n
            todo.extend(n.decorator_list)
            continue
        if isinstance(n, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            for name in sorted(comprehension_walrus(n)):  # binds in the module
                yield name, n
            continue
        if isinstance(n, ast.Lambda):
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del):
            yield n.id, n
        elif isinstance(n, ast.Import | ast.ImportFrom):
            for a in n.names:
                yield (a.asname or a.name).split(".")[0], n
        elif isinstance(n, ast.ExceptHandler) and n.name:
            yield n.name, n
        elif isinstance(n, ast.Global | ast.Nonlocal):
            for name in n.names:
                yield name, n
        elif isinstance(n, ast.MatchAs | ast.MatchStar) and n.name:
            yield n.name, n
        elif isinstance(n, ast.MatchMapping) and n.rest:
            yield n.rest, n
        todo.extend(ast.iter_child_nodes(n))
