"""Host code holds no state between calls: every call of the entry starts from what the file's
import made. Refused: `global` and `nonlocal`; generators (`yield`) in host code; a mutable
default argument built by a call or a container (`def f(x, cache={})`: built once, shared by
every call); and, inside any
function, changing a container or tensor bound at module level or as a default — a mutating
method (`CACHE.append(x)`, `SEEN.add(k)`, `BUF.copy_(x)`, `next(IT)`), an item assignment,
deletion or augmented assignment (`CACHE[k] = v`) — or handing such a container on as a value
(`c = CACHE`, `helper(CACHE)`, `return CACHE`), where the change could be made out of sight.
Reading one is fine: `TABLE[k]`, `TABLE.get(k)`, `for c in CONFIGS`, `len(CONFIGS)`.
Attribute assignment (function attributes too) is refused by the walk itself."""

from __future__ import annotations

import ast

from grader.judge import cached
from grader.judge.cached import _is_data as is_data
from grader.judge.defines import Defines, _own_nodes, bound_by, scope_names
from grader.judge.enclosing import Held as _Held
from grader.judge.enclosing import enclosing_names as _enclosing_names
from grader.judge.identity import _module_scope_bindings

MUTATORS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "pop",
        "popitem",
        "remove",
        "clear",
        "update",
        "setdefault",
        "add",
        "discard",
        "sort",
        "reverse",
        "difference_update",
        "intersection_update",
        "symmetric_difference_update",
    }
)
READERS = frozenset(
    {"len", "sorted", "list", "tuple", "set", "frozenset", "dict", "enumerate", "zip", "min"}
    | {"max", "sum", "any", "all", "reversed", "iter", "isinstance", "str", "print", "bool"}
)
PLAIN = (
    ast.Constant,
    ast.Name,
    ast.Attribute,
    ast.Tuple,
    ast.UnaryOp,
    ast.expr_context,
    ast.unaryop,
)
CONTAINER = frozenset({"list", "dict", "set", "iter"})
MUTABLE = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
STATE_HINT = (
    "host code keeps no state between calls: compute it in the call, or make it a "
    "module-level constant (a tuple, a number) that is never changed (docs/SUBMISSIONS.md)"
)


def _root(node: ast.expr) -> ast.Name | None:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node if isinstance(node, ast.Name) else None


def _plain_default(v: ast.expr) -> bool:
    """A default built of constants, names and attributes (None, 1e-6, torch.float32)."""
    return all(isinstance(n, PLAIN) for n in ast.walk(v))


def _config_default(v: ast.expr, d: Defines) -> bool:
    """`launch: Launch = Launch(4, num_warps=8)`: an instance of one of the file's immutable
    config classes (a typing.NamedTuple, a frozen dataclass) built of plain values."""
    configs = {c.name for c in d.config_classes}
    return (
        isinstance(v, ast.Call)
        and isinstance(v.func, ast.Name)
        and v.func.id in configs
        and v.func.id not in d.aliases
        and all(_plain_default(a) for a in [*v.args, *(k.value for k in v.keywords)])
        and all(k.arg is not None for k in v.keywords)
        and not any(isinstance(a, ast.Starred) for a in v.args)
    )


def _mutable_value(v: ast.expr | None, d: Defines | None = None) -> bool:
    """A value that is, or holds, a mutable container or a tensor (`[..]`, `Cfg(sizes=[1])`,
    `set()`, `torch.empty(n)`: a kernel may write a tensor where no check sees it)."""
    if v is None:
        return False
    return any(
        isinstance(n, MUTABLE)
        or (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in CONTAINER)
        or (
            isinstance(n, ast.Call)
            and d is not None
            and (d.canon(n.func) or "").startswith(("torch.", "triton.Config"))
            and not (d.canon(n.func) or "").startswith(("torch.cuda", "torch.finfo", "torch.iinfo"))
        )
        for n in ast.walk(v)
    )


PURE = frozenset({"int", "float", "str", "tuple", "frozenset", "min", "max", "abs", "round", "len"})


