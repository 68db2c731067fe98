"""What a submission's file defines, read from its AST in the trusted parent: import aliases
(local name -> canonical dotted path), the names each scope binds, the kernels (decorated, or
passed to `triton.jit(...)`), the names that hold kernels, the module-level constants a kernel
may read, and names bound only to `torch.finfo(...)`. `checker.py` holds a file to the
allowlist with these facts; `kernel_check.py` cuts the kernels out with them."""

from __future__ import annotations

import ast
import functools
from functools import cache

from grader.judge import allowlist as al


@cache
def _taken_attributes() -> frozenset[str]:
    """Attributes of tensors and of Python's containers and numbers: never a config field."""
    import torch

    names: set[str] = set(al.ANY_OBJECT)
    for t in (torch.Tensor, list, dict, set, str, tuple, int, float, bool, bytes):
        names |= set(dir(t))
    return frozenset(names | _triton_object_attributes())


# Instance attributes of Triton's kernel objects (JITFunction, InterpretedFunction,
# Autotuner, Heuristics), as Triton 3.x sets them: a config field of one of these names would
# make `.fn`, `.cache`, `.rewriter`, `.kwargs`... an allowed attribute on the kernel object too.
TRITON_OBJECT_FIELDS = frozenset(
    {
        "fn",
        "base_fn",
        "cache",
        "rewriter",
        "rewritten_fn",
        "kwargs",
        "pre_run_hooks",
        "arg_names",
        "keys",
        "values",
        "configs",
        "nargs",
        "best_config",
        "do_not_specialize",
        "do_not_specialize_on_alignment",
        "device_caches",
        "params",
        "src",
        "hash",
        "noinline",
        "debug",
        "module",
        "signature",
        "starting_line_number",
        "used_global_vals",
        "reset_to_zero",
        "restore_value",
        "restore_copies",
        "pre_hook",
        "post_hook",
        "perf_model",
        "configs_top_k",
        "early_config_prune",
        "num_warmups",
        "num_reps",
        "use_cuda_graph",
        "cache_results",
        "bench_time",
        "configs_timings",
        "user_defined_pre_hook",
        "user_defined_post_hook",
        "do_bench",
        "run",
        "warmup",
        "prune_configs",
        "launch_metadata",
        "repr",
        "kernel_decorators",
        "jit_function",
        "ir_override",
    }
)
LAUNCH_OPTIONS = frozenset({"num_warps", "num_stages", "num_ctas", "maxnreg"})


def _triton_object_attributes() -> frozenset[str]:
    """TRITON_OBJECT_FIELDS and what this Triton's kernel classes define (launch options, which
    an honest config carries, excepted)."""
    from triton.runtime import autotuner, interpreter, jit

    names = set(TRITON_OBJECT_FIELDS)
    for cls in (jit.JITFunction, jit.KernelInterface, interpreter.InterpretedFunction):
        names |= {n for n in dir(cls) if not n.startswith("__")}
    for cls in (autotuner.Autotuner, autotuner.Heuristics):
        names |= {n for n in dir(cls) if not n.startswith("__")}
    return frozenset(names - LAUNCH_OPTIONS)


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
        elif isinstance(n, ast.MatchMapping) and n.rest:
            names.add(n.rest)
    for n in _own_nodes(body):
        if isinstance(n, ast.NamedExpr):
            names.add(n.target.id)
        elif isinstance(n, COMPREHENSIONS):
            names |= comprehension_walrus(n)
    return names - glob, glob


COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def comprehension_walrus(comp: ast.AST) -> set[str]:
    """Names a walrus inside a comprehension binds in the comprehension's enclosing scope
    (nested comprehensions too; a lambda or function inside binds in its own scope)."""
    names: set[str] = set()
    todo: list[ast.AST] = [comp]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.NamedExpr):
            names.add(n.target.id)
        if not isinstance(n, FUNCTIONS):
            todo.extend(ast.iter_child_nodes(n))
    return names


