"""The allowlist check's walk over a submission's AST (see static.py for what it holds a file
to): host code against the allowed modules, attributes and builtins and the names the file
defines; kernel bodies against triton.language, their locals, other kernels and constants."""

from __future__ import annotations

import ast
import re

from grader.judge import allowlist as al
from grader.judge import combine, identity, state
from grader.judge.defines import bound_by, scope_names
from grader.judge.kernel_rules import MODULES, KernelRules

# A string that is a dunder name, or a format field reading one ("{0.__class__}"): the material
# of an attribute lookup. Prose that mentions a dunder (a docstring quoting
# `if __name__ == "__main__":`) is just text.
DUNDER_TEXT = re.compile(r"^\s*_*\w*__\w+__\s*$|\{[^{}]*__\w+__[^{}]*\}|%\([^)]*__\w+__")
COMPUTE_HINT = "compute in a Triton kernel; host code may allocate, read metadata and make views"


class Checker(KernelRules):
    def __init__(self, tree: ast.Module, body: list[ast.stmt], host_ops: set[str]) -> None:
        super().__init__(tree, body)
        self.forbidden: list[str] = []
        self.host_ops = host_ops
        self.combine_params = combine.approved_uses(self)  # tl.reduce(x, 0, FN: constexpr)

    # --- refusals ------------------------------------------------------------------------------
    def refuse(self, node: ast.AST, what: str) -> None:
        self.forbidden.append(f"line {getattr(node, 'lineno', '?')}: {what}")

    # --- the walk ------------------------------------------------------------------------------
    def run(self, body: list[ast.stmt]) -> None:
        tree = ast.Module(body=body, type_ignores=[])
        self.forbidden += identity.refusals(self, tree)
        self.forbidden += state.refusals(self, tree)
        scope = [self.module_names]
        for stmt in body:
            self.visit(stmt, scope, kernel=False)

    def visit(self, node: ast.AST, scopes: list[set[str]], kernel: bool) -> None:
        method = getattr(self, f"v_{type(node).__name__}", None)
        if method is not None:
            if method(node, scopes, kernel) is False:
                return
        elif kernel:
            self.kernel_node(node)
        for child in ast.iter_child_nodes(node):
            self.visit(child, scopes, kernel)

    def v_ClassDef(self, node: ast.ClassDef, scopes: list[set[str]], kernel: bool) -> bool:
        if not kernel and len(scopes) == 1 and node in self.config_classes:
            for dec in node.decorator_list:
                self.visit(dec, scopes, False)
            for base in node.bases:
                self.visit(base, scopes, False)
            for stmt in node.body:
                assert isinstance(stmt, ast.AnnAssign)
                self.visit(stmt.annotation, scopes, False)
            return False
        bases = {self.canon(b) or "" for b in node.bases}
        if any(b.startswith("torch.autograd") for b in bases):
            self.refuse(
                node,
                "a torch.autograd.Function wrapper is a class, not allowed in a submission: "
                "the checkpoint calls its entry forward only, so make the entry a plain "
                "function that does what your forward() does (launch the kernel, return the "
                "output)",
            )
        else:
            self.refuse(
                node,
                "a class is not allowed in a submission: write plain functions (a config may "
                "be a class of typing.NamedTuple or a @dataclasses.dataclass(frozen=True) "
                "with annotated fields and constant defaults only, at the top level)",
            )
        return False

    def v_AsyncFunctionDef(self, node: ast.AST, scopes: list[set[str]], kernel: bool) -> bool:
        self.refuse(node, "async code is not allowed in a submission")
        return False

    def v_ExceptHandler(
        self, node: ast.ExceptHandler, scopes: list[set[str]], kernel: bool
    ) -> bool:
        """`except ImportError:` (Liger-Kernel's import fallback): a builtin exception class
        named in an except clause of host code is allowed there only."""
        t = node.type
        names = t.elts if isinstance(t, ast.Tuple) else [t] if t is not None else []
        if (
            kernel
            or not names
            or not all(isinstance(x, ast.Name) and al.builtin_exception(x.id) for x in names)
        ):
            return True
        for stmt in node.body:
            self.visit(stmt, scopes, kernel)
        return False

    def v_Match(self, node: ast.Match, scopes: list[set[str]], kernel: bool) -> bool:
        """Host code may match on values (`case torch.float16 | torch.bfloat16:`); its
        capture names are bindings like any other (`defines`, `identity`). A class pattern
        reads attributes by name, out of the attribute rules' sight: refused."""
        if kernel:
            self.refuse(node, "a match statement is not allowed in a kernel: use if/elif")
            return False
        for case in node.cases:
            for p in ast.walk(case.pattern):
                if isinstance(p, ast.MatchClass):
                    self.refuse(p, "a class pattern (case C(...)) is not allowed: use if/elif")
                    return False
        return True

    def v_Import(self, node: ast.Import, scopes: list[set[str]], kernel: bool) -> bool:
        if kernel:
            self.kernel_node(node)
            return False
        for a in node.names:
            if a.name not in al.IMPORTS:
                self.refuse(
                    node,
                    f"import of '{a.name}' is not allowed in a submission "
                    f"(allowed: {_allowed_imports()})",
                )
        return False

    def v_ImportFrom(self, node: ast.ImportFrom, scopes: list[set[str]], kernel: bool) -> bool:
        if kernel:
            self.kernel_node(node)
            return False
        if node.level:
            self.refuse(node, "relative imports are not allowed")
            return False
        mod = node.module or ""
        if mod not in al.IMPORTS:
            self.refuse(
                node,
                f"import of '{mod}' is not allowed in a submission (allowed: {_allowed_imports()})",
            )
            return False
        names = al.IMPORTS[mod]
        members = names if names is not None else al.module_members(mod) or frozenset()
        for a in node.names:
            if a.name not in members:
                self.refuse(
                    node,
                    f"'from {mod} import {a.name}' is not allowed: {_member_hint(mod, a.name)}",
                )
        return False

    def v_FunctionDef(self, node: ast.FunctionDef, scopes: list[set[str]], kernel: bool) -> bool:
        if kernel:
            self.refuse(
                node,
                "a function defined inside a kernel is not Triton: make it a "
                "@triton.jit function at module level",
            )
            return False
        if node.name.startswith("__") and node.name.endswith("__"):
            self.refuse(node, f"the name '{node.name}' is not allowed (no dunder names)")
        is_kernel = self.kernels.get(node.name) is node
        if is_kernel and len(scopes) > 1:
            self.refuse(
                node,
                "define kernels at module level: a kernel inside a function could "
                "read that function's variables",
            )
        if is_kernel:
            for d in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
                if not self._literal(d):
                    self.refuse(d, "a kernel's default argument must be a constant")
            self._kernel_annotations(node)
        for dec in node.decorator_list:
            name = self._decorator(dec)
            through = isinstance(dec, ast.Name) and dec.id in self.call_through and not is_kernel
            if name not in al.KERNEL_DECORATORS | al.HOST_DECORATORS and not through:
                self.refuse(
                    dec,
                    f"the decorator '{ast.unparse(dec)[:60]}' is not allowed "
                    "(allowed: triton.jit, triton.autotune, triton.heuristics, "
                    "functools.lru_cache/cache/wraps, torch.no_grad, or a decorator of this "
                    "file that wraps with functools.wraps and calls through)",
                )
            self.visit(dec, scopes, False)
        self._arguments(node.args, scopes)
        if node.returns is not None:
            self.visit(node.returns, scopes, False)
        own, _ = scope_names(node.body, node.args)
        chain = [scopes[0], own] if is_kernel else [*scopes, own]
        for stmt in node.body:
            self.visit(stmt, chain, is_kernel)
        return False

    def _arguments(self, args: ast.arguments, scopes: list[set[str]]) -> None:
        for d in [*args.defaults, *(d for d in args.kw_defaults if d is not None)]:
            self.visit(d, scopes, False)
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if a is not None and a.annotation is not None:
                self.visit(a.annotation, scopes, False)
            if a is not None and a.arg.startswith("__"):
                self.refuse(a, f"the name '{a.arg}' is not allowed (no dunder names)")

    def v_Lambda(self, node: ast.Lambda, scopes: list[set[str]], kernel: bool) -> bool:
        if kernel:
            self.kernel_node(node)
            return False
        self._arguments(node.args, scopes)
        own, _ = scope_names([], node.args)
        self.visit(node.body, [*scopes, own], False)
        return False

    def _comprehension(self, node: ast.AST, scopes: list[set[str]], kernel: bool) -> bool:
        if kernel:
            self.kernel_node(node)
            return False
        gens: list[ast.comprehension] = node.generators  # type: ignore[attr-defined]
        own = set().union(*(bound_by(g.target) for g in gens))
        inner = [*scopes, own]
        for i, g in enumerate(gens):
            self.visit(g.iter, scopes if i == 0 else inner, False)
            for cond in g.ifs:
                self.visit(cond, inner, False)
        for part in ("elt", "key", "value"):
            if (sub := getattr(node, part, None)) is not None:
                self.visit(sub, inner, False)
        return False

    v_ListComp = v_SetComp = v_DictComp = v_GeneratorExp = _comprehension

    def v_Name(self, node: ast.Name, scopes: list[set[str]], kernel: bool) -> bool:
        name = node.id
        if name.startswith("__") and name.endswith("__"):
            self.refuse(node, f"the name '{name}' is not allowed (no dunder names)")
            return False
        if isinstance(node.ctx, ast.Store | ast.Del):
            if name in self.aliases and not kernel:
                self.refuse(node, f"'{name}' names an import: it cannot be assigned")
            return False
        local = any(name in s for s in scopes[1:])
        if kernel:
            self._kernel_name(node, local)
            return False
        if name in self.jit_names and not local:
            self._kernel_in_host(node)
        if name in self.aliases:
            self._module_value(node, self.aliases[name])
            canon = self.aliases[name]
            member = canon.rsplit(".", 1)[-1]
            if (
                canon.startswith("triton.language.")
                and canon not in MODULES
                and member not in al.host_triton_language()
            ):
                self.refuse(node, f"'{canon}' is device code: call it inside a @triton.jit kernel")
        elif not local and name not in self.module_names and name not in al.HOST_BUILTINS:
            self.refuse(
                node,
                f"'{name}' is not allowed in a submission: it is neither defined "
                "in the file nor an allowed builtin (docs/SUBMISSIONS.md)",
            )
        return False

    def _kernel_in_host(self, node: ast.Name) -> None:
        """In host code a kernel is launched (`K[grid](...)`), read (`K.best_config`) or handed
        to a launch, to triton's functions or to a function of the file; never called, stored
        or handed elsewhere: the interpreter runs a kernel called from host code as host Python
        (nothing launched, nothing compiled), where a GPU raises."""
        parent = getattr(node, "parent", None)
        above = getattr(parent, "parent", None)
        if isinstance(parent, ast.Subscript) and parent.value is node:
            if isinstance(above, ast.Call) and above.func is parent:
                return  # K[grid](...)
        elif isinstance(parent, ast.Attribute) and parent.value is node:
            return
        elif isinstance(parent, ast.keyword | ast.Call):
            call = above if isinstance(parent, ast.keyword) else parent
            if isinstance(call, ast.Call) and call.func is not node:
                callee = self.canon(call.func) or ""
                launch = isinstance(call.func, ast.Subscript)
                here = isinstance(call.func, ast.Name) and call.func.id in self._host_defs()
                if launch or callee.startswith("triton.") or here:
                    return
        self.refuse(
            node,
            f"the kernel '{node.id}' is used as a value in host code: launch it as "
            f"{node.id}[grid](...), pass it to a launch or to triton's functions, or call it "
            "from another @triton.jit function (called from host code it would run as Python "
            "here and raise on a GPU)",
        )

    def _host_defs(self) -> set[str]:
        tops = self.nodes[0].body if isinstance(self.nodes[0], ast.Module) else []
        return {n.name for n in tops if isinstance(n, ast.FunctionDef)} - self.jit_names

    def _module_value(self, node: ast.AST, canon: str) -> None:
        """A module may only be the base of an attribute access."""
        if canon in MODULES:
            parent = getattr(node, "parent", None)
            if not (isinstance(parent, ast.Attribute) and parent.value is node):
                self.refuse(
                    node,
                    f"the module '{canon}' can only be used as '{canon}.name': "
                    "it cannot be passed, stored or returned",
                )

    def v_Attribute(self, node: ast.Attribute, scopes: list[set[str]], kernel: bool) -> bool:
        base = self.canon(node.value)
        if why := self._attribute(node, base, kernel):
            self.refuse(node, why)
        elif base in MODULES and kernel:
            return False  # tl.load: nothing more to look at
        self.visit(node.value, scopes, kernel)
        return False

    def _attribute(self, node: ast.Attribute, base: str | None, kernel: bool) -> str | None:
        """Why this attribute is refused, or None."""
        attr = node.attr
        if attr.startswith("_"):
            return f"'.{attr}' is not allowed: no private or dunder attributes"
        if isinstance(node.ctx, ast.Store | ast.Del):
            return (
                f"assigning to an attribute ('.{attr}') is not allowed in a submission: "
                "nothing of torch, triton or the harness may be changed"
            )
        if base is not None and base in MODULES:
            allowed = self._kernel_module_members(base) if kernel else al.module_members(base)
            if not kernel and base.startswith("triton.language"):
                # device code: host code takes dtypes and annotation types only
                allowed = al.host_triton_language() if base == "triton.language" else None
                if attr not in (allowed or ()):
                    return (
                        f"'{base}.{attr}' is device code: call it inside a @triton.jit kernel "
                        "(host code may use triton.language's dtypes and tl.constexpr)"
                    )
            opted_in = kernel and attr in al.RAW_ASSEMBLY and attr in self.host_ops
            if attr not in (allowed or ()) and not (base == "torch" and attr in self.host_ops):
                if opted_in:  # the checkpoint allows it (allow_inline_asm)
                    return None
                return f"'{base}.{attr}' is not allowed: {_member_hint(base, attr)}"
            self._module_value(node, f"{base}.{attr}")
            return None
        if self._finfo(node.value) and attr in al.FINFO:
            return None
        if attr == "value" and isinstance(node.value, ast.Name) and node.value.id in self.constants:
            return None  # a module-level constant's value, tl.constexpr(...).value
        if base is not None and base.split(".")[0] in {"torch", "triton", "math"}:
            # an object of an allowed module (torch.Tensor.view, triton.Config)
            ok = attr in al.ANY_OBJECT
            return None if ok else f"'{base}.{attr}' is not allowed: {COMPUTE_HINT}"
        if kernel:
            if attr in al.kernel_attributes():
                return None
            return f"'.{attr}' is not Triton: inside a kernel, values are triton.language tensors"
        if isinstance(node.value, ast.Name) and node.value.id in self.jit_names:
            # a kernel object's own attributes are Triton's (its jit options, hooks, caches,
            # the function it runs): host code reads only what the autotuner picked
            if attr == "best_config":
                return None
            return (
                f"'.{attr}' of the kernel '{node.value.id}' is not allowed: host code launches "
                "a kernel and may read its best_config, nothing else of it"
            )
        if attr in al.ANY_OBJECT or attr in self.host_ops or attr in self.config_fields:
            return None
        return f"'.{attr}' is not allowed in host code: {COMPUTE_HINT} (docs/SUBMISSIONS.md)"

    def _finfo(self, v: ast.expr) -> bool:
        """torch.finfo(...)/iinfo(...), or a name only ever bound to one."""
        if isinstance(v, ast.Call):
            return self.canon(v.func) in {"torch.finfo", "torch.iinfo"}
        return isinstance(v, ast.Name) and v.id in self.finfo_names

    def v_Call(self, node: ast.Call, scopes: list[set[str]], kernel: bool) -> bool:
        for kw in node.keywords:
            if kw.arg in al.HOOK_KEYWORDS or kw.arg in al.UNCHECKED_KEYWORDS:
                self.refuse(
                    kw.value,
                    f"'{kw.arg}=' is not allowed: it hands Triton host code or a file to run "
                    "where no check sees it; do the work in the kernel or the entry",
                )
        name = self.canon(node.func)
        if (name or "").startswith("triton.") and (
            any(isinstance(a, ast.Starred) for a in node.args)
            or any(kw.arg is None for kw in node.keywords)
        ):
            self.refuse(node, f"pass {name}'s arguments one by one, without * or **")
        if name == "triton.Config" and len(node.args) > 3:
            self.refuse(node, "pass triton.Config's options by keyword")
        if name == "triton.autotune" and len(node.args) > 2:
            self.refuse(node, "pass triton.autotune's options by keyword")
        if kernel:
            self._kernel_call(node)
        if kernel and isinstance(node.func, ast.Name):
            fn = node.func.id
            if any(fn in s for s in scopes[1:]):
                self.refuse(
                    node,
                    f"calling '{fn}' inside a kernel is not Triton: a kernel may "
                    "call triton.language functions and other @triton.jit functions",
                )
        return True

    def v_Constant(self, node: ast.Constant, scopes: list[set[str]], kernel: bool) -> bool:
        if isinstance(node.value, str) and DUNDER_TEXT.search(node.value):
            self.refuse(
                node,
                "a string that names a dunder (or formats one: '{0.__class__}') is not allowed "
                "in a submission",
            )
        return False

    def v_Global(self, node: ast.Global, scopes: list[set[str]], kernel: bool) -> bool:
        if kernel:
            self.kernel_node(node)
        for n in node.names:
            if n in self.aliases:
                self.refuse(node, f"'{n}' names an import: it cannot be assigned")
        return False


def _allowed_imports() -> str:
    return ", ".join(sorted(m for m in al.IMPORTS if m != "__future__"))


def _member_hint(module: str, name: str) -> str:
    if name in al.RAW_ASSEMBLY:
        return al.RAW_ASSEMBLY[name]
    if module.startswith("torch"):
        return f"torch may only allocate, describe and view tensors in a submission; {COMPUTE_HINT}"
    if module.startswith("triton"):
        return (
            "a submission may use triton.jit/autotune/heuristics/Config/cdiv/"
            "next_power_of_2 and triton.language"
        )
    return f"'{name}' is not on {module}'s list (docs/SUBMISSIONS.md)"