def _opaque(v: ast.expr | None, d: Defines) -> bool:
    """A call whose result may be a container: anything but a builtin or a math/triton helper
    known to return a number, a string or a tuple (`CACHE = make()` may be a dict)."""
    for n in ast.walk(v) if v is not None else ():
        if not isinstance(n, ast.Call):
            continue
        name = d.canon(n.func) or (n.func.id if isinstance(n.func, ast.Name) else "")
        pure = (
            name in PURE
            or name.startswith(("math.", "triton.language."))
            or name
            in {
                "triton.next_power_of_2",
                "triton.cdiv",
            }
        )
        if not pure and name not in {c.name for c in d.config_classes}:
            return True
    return False


def _cached_returns(d: Defines, fn: ast.FunctionDef) -> list[str]:
    """A function under functools.lru_cache/cache hands every caller the same object: it may
    return numbers, strings and tuples of them, never a container, a tensor or a Config."""
    cached = any(
        d._decorator(x) in {"functools.lru_cache", "functools.cache"} for x in fn.decorator_list
    )
    if not cached:
        return []
    why = (
        "a cached function returns the same object to every call: return numbers or tuples "
        "of them from it, not a container, a tensor or a Config"
    )
    out = [
        f"line {r.lineno}: {why}"
        for r in _own_nodes(fn.body)
        if isinstance(r, ast.Return) and _mutable_value(r.value, d)
    ]
    # what it returns may be made in its body under another name (`buf = torch.zeros(n);
    # return buf`): a name returned, or bound from one, that holds a tensor or a container
    made = _made_and_returned(fn, d)
    out += [f"line {n}: {why} (made here, returned by name)" for n in made[:1]]
    if out:
        return out
    # and positively: each return is data (its parameters, numbers made from them, names
    # bound only to such data), never another function's result (`return _fresh()`)
    data = _data_names(fn, d)
    return [
        f"line {r.lineno}: {why} (what it returns here is not data: numbers, strings, "
        "dtypes, None or tuples of them made from its arguments)"
        for r in _own_nodes(fn.body)
        if isinstance(r, ast.Return) and not is_data(r.value, d, data)
    ][:1]


