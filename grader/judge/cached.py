"""A cached function (functools.lru_cache / functools.cache) keeps what it was given and what
it returned from one call to the next: it may take and return only hashable immutable data
(numbers, strings, dtypes, None, tuples of them). What can be known is enforced here, in the
trusted parent: `functools.lru_cache`/`cache` only decorate a top-level function; such a
function is only ever called, by name, and each argument it is given is data — a constant, a
module-level constant, tensor metadata (`x.shape[1]`, `x.dtype`, `x.stride(0)`, `x.numel()`),
a number computed from them (`triton.next_power_of_2(n)`, `int(...)`, arithmetic), or a name
the calling function binds only to such data (`n_rows, n_cols = x.shape`). A tensor, a
parameter or a container passed to it is refused: its cache would hand a later call what an
earlier one made. (What it returns is held by `state._cached_returns`.)"""

from __future__ import annotations

import ast

from grader.judge.defines import Defines, _own_nodes

CACHES = frozenset({"functools.lru_cache", "functools.cache"})
META_ATTRS = frozenset({"shape", "dtype", "ndim", "device", "itemsize", "is_cuda", "layout"})
META_METHODS = frozenset({"stride", "size", "numel", "dim", "element_size", "nelement"})
FRESH = frozenset({"int", "float", "str", "len", "abs", "round", "bool"})
FRESH_CANON = frozenset({"triton.next_power_of_2", "triton.cdiv"})
HINT = (
    "a cached function (functools.lru_cache/cache) may be given numbers, strings, dtypes, "
    "None and tuples of them only: pass x.shape[1], x.dtype or a number computed from "
    "them, never a tensor, a parameter or a container (docs/SUBMISSIONS.md)"
)


def _is_data(e: ast.expr | None, d: Defines, names: set[str]) -> bool:
    if e is None or isinstance(e, ast.Constant):
        return True
    if isinstance(e, ast.Name):
        return e.id in names or e.id in d.constants
    if isinstance(e, ast.Attribute):
        canon = d.canon(e) or ""
        if e.attr in d.config_fields:  # a field of the file's frozen config classes: a constant
            return True
        return e.attr in META_ATTRS or canon.startswith(("torch.", "triton.language."))
    if isinstance(e, ast.Subscript):
        return _is_data(e.value, d, names) and _is_data(e.slice, d, names)
    if isinstance(e, ast.Call):
        f = e.func
        canon = d.canon(f) or (f.id if isinstance(f, ast.Name) else "")
        if canon in FRESH or canon in FRESH_CANON or canon.startswith("math."):
            return True  # a new number (or a new object: never a cache hit)
        if isinstance(f, ast.Name) and f.id in {c.name for c in d.config_classes}:
            return all(_is_data(a, d, names) for a in [*e.args, *(k.value for k in e.keywords)])
        if isinstance(f, ast.Attribute) and f.attr in META_METHODS:
            return all(_is_data(a, d, names) for a in e.args)
        if canon in {"min", "max", "tuple"}:
            return all(_is_data(a, d, names) for a in e.args) and not e.keywords
        return False
    if isinstance(e, ast.BinOp | ast.UnaryOp | ast.Compare):
        return True  # a new value, never one an earlier call kept
    if isinstance(e, ast.IfExp):
        return _is_data(e.body, d, names) and _is_data(e.orelse, d, names)
    if isinstance(e, ast.Tuple):
        return all(_is_data(x, d, names) for x in e.elts)
    return False


def _data_names(fn: ast.AST | None, d: Defines) -> set[str]:
    """Names the function (None: the module) binds, every time, only to data."""
    if fn is None:
        return set()
    body: list[ast.stmt] = (
        fn.body if isinstance(fn, ast.FunctionDef) else [ast.Expr(fn.body)]  # type: ignore[attr-defined]
    )
    own = _own_nodes(body)
    binds: dict[str, list[bool]] = {}
    for _ in range(2):  # names defined from names defined from data
        names = {k for k, v in binds.items() if all(v)}
        binds = {}
        for n in own:
            pairs: list[tuple[ast.expr, ast.expr | None]] = []
            if isinstance(n, ast.Assign):
                pairs = [(t, n.value) for t in n.targets]
            elif isinstance(n, ast.AnnAssign | ast.AugAssign | ast.NamedExpr):
                pairs = [(n.target, n.value)]
            elif isinstance(n, ast.For):
                pairs = [(n.target, None)]
            for target, value in pairs:
                ok = value is not None and _is_data(value, d, names)
                for t in ast.walk(target):
                    if isinstance(t, ast.Name):
                        binds.setdefault(t.id, []).append(ok)
    return {k for k, v in binds.items() if all(v)}


def refusals(d: Defines, parents: dict[int, ast.AST]) -> list[str]:
    module = d.nodes[0]
    assert isinstance(module, ast.Module)
    top = {n.name for n in module.body if isinstance(n, ast.FunctionDef)}
    cached = {
        n.name
        for n in d.nodes
        if isinstance(n, ast.FunctionDef)
        and n.name in top
        and any(d._decorator(x) in CACHES for x in n.decorator_list)
    }
    allowed: set[int] = set()
    for top_def in module.body:
        if isinstance(top_def, ast.FunctionDef):
            for x in top_def.decorator_list:
                allowed.add(id(x.func if isinstance(x, ast.Call) else x))
    out: list[str] = []
    names_of: dict[int, set[str]] = {}
    for n in d.nodes:
        if (
            isinstance(n, ast.Name | ast.Attribute)
            and d.canon(n) in CACHES
            and id(n) not in allowed
        ):
            out.append(f"line {n.lineno}: '{d.canon(n)}' decorates a top-level def only")
        if isinstance(n, ast.Name) and n.id in cached and isinstance(n.ctx, ast.Load):
            call = parents.get(id(n))
            if not (isinstance(call, ast.Call) and call.func is n):
                out.append(f"line {n.lineno}: '{n.id}' is cached: call it by name only: {HINT}")
                continue
            fn = parents.get(id(call))
            while fn is not None and not isinstance(fn, ast.FunctionDef | ast.Lambda):
                fn = parents.get(id(fn))
            if id(fn) not in names_of:
                names_of[id(fn)] = _data_names(fn, d)
            args = [*call.args, *(k.value for k in call.keywords)]
            if any(
                isinstance(a, ast.Starred) or not _is_data(a, d, names_of[id(fn)]) for a in args
            ):
                out.append(f"line {call.lineno}: '{n.id}(...)' is given something else: {HINT}")
    return out
