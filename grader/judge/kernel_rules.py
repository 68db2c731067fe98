"""The allowlist check's rules for kernel bodies (checker.py walks the file and calls these
where it is inside a @triton.jit def): the constructs a kernel may use, the names it may read,
its annotations and its calls, a reduce's or scan's combine function by name."""

from __future__ import annotations

import ast
from collections.abc import Callable

from grader.judge import allowlist as al
from grader.judge.defines import Defines

MODULES = {
    "torch",
    "torch.cuda",
    "triton",
    "triton.language",
    "triton.language.math",
    "triton.language.extra",
    "triton.language.extra.cuda",
    "triton.language.extra.libdevice",
    "triton.language.extra.cuda.libdevice",
    "math",
    "typing",
    "functools",
    "itertools",
    "dataclasses",
}
# triton.language functions that call a function they are given: its argument index (as
# tl.NAME(input, ...); as a tensor method one less) and keyword
COMBINING = {
    "reduce": (2, "combine_fn"),
    "associative_scan": (2, "combine_fn"),
    "map_elementwise": (0, "scalar_fn"),
}


class KernelRules(Defines):
    """Mixed into the Checker, which holds `refuse`, the file's names and `combine_ok`."""

    forbidden: list[str]
    combine_ok: set[str]
    combine_params: set[int]

    refuse: Callable[[ast.AST, str], None]  # the Checker's: a refusal with its line

    def kernel_node(self, node: ast.AST) -> None:
        banned = (
            ast.Lambda,
            ast.ClassDef,
            ast.Import,
            ast.ImportFrom,
            ast.Global,
            ast.Nonlocal,
            ast.Try,
            ast.With,
            ast.Yield,
            ast.YieldFrom,
            ast.ListComp,
            ast.SetComp,
            ast.DictComp,
            ast.GeneratorExp,
            ast.Await,
            ast.Match,
            ast.Delete,
            ast.Starred,
            ast.JoinedStr,
        )
        if isinstance(node, banned):
            self.refuse(
                node,
                f"'{type(node).__name__}' inside a kernel is not Triton: a @triton.jit body may "
                "use triton.language, its arguments and locals, other kernels of this file, "
                "constants and range/min/max/len/int/float/print",
            )

    def _kernel_annotations(self, node: ast.FunctionDef) -> None:
        """A kernel's annotations run where its def runs (also where kgrade compiles it):
        only triton.language's names (`tl.constexpr`, a dtype), int/float/bool, or a string."""
        a = node.args
        params = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
        for ann in [p.annotation for p in params if p is not None] + [node.returns]:
            if ann is None:
                continue
            said = ann.value if isinstance(ann, ast.Constant) else ast.unparse(ann)
            if isinstance(said, str) and "constexpr" in said and not self._is_constexpr(ann):
                # Triton's compiler makes a parameter constexpr when its annotation contains
                # "constexpr", the interpreter only when it is exactly that: the two would run
                # different programs (red team 5)
                self.refuse(
                    ann,
                    f"the annotation '{said[:60]}' of a kernel: write a constexpr parameter's "
                    "annotation as tl.constexpr (the name itself, not a string or another name)",
                )
                continue
            if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
                continue
            if (
                isinstance(ann, ast.Name)
                and ann.id in {"int", "float", "bool"}
                and ann.id not in self.module_names
            ):  # a builtin type, which Triton reads (`int`: i32)
                continue
            name = self.canon(ann) if isinstance(ann, ast.Name | ast.Attribute) else None
            if name is None or not name.startswith("triton.language."):
                self.refuse(
                    ann,
                    f"the annotation '{ast.unparse(ann)[:60]}' of a kernel is not allowed: "
                    "annotate kernel parameters with triton.language names (tl.constexpr, "
                    "tl.float32), int, float, bool or not at all",
                )

    def _is_constexpr(self, ann: ast.expr) -> bool:
        """`tl.constexpr` itself (by any import of it), or the string "constexpr"."""
        if isinstance(ann, ast.Constant):
            return isinstance(ann.value, str) and ann.value.strip() == "constexpr"
        if isinstance(ann, ast.Name | ast.Attribute):
            return self.canon(ann) == "triton.language.constexpr"
        return False

    def _kernel_name(self, node: ast.Name, local: bool) -> None:
        name = node.id
        if local or name in al.KERNEL_BUILTINS or name in self.jit_names:
            return
        if name in self.constants:
            return
        canon = self.aliases.get(name, "")
        parent = getattr(node, "parent", None)
        if canon in MODULES and not (isinstance(parent, ast.Attribute) and parent.value is node):
            # `m = math; m.exp(x)` would reach any function of the module under another name
            self.refuse(node, f"the module '{canon}' can only be used as '{canon}.name'")
            return
        if canon.startswith("triton.language") or canon in {"triton", "triton.cdiv", "math"}:
            if canon.startswith("triton.language.") and canon not in MODULES:
                member = canon.rsplit(".", 1)[1]
                base = canon.rsplit(".", 1)[0]
                if member not in (al.module_members(base) or ()):
                    self.refuse(node, f"'{name}' is not triton.language")
            return
        self.refuse(
            node,
            f"'{name}' cannot be used inside a kernel: a @triton.jit body may use "
            "triton.language, its arguments and locals, other @triton.jit functions, "
            "module-level constants and range/min/max/len/int/float/print",
        )

    def _kernel_module_members(self, base: str) -> frozenset[str]:
        if base == "math":
            return frozenset({"inf", "nan", "pi", "e", "tau"})
        if base == "triton":
            return frozenset({"language", "cdiv"})
        if base.startswith("triton.language"):
            return al.module_members(base) or frozenset()
        return frozenset()

    def _kernel_call(self, node: ast.Call) -> None:
        """In a kernel, a callee is a name (a kernel, a builtin Triton knows, an imported
        triton.language function) or an attribute (tl.load, x.to): never an expression
        that picks a function at run time. A reduce's or scan's combine function (and
        map_elementwise's scalar function) is a @triton.jit kernel of the file, by name."""
        f = node.func
        if not isinstance(f, ast.Name | ast.Attribute):
            self.refuse(
                node,
                f"'{ast.unparse(f)[:60]}(...)' inside a kernel: call a kernel or a "
                "triton.language function by its name",
            )
            return
        if isinstance(f, ast.Name) and f.id in self.constants:
            self.refuse(node, f"'{f.id}' is a constant: it cannot be called inside a kernel")
        name = self.canon(f) or ""
        attr = f.attr if isinstance(f, ast.Attribute) else name.rsplit(".", 1)[-1]
        if attr not in COMBINING:
            return
        module_fn = name.startswith("triton.language")
        index, keyword = COMBINING[attr]
        index = index if module_fn or attr == "map_elementwise" else index - 1
        fns = [kw.value for kw in node.keywords if kw.arg == keyword]
        if len(node.args) > index:
            fns.append(node.args[index])
        for fn in fns:
            if not (isinstance(fn, ast.Name) and fn.id in self.combine_ok) and (
                id(fn) not in self.combine_params
            ):
                self.refuse(
                    fn,
                    f"the function {attr} combines with must be a @triton.jit function of this "
                    f"file, passed by its name (not '{ast.unparse(fn)[:40]}')",
                )