def _data_names(fn: ast.FunctionDef, d: Defines) -> set[str]:
    """The cached function's parameters (its callers give it data only: cached.py) and the
    names it binds only to data, in any order (a fixpoint)."""
    a = fn.args
    names = {p.arg for p in [*a.posonlyargs, *a.args, *a.kwonlyargs]}
    binds: list[tuple[set[str], ast.expr | None]] = []
    for n in _own_nodes(fn.body):
        if isinstance(n, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            bound = {t.id for x in targets for t in ast.walk(x) if isinstance(t, ast.Name)}
            binds.append((bound, n.value))
        elif isinstance(n, ast.NamedExpr):
            binds.append(({n.target.id}, n.value))
        elif isinstance(n, ast.For):
            binds.append((bound_by(n.target), None))  # a loop's names: never taken as data
        elif isinstance(n, ast.With):
            held = [i.optional_vars for i in n.items if i.optional_vars is not None]
            binds.append(({t for x in held for t in bound_by(x)}, None))
    tainted: set[str] = set()
    good = set(names)  # names - tainted, kept as they change (not made again for every bind)
    changed = True
    while changed:
        changed = False
        for bound, value in binds:
            ok = value is not None and is_data(value, d, good)
            for name in bound:
                if not ok and name not in tainted:
                    tainted.add(name)
                    good.discard(name)
                    changed = True
                elif ok and name not in names and name not in tainted:
                    names.add(name)
                    good.add(name)
                    changed = True
    return good


def _made_and_returned(fn: ast.FunctionDef, d: Defines) -> list[int]:
    """Lines where a cached function binds a tensor, container or Config to a name it then
    returns (directly or through other names)."""
    nodes = _own_nodes(fn.body)
    returned = {
        n.id
        for r in nodes
        if isinstance(r, ast.Return) and r.value is not None
        for n in ast.walk(r.value)
        if isinstance(n, ast.Name)
    }
    binds: list[tuple[str, ast.expr, int]] = []
    for n in nodes:
        if isinstance(n, ast.Assign | ast.AnnAssign | ast.NamedExpr) and n.value is not None:
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for target in targets:
                for t in ast.walk(target):
                    if isinstance(t, ast.Name):
                        binds.append((t.id, n.value, n.lineno))
    # names returned reach back through the names they were bound from: one walk of each
    # value, then a worklist (linear in the function: a 2,200-long chain `b1 = b2; b2 = b3`
    # took the parent minutes when every pass walked every value again)
    sources: dict[str, set[str]] = {}
    for name, value, _ in binds:
        sources.setdefault(name, set()).update(
            m.id for m in ast.walk(value) if isinstance(m, ast.Name)
        )
    reached: set[str] = set()
    todo = list(returned)
    while todo:
        for m in sources.get(todo.pop(), ()):
            if m not in returned and m not in reached:
                reached.add(m)
                todo.append(m)
    # returned itself: any container or tensor; only reached (an element, a method's result
    # taken from it): one that makes a tensor or a Config (`holder = [torch.zeros(n)]`), not a
    # table of numbers read from (`table = {1: 2}; return table.get(n)`)
    return sorted(
        line
        for name, v, line in binds
        if (name in returned and _mutable_value(v, d)) or (name in reached and _makes(v, d))
    )


def _makes(v: ast.expr, d: Defines) -> bool:
    return any(
        isinstance(n, ast.Call)
        and (d.canon(n.func) or "").startswith(("torch.", "triton.Config"))
        and not (d.canon(n.func) or "").startswith(("torch.cuda", "torch.finfo", "torch.iinfo"))
        for n in ast.walk(v)
    )


class _Function:
    """One function's body, its nested functions left to their own visit."""

    def __init__(
        self,
        fn: ast.FunctionDef | ast.Lambda,
        held: set[str],
        mutable: set[str],
        outer: frozenset[str] = frozenset(),
    ):
        body: list[ast.stmt] = fn.body if isinstance(fn, ast.FunctionDef) else [ast.Expr(fn.body)]
        own, _ = scope_names(body, fn.args)
        self.held = _Held(held, outer, own=own)
        self.mutable = _Held(mutable, own=own)
        self.out: list[str] = []
        self.body = body

    def nodes(self) -> list[ast.AST]:
        out: list[ast.AST] = []
        todo: list[ast.AST] = list(self.body)
        while todo:
            n = todo.pop()
            out.append(n)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                todo.extend(n.args.defaults)
                todo.extend(d for d in n.args.kw_defaults if d is not None)
                todo.extend(getattr(n, "decorator_list", []))
                continue
            todo.extend(ast.iter_child_nodes(n))
        return out

    def refuse(self, node: ast.AST, what: str) -> None:
        self.out.append(f"line {getattr(node, 'lineno', '?')}: {what}: {STATE_HINT}")

    def check(self, parents: dict[int, ast.AST]) -> list[str]:
        for n in self.nodes():
            if isinstance(n, ast.Call):
                f = n.func
                if isinstance(f, ast.Attribute) and (f.attr in MUTATORS or f.attr.endswith("_")):
                    root = _root(f.value)
                    if root is not None and root.id in self.held:
                        self.refuse(n, f"'{root.id}.….{f.attr}(...)' changes a module-level value")
                elif isinstance(f, ast.Name) and f.id == "next" and n.args:
                    root = _root(n.args[0])
                    if root is not None and root.id in self.held:
                        self.refuse(n, f"'next({root.id})' advances a module-level iterator")
            elif isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store | ast.Del):
                root = _root(n)
                if root is not None and root.id in self.held:
                    self.refuse(n, f"assigning into '{root.id}' changes a module-level value")
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Subscript):
                root = _root(n.target)
                if root is not None and root.id in self.held:
                    self.refuse(n, f"assigning into '{root.id}' changes a module-level value")
            elif (
                isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Load)
                and n.id in self.mutable
                and not _read_only(n, parents)
            ):
                self.refuse(
                    n,
                    f"'{n.id}' (a container bound at module level or as a default) is handed "
                    "on as a value; read it in place (NAME[k], NAME.get(k), for x in NAME) or "
                    "copy it (list(NAME))",
                )
        return self.out


