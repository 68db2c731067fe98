"""A combine function passed to a kernel as a `tl.constexpr` parameter (`tl.reduce(x, 0,
MAX_FN)` with `MAX_FN=_max_combine` at the launch): allowed where every use of the kernel's
name is a launch `K[grid](...)` that passes that parameter, by keyword or position, as the
bare name of a plain @triton.jit function of the file (what `tl.reduce` may take by name), with
no `*args`/`**kwargs`; the kernel is plain @triton.jit itself (no autotune or heuristics that
could supply the parameter) and its body never rebinds it. Under the interpreter a combine
function runs as the kernel's own code: a host function there would be host Python in it."""

from __future__ import annotations

import ast

from grader.judge.defines import Defines, _own_nodes


def _launch(node: ast.Name) -> ast.Call | None:
    sub = getattr(node, "parent", None)
    call = getattr(sub, "parent", None)
    if isinstance(sub, ast.Subscript) and sub.value is node and isinstance(call, ast.Call):
        return call if call.func is sub else None
    return None


def _passes(call: ast.Call, index: int, param: str, ok: set[str]) -> bool:
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return False
    given = [k.value for k in call.keywords if k.arg == param]
    if index < len(call.args):
        given.append(call.args[index])
    return len(given) == 1 and isinstance(given[0], ast.Name) and given[0].id in ok


def approved_uses(d: Defines) -> set[int]:
    """ids of the Name nodes, inside kernels, that read an approved combine parameter."""
    out: set[int] = set()
    loads: dict[str, list[ast.Name]] = {}
    for n in d.nodes:
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            loads.setdefault(n.id, []).append(n)
    for name, fn in d.kernels.items():
        if name not in d.combine_ok or name in d.wrapped:
            continue
        params = [*fn.args.posonlyargs, *fn.args.args]
        own = _own_nodes(fn.body)
        stored = {
            n.id for n in own if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)
        }
        launches = [_launch(n) for n in loads.get(name, [])]
        if not launches or any(c is None for c in launches):
            continue
        for i, p in enumerate(params):
            constexpr = p.annotation is not None and d.canon(p.annotation) == (
                "triton.language.constexpr"
            )
            if not constexpr or p.arg in stored:
                continue
            if all(_passes(c, i, p.arg, d.combine_ok) for c in launches if c is not None):
                out |= {id(n) for n in own if isinstance(n, ast.Name) and n.id == p.arg}
    return out