class Defines:
    def __init__(self, tree: ast.Module, body: list[ast.stmt]) -> None:
        self.aliases: dict[str, str] = {}  # local name -> canonical dotted path
        # every node of the checked body, walked once (every later pass reuses it)
        self.nodes: list[ast.AST] = list(ast.walk(ast.Module(body=body, type_ignores=[])))
        # an import name bound to two different things (in any scope, in any order): the
        # walk's last one need not be the one Python binds last (identity.py refuses it)
        self.alias_conflicts: list[tuple[str, ast.AST]] = []
        for n in self.nodes:
            found: list[tuple[str, str]] = []
            if isinstance(n, ast.Import):
                for a in n.names:
                    top = a.name.split(".")[0]
                    found.append((a.asname, a.name) if a.asname else (top, top))
            elif isinstance(n, ast.ImportFrom) and n.module and not n.level:
                found = [(a.asname or a.name, f"{n.module}.{a.name}") for a in n.names]
            for name, target in found:
                before = self.aliases.get(name, target)
                if before != target and not _same_libdevice(before, target):
                    self.alias_conflicts.append((name, n))
                self.aliases[name] = target
        for n in self.nodes:
            for child in ast.iter_child_nodes(n):
                child.parent = n  # type: ignore[attr-defined]
        self.module_names, glob = scope_names(body, None)
        self.kernels = self._find_kernels(body)
        for n in self.nodes:
            if isinstance(n, ast.Global):
                self.module_names |= set(n.names)
        self.module_names |= glob
        self.constants = self._constants(tree, body)
        self.call_through = {
            n.name for n in body if isinstance(n, ast.FunctionDef) and self._call_through(n)
        }
        self.config_classes = [
            n for n in body if isinstance(n, ast.ClassDef) and self._config_class(n)
        ]
        self.config_fields = {
            f.target.id
            for c in self.config_classes
            for f in c.body
            if isinstance(f, ast.AnnAssign) and isinstance(f.target, ast.Name)
        }
        # names bound only ever to torch.finfo(...)/iinfo(...): their .min/.max are allowed
        stores: dict[str, int] = {}
        finfo: dict[str, int] = {}
        for n in self.nodes:
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                stores[n.id] = stores.get(n.id, 0) + 1
            if isinstance(n, ast.Assign) and self._finfo_call(n.value):
                for t in n.targets:
                    if isinstance(t, ast.Name):
                        finfo[t.id] = finfo.get(t.id, 0) + 1
        self.finfo_names = {name for name, k in finfo.items() if stores.get(name) == k}

    def canon(self, node: ast.AST) -> str | None:
        """The dotted path an import alias or an attribute chain on one names (iterative)."""
        attrs: list[str] = []
        while isinstance(node, ast.Attribute):
            attrs.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        return ".".join([self.aliases[node.id], *reversed(attrs)])

    def _decorator(self, dec: ast.expr) -> str | None:
        return self.canon(dec.func if isinstance(dec, ast.Call) else dec)

    def _find_kernels(self, body: list[ast.stmt]) -> dict[str, ast.FunctionDef]:
        """The file's kernels: top-level functions decorated with triton.jit (under autotune /
        heuristics), or wrapped once by bare name at the top level, `k = triton.jit(f)`
        (optionally inside `triton.autotune(...)(...)` / `triton.heuristics(...)(...)`).
        Returns def name -> def (the bodies held to the kernel rules); `kernel_names` are the
        names that hold kernels, `wrapped` the defs wrapped by an assignment (def name ->
        the kernel's name), `combine_ok` the kernels a reduce/scan may take as its combine
        function (plain @triton.jit). Where a kernel may be refused, `identity.py` says."""
        defs = {n.name: n for n in body if isinstance(n, ast.FunctionDef)}
        kernels = {
            name: fn
            for name, fn in defs.items()
            if any(self._decorator(d) in al.KERNEL_DECORATORS for d in fn.decorator_list)
        }
        self.kernel_names: set[str] = set(kernels)
        self.combine_ok: set[str] = {
            name
            for name, fn in kernels.items()
            if [self._decorator(d) for d in fn.decorator_list] == ["triton.jit"]
        }
        self.wrapped: dict[str, str] = {}
        self.wraps: list[ast.Assign] = []
        for n in body:
            if (
                isinstance(n, ast.Assign)
                and len(n.targets) == 1
                and isinstance(n.targets[0], ast.Name)
                and self._is_jit_expr(n.value, defs)
            ):
                inner: ast.expr = n.value
                while isinstance(inner, ast.Call) and self.canon(inner.func) != "triton.jit":
                    inner = inner.args[0]
                assert isinstance(inner, ast.Call) and isinstance(inner.args[0], ast.Name)
                fname, kname = inner.args[0].id, n.targets[0].id
                self.wraps.append(n)
                if fname not in kernels:
                    kernels[fname] = defs[fname]
                self.wrapped.setdefault(fname, kname)
                self.kernel_names.add(kname)
                if inner is n.value:
                    self.combine_ok.add(kname)
        self.jit_names = set(self.kernel_names)
        return kernels

    def _config_class(self, n: ast.stmt) -> bool:
        """An immutable config: `class C(typing.NamedTuple)` or `@dataclasses.dataclass(
        frozen=True) class C:`, at the top level, whose body is annotated fields only, each
        with a constant default or none, named neither privately nor like an attribute of a
        tensor or a container (its name becomes an attribute host code may read; a name host
        code may read on any object already, `num_warps`, is fine)."""
        if not isinstance(n, ast.ClassDef) or n.keywords:
            return False
        bases = [self.canon(b) for b in n.bases]
        decs = n.decorator_list
        tuple_form = bases == ["typing.NamedTuple"] and not decs
        frozen = (
            not bases
            and len(decs) == 1
            and isinstance(decs[0], ast.Call)
            and self.canon(decs[0].func) == "dataclasses.dataclass"
            and not decs[0].args
            and [(k.arg, getattr(k.value, "value", None)) for k in decs[0].keywords]
            == [("frozen", True)]
        )
        if not (tuple_form or frozen) or not n.body:
            return False
        for f in n.body:
            if not (
                isinstance(f, ast.AnnAssign)
                and isinstance(f.target, ast.Name)
                and f.simple
                and (f.value is None or self._literal(f.value))
                and not f.target.id.startswith("_")
                and (f.target.id in al.ANY_OBJECT or f.target.id not in _taken_attributes())
            ):
                return False
        return True

    def _call_through(self, n: ast.stmt) -> bool:
        """A decorator of the file that only wraps and calls through (Liger-Kernel's
        `ensure_contiguous`): `def deco(fn):`, one inner function decorated exactly
        `@functools.wraps(fn)`, then `return <that function>`. The inner function is host
        code like any other; `fn` is called, never stored."""
        if not isinstance(n, ast.FunctionDef) or n.decorator_list:
            return False
        a = n.args
        if len(a.args) != 1 or a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg:
            return False
        fn = a.args[0].arg
        if len(n.body) != 2:
            return False
        inner, ret = n.body
        if not (isinstance(inner, ast.FunctionDef) and isinstance(ret, ast.Return)):
            return False
        if not (isinstance(ret.value, ast.Name) and ret.value.id == inner.name):
            return False
        if len(inner.decorator_list) != 1:
            return False
        dec = inner.decorator_list[0]
        return (
            isinstance(dec, ast.Call)
            and self.canon(dec.func) == "functools.wraps"
            and len(dec.args) == 1
            and not dec.keywords
            and isinstance(dec.args[0], ast.Name)
            and dec.args[0].id == fn
        )

    def _is_jit_expr(self, v: ast.expr, defs: dict[str, ast.FunctionDef]) -> bool:
        if not isinstance(v, ast.Call) or len(v.args) != 1:
            return False
        arg = v.args[0]
        if self.canon(v.func) == "triton.jit":
            return isinstance(arg, ast.Name) and arg.id in defs
        wrapper = v.func
        return (
            not v.keywords
            and isinstance(wrapper, ast.Call)
            and self.canon(wrapper.func) in {"triton.autotune", "triton.heuristics"}
            and self._is_jit_expr(arg, defs)
        )

    def _literal(self, v: ast.expr | None) -> bool:
        """A constant: literals, arithmetic on them, float()/int() and math's functions of
        them, math's numbers (not its functions: `tl.constexpr(math.exp)` would carry host
        code into a kernel), tl.constexpr(...) of a constant and triton.language dtypes."""
        if v is None:
            return False
        if isinstance(v, ast.Call):
            name = self.canon(v.func) or (v.func.id if isinstance(v.func, ast.Name) else "")
            ok = name in {"triton.language.constexpr", "float", "int"} or (
                name.startswith("math.") and name.count(".") == 1
            )
            return ok and not v.keywords and all(self._literal(a) for a in v.args)
        if isinstance(v, ast.Attribute):  # a number of math's, or a dtype: never a function
            return _constant_attribute(self.canon(v) or "")
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
        for n in self.nodes:
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
            elif isinstance(n, ast.MatchAs | ast.MatchStar) and n.name:
                bound = [n.name]
            elif isinstance(n, ast.MatchMapping) and n.rest:
                bound = [n.rest]
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


@functools.cache
def _constant_attribute(name: str) -> bool:
    """`math.pi`, `math.inf`, `tl.float32`: a number or a dtype, read from the modules."""
    import math

    import triton.language as tl

    if name.startswith("math.") and name.count(".") == 1:
        value = getattr(math, name[len("math.") :], None)
        return isinstance(value, int | float) and not isinstance(value, bool)
    if name.startswith("triton.language.") and name.count(".") == 2:
        return isinstance(getattr(tl, name[len("triton.language.") :], None), tl.dtype)
    return False


def _same_libdevice(a: str, b: str) -> bool:
    """Two spellings of Triton's libdevice (`try: from triton.language.extra import libdevice
    except ImportError: from triton.language.extra.cuda import libdevice`, as Liger-Kernel
    writes it), or one function of it from either (`from ….libdevice import rsqrt`): whichever
    Python binds, it is the same."""
    homes = ("triton.language.extra.libdevice", "triton.language.extra.cuda.libdevice")

    def member(x: str) -> str | None:  # what of libdevice x names ("" for the module itself)
        home = next((h for h in homes if x == h or x.startswith(h + ".")), None)
        return None if home is None else x[len(home) :]

    return member(a) is not None and member(a) == member(b)