def _read_only(n: ast.Name, parents: dict[int, ast.AST]) -> bool:
    p = parents.get(id(n))
    if isinstance(p, ast.Subscript) and p.value is n:
        return True
    if isinstance(p, ast.Attribute) and p.value is n:
        return p.attr not in MUTATORS and not p.attr.endswith("_")
    if isinstance(p, ast.For | ast.comprehension) and p.iter is n:
        return True
    if isinstance(p, ast.Compare):
        return True
    return (
        isinstance(p, ast.Call)
        and n in p.args
        and isinstance(p.func, ast.Name)
        and p.func.id in READERS
    )


ITERATORS = frozenset({"iter", "map", "filter", "zip", "enumerate", "reversed", "aiter"})
CONSUMERS = frozenset(
    {"list", "tuple", "dict", "set", "frozenset", "sorted", "min", "max", "sum", "any", "all"}
    | {"len", "str", "int", "float", "bool"}
)


def _iterator_call(n: ast.Call, d: Defines) -> bool:
    name = d.canon(n.func) or (n.func.id if isinstance(n.func, ast.Name) else "")
    return name.startswith("itertools.") or (name in ITERATORS and name not in d.aliases)


def _own_function(n: ast.Name, d: Defines) -> bool:
    """A name the file binds itself at module level (not an import): a function, a lambda,
    anything callable the file made."""
    return n.id in d.module_names and n.id not in d.aliases


def _stateful(v: ast.expr, d: Defines) -> str | None:
    """What in a module-level value may be an object with state of its own, or None: an
    iterator (itertools', iter, map, filter, zip, enumerate, reversed, a generator
    expression) or the result of calling a function of the file (a closure over an iterator,
    a generator). Consumed at import is fine: `list(zip(a, b))`, a comprehension over
    `itertools.product(...)`, a call of one of the file's immutable config classes."""
    configs = {c.name for c in d.config_classes}
    todo: list[ast.AST] = [v]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.GeneratorExp):
            return "a generator expression"
        if isinstance(n, ast.Lambda):
            continue  # not run at import; its body is held to the function rules
        if isinstance(n, ast.ListComp | ast.SetComp | ast.DictComp):
            todo += [n.key, n.value] if isinstance(n, ast.DictComp) else [n.elt]
            continue  # the generators' iterables are consumed at import
        if isinstance(n, ast.Call):
            name = d.canon(n.func) or (n.func.id if isinstance(n.func, ast.Name) else "")
            if _iterator_call(n, d):
                return f"'{name}(...)' (an iterator)"
            if isinstance(n.func, ast.Name) and _own_function(n.func, d):
                if n.func.id not in configs:
                    classes = {c.name for c in d.nodes if isinstance(c, ast.ClassDef)}
                    kind = "a class" if n.func.id in classes else "a function"
                    return f"the result of '{n.func.id}(...)', {kind} of the file,"
                todo += [*n.args, *(k.value for k in n.keywords)]
                continue
            if name in CONSUMERS and name not in d.aliases:
                for a in n.args:  # consumed: only what a comprehension yields stays
                    if isinstance(a, ast.GeneratorExp | ast.ListComp | ast.SetComp):
                        todo.append(a.elt)
                    elif isinstance(a, ast.Call) and _iterator_call(a, d):
                        f = a.args[0] if a.args else None
                        if (
                            isinstance(f, ast.Name) and _own_function(f, d) and f.id not in configs
                        ):  # list(map(make, xs))
                            return f"the results of '{f.id}', a function of the file,"
                        todo += a.args  # list(zip(A, B)): the iterator is used up
                    else:
                        todo.append(a)
                continue
        todo.extend(ast.iter_child_nodes(n))
    return None


def _partials_holding_state(v: ast.expr, d: Defines) -> list[str]:
    """`functools.partial(f, [])` binds a container (or a tensor) into a callable: f gets the
    same one every call and may keep state in it, where no module-level name holds it."""
    return [
        f"line {n.lineno}: functools.partial(...) holding a container or a tensor shares it "
        f"with every call: {STATE_HINT}"
        for n in ast.walk(v)
        if isinstance(n, ast.Call)
        and d.canon(n.func) in {"functools.partial", "functools.partialmethod"}
        and any(_mutable_value(a, d) for a in [*n.args[1:], *(k.value for k in n.keywords)])
    ]


