"""What a submission's file defines, read from its AST in the trusted parent: import aliases
(local name -> canonical dotted path), the names each scope binds, the kernels (decorated, or
passed to `triton.jit(...)`), the names that hold kernels, the module-level constants a kernel
may read, and names bound only to `torch.finfo(...)`. `checker.py` holds a file to the
allowlist with these facts; `kernel_check.py` cuts the kernels out with them."""

from __future__ import annotations

import ast

from grader.judge import allowlist as al


def bound_by(node: ast.AST) -> set[str]:
    """Names a target expression binds."""
    return {
        n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }


def _own_nodes(body: list[ast.stmt]) -> list[ast.AST]:
    """Every node of a body that belongs to its own scope (not nested functions' or lambdas'
    or comprehensions' insides)."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(body)
    while todo:
        n = todo.pop()
        out.append(n)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue  # their decorators/defaults are looked at by the visitor, in this scope
        if isinstance(n, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            continue
        todo.extend(ast.iter_child_nodes(n))
    return out


def scope_names(body: list[ast.stmt], args: ast.arguments | None) -> tuple[set[str], set[str]]:
    """(names bound in this scope, names it declares global)."""
    names: set[str] = set()
    glob: set[str] = set()
    if args is not None:
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if a is not None:
                names.add(a.arg)
    for n in _own_nodes(body):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del):
            names.add(n.id)
        elif isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(n.name)
        elif isinstance(n, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in n.names}
        elif isinstance(n, ast.ExceptHandler) and n.name:
            names.add(n.name)
        elif isinstance(n, ast.Global | ast.Nonlocal):
            glob |= set(n.names) if isinstance(n, ast.Global) else set()
            names |= set(n.names) if isinstance(n, ast.Nonlocal) else set()
        elif isinstance(n, ast.MatchAs | ast.MatchStar) and n.name:
            names.add(n.name)
    for n in ast.walk(ast.Module(body=body, type_ignores=[])):  # walrus in comprehensions
        if isinstance(n, ast.NamedExpr):
            names.add(n.target.id)
    return names - glob, glob


class Defines:
    def __init__(self, tree: ast.Module, body: list[ast.stmt]) -> None:
        self.aliases: dict[str, str] = {}  # local name -> canonical dotted path
        for n in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(n, ast.Import):
                for a in n.names:
                    if a.asname:
                        self.aliases[a.asname] = a.name
                    else:
                        self.aliases[a.name.split(".")[0]] = a.name.split(".")[0]
            elif isinstance(n, ast.ImportFrom) and n.module and not n.level:
                for a in n.names:
                    self.aliases[a.asname or a.name] = f"{n.module}.{a.name}"
        for n in ast.walk(tree):
            for child in ast.iter_child_nodes(n):
                child.parent = n  # type: ignore[attr-defined]
        self.module_names, glob = scope_names(body, None)
        self.kernels = self._find_kernels(body)
        for n in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(n, ast.Global):
                self.module_names |= set(n.names)
        self.module_names |= glob
        self.constants = self._constants(tree, body)
        # names bound only ever to torch.finfo(...)/iinfo(...): their .min/.max are allowed
        stores: dict[str, int] = {}
        finfo: dict[str, int] = {}
        for n in ast.walk(tree):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                stores[n.id] = stores.get(n.id, 0) + 1
            if isinstance(n, ast.Assign) and self._finfo_call(n.value):
                for t in n.targets:
                    if isinstance(t, ast.Name):
                        finfo[t.id] = finfo.get(t.id, 0) + 1
        self.finfo_names = {name for name, k in finfo.items() if stores.get(name) == k}

    def canon(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.canon(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def _decorator(self, dec: ast.expr) -> str | None:
        return self.canon(dec.func if isinstance(dec, ast.Call) else dec)

    def _find_kernels(self, body: list[ast.stmt]) -> dict[str, ast.FunctionDef]:
        """Functions that are Triton kernels: decorated, or passed to triton.jit(...). A name
        is a kernel's only when bound by exactly `k = triton.jit(f)`, optionally wrapped in
        `triton.autotune(...)(...)` / `triton.heuristics(...)(...)`: an arbitrary call around
        one (a partial, a lambda) could hand a kernel a host function under that name."""
        defs = {
            n.name: n
            for n in ast.walk(ast.Module(body=body, type_ignores=[]))
            if isinstance(n, ast.FunctionDef)
        }
        kernels = {
            name: fn
            for name, fn in defs.items()
            if any(self._decorator(d) in al.KERNEL_DECORATORS for d in fn.decorator_list)
        }
        self.jit_names = set(kernels)
        for n in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(n, ast.Call) and self.canon(n.func) == "triton.jit" and n.args:
                arg = n.args[0]
                if isinstance(arg, ast.Name) and arg.id in defs:
                    kernels[arg.id] = defs[arg.id]
                    self.jit_names.add(arg.id)
        for n in body:
            if isinstance(n, ast.Assign) and self._is_jit_expr(n.value, defs):
                for t in n.targets:
                    if isinstance(t, ast.Name):
                        self.jit_names.add(t.id)
        return kernels

    def _is_jit_expr(self, v: ast.expr, defs: dict[str, ast.FunctionDef]) -> bool:
        if not isinstance(v, ast.Call) or len(v.args) != 1 or v.keywords:
            return False
        arg = v.args[0]
        if self.canon(v.func) == "triton.jit":
            return isinstance(arg, ast.Name) and arg.id in defs
        wrapper = v.func
        return (
            isinstance(wrapper, ast.Call)
            and self.canon(wrapper.func) in {"triton.autotune", "triton.heuristics"}
            and self._is_jit_expr(arg, defs)
        )

    def _literal(self, v: ast.expr | None) -> bool:
        """A constant: literals, arithmetic on them, float()/int(), math's functions and
        constants, tl.constexpr(...) and triton.language dtypes."""
        if v is None:
            return False
        if isinstance(v, ast.Call):
            name = self.canon(v.func) or (v.func.id if isinstance(v.func, ast.Name) else "")
            ok = name in {"triton.language.constexpr", "float", "int"} or (
                name.startswith("math.") and name.count(".") == 1
            )
            return ok and not v.keywords and all(self._literal(a) for a in v.args)
        if isinstance(v, ast.Attribute):
            name = self.canon(v) or ""
            return name.startswith(("math.", "triton.language.")) and name.count(".") <= 2
        if isinstance(v, ast.UnaryOp | ast.BinOp):
            parts = [v.operand] if isinstance(v, ast.UnaryOp) else [v.left, v.right]
            return all(self._literal(p) for p in parts)
        if isinstance(v, ast.Tuple):
            return all(self._literal(e) for e in v.elts)
        return isinstance(v, ast.Constant)

    def _constants(self, tree: ast.Module, body: list[ast.stmt]) -> set[str]:
        """Module-level names a kernel may read: bound exactly once in the whole file, by a
        module-level assignment of a constant, and never declared global anywhere."""
        stores: dict[str, int] = {}
        for n in ast.walk(tree):
            bound: list[str] = []
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del):
                bound = [n.id]
            elif isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                bound = [n.name]
            elif isinstance(n, ast.Import | ast.ImportFrom):
                bound = [(a.asname or a.name).split(".")[0] for a in n.names]
            elif isinstance(n, ast.Global | ast.Nonlocal):
                bound = list(n.names) * 2  # never a constant
            elif isinstance(n, ast.ExceptHandler) and n.name:
                bound = [n.name]
            elif isinstance(n, ast.arg):
                bound = [n.arg]
            for b in bound:
                stores[b] = stores.get(b, 0) + 1
        good: set[str] = set()
        for n in body:
            if isinstance(n, ast.Assign | ast.AnnAssign) and self._literal(n.value):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                good |= {t.id for t in targets if isinstance(t, ast.Name)}
        return {g for g in good if stores.get(g) == 1}

    def _finfo_call(self, v: ast.expr) -> bool:
        return isinstance(v, ast.Call) and self.canon(v.func) in {"torch.finfo", "torch.iinfo"}