def refusals(d: Defines, tree: ast.Module) -> list[str]:
    out: list[str] = []
    held: set[str] = set()
    mutable: set[str] = set()
    for stmt in tree.body:
        # what a decorator's arguments bind is module-level data too (an autotuner's
        # prune, a heuristic's values)
        for dec in stmt.decorator_list if isinstance(stmt, ast.FunctionDef) else []:
            out += _partials_holding_state(dec, d)
        if isinstance(stmt, ast.FunctionDef | ast.Import | ast.ImportFrom):
            continue
        if isinstance(stmt, ast.Assign | ast.AnnAssign | ast.Expr) and stmt.value is not None:
            out += _partials_holding_state(stmt.value, d)
        names = {name for name, _ in _module_scope_bindings(stmt)}
        held |= names
        values = [stmt.value] if isinstance(stmt, ast.Assign | ast.AnnAssign) else []
        values += [n.value for n in ast.walk(stmt) if isinstance(n, ast.NamedExpr)]
        for loop in (n for n in ast.walk(stmt) if isinstance(n, ast.For)):  # what it binds
            it = loop.iter
            if isinstance(it, ast.Tuple | ast.List | ast.Set):
                values += it.elts
            elif isinstance(it, ast.Call) and _iterator_call(it, d):
                values += it.args  # for a, b in itertools.product(A, B): A's and B's items
            else:
                values.append(it)
        for n in (n for v in values if v is not None for n in ast.walk(v)):
            if (
                isinstance(n, ast.Call)
                and d.canon(n.func) == "triton.language.constexpr"
                and not d._literal(n)
            ):  # it would hold a container or a tensor the host reads through it
                out.append(
                    f"line {n.lineno}: tl.constexpr(...) at module level holds a number, a "
                    "string, a dtype or a tuple of them, never a container or a tensor"
                )
        for v in values:
            if v is not None and (why := _stateful(v, d)) is not None:
                out.append(
                    f"line {v.lineno}: {why} bound at module level keeps state between "
                    f"calls (an iterator advances, a closure may hold one): {STATE_HINT}"
                )
        if isinstance(stmt, ast.Assign | ast.AnnAssign) and (
            _mutable_value(stmt.value, d) or _opaque(stmt.value, d)
        ):
            mutable |= names
    held -= d.kernel_names
    mutable -= d.kernel_names
    parents = {id(c): p for p in d.nodes for c in ast.iter_child_nodes(p)}
    # a nested function's free names (an enclosing function's locals) are held too: a
    # closure returned to module level would keep them between calls
    enclosing = _enclosing_names(d, parents)
    out += cached.refusals(d, parents)
    for n in d.nodes:
        if isinstance(n, ast.Global | ast.Nonlocal):
            kind = "global" if isinstance(n, ast.Global) else "nonlocal"
            out.append(f"line {n.lineno}: '{kind}' is not allowed in a submission: {STATE_HINT}")
        elif isinstance(n, ast.Yield | ast.YieldFrom):
            out.append(f"line {n.lineno}: a generator ('yield') is not allowed: {STATE_HINT}")
        elif isinstance(n, ast.FunctionDef | ast.Lambda):
            if isinstance(n, ast.FunctionDef) and d.kernels.get(n.name) is n:
                continue
            for dflt in [*n.args.defaults, *(x for x in n.args.kw_defaults if x is not None)]:
                if any(isinstance(x, ast.Name) and x.id in mutable for x in ast.walk(dflt)):
                    out.append(
                        f"line {dflt.lineno}: a default argument that is a module-level "
                        f"container shares it with every call: {STATE_HINT}"
                    )
                elif not _plain_default(dflt) and not _config_default(dflt, d):
                    out.append(
                        f"line {dflt.lineno}: a default argument is built once and shared by "
                        "every call: make it a constant (a number, None, a dtype, a tuple) "
                        "and build anything else in the body"
                    )
            if isinstance(n, ast.FunctionDef):
                out += _cached_returns(d, n)
            outer = enclosing.get(id(n), frozenset())
            out += _Function(n, held, mutable, outer).check(parents)
    return out
