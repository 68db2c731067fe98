"""What the compile check compiles, built in the trusted parent from the checked program's AST
(`StaticReport.runnable`, parsed again: never cut by lines, since U+2028 or a form feed splits a
line where the AST does not), and what it accepts of the child's report of its launches.

- `restricted_module` regenerates, with `ast.unparse`, only what a kernel can reach: the
  imports (but torch's; `import torch, triton, triton.language as tl` keeps triton and tl), the
  module-level constants and the kernel defs, wherever they sit at module level (inside an
  `if`, a `try`, a loop: flattened, in source order), docstrings and decorators dropped
  (autotune configs and heuristics were applied at the launch), every kernel made a
  `triton.jit` at the end. `lines` maps each line of that text to the program's line and
  statement, so Triton's messages name lines the student can find.
- `validate` / `problem` read one reported launch: a specialization every field of which is
  what the child may say about a kernel of the restricted module, or the child's word that a
  launch could not be described (`unreadable`), that Triton would refuse to specialize it
  (`refused`), or that there were more than the cap (`overflow`).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import re
from collections.abc import Iterator
from typing import Any

from grader import syntax
from grader.judge import allowlist as al
from grader.judge.defines import Defines
from grader.text import untrusted

_DT = (
    r"(?:i1|u1|i8|i16|i32|i64|u8|u16|u32|u64|fp8e4nv|fp8e5|fp8e4b15|fp8e4b8|fp8e5b16|"
    r"fp16|bf16|fp32|fp64)"
)
_TYPE = re.compile(rf"\*?k?{_DT}|constexpr|tensordesc<{_DT}\[\d{{1,6}}(?:, ?\d{{1,6}}){{0,4}}\]>")
_DTYPES = {
    "int1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "fp8e4nv", "fp8e5", "fp8e4b15", "fp8e4b8", "fp8e5b16", "fp16", "bf16", "fp32", "fp64",
}  # fmt: skip
TORCH_DTYPES = {
    "float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
    "bool", "float8_e4m3fn", "float8_e5m2", "uint16", "uint32", "uint64",
}  # fmt: skip
FIELDS = {"kernel", "signature", "constexprs", "num_warps", "num_stages"}
PROBLEMS = {"unreadable", "refused", "overflow"}
QUOTE = 160  # characters of a statement quoted in a message


@dataclasses.dataclass
class Restricted:
    text: str
    params: dict[str, list[str]]  # kernel (def name) -> its parameters, in order
    lines: dict[int, tuple[int, str]]  # the text's line -> (the program's line, its statement)


class CannotCut(Exception):
    """The kernels cannot be cut out; `own`: the file's doing (nesting too deep)."""

    def __init__(self, why: str, own: bool) -> None:
        super().__init__(why)
        self.own = own


def module_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement that runs at module level, blocks flattened, in source order."""
    for node in body:
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        for field in ("body", "orelse", "finalbody"):
            yield from module_level(getattr(node, field, None) or [])
        for handler in getattr(node, "handlers", None) or []:
            yield from module_level(handler.body)
        for case in getattr(node, "cases", None) or []:
            yield from module_level(case.body)


def _torch(name: str) -> bool:
    return name == "torch" or name.startswith("torch.")


def _import(node: ast.Import | ast.ImportFrom) -> str | None:
    """The import without torch: `import torch, triton as t` -> `import triton as t`."""
    if isinstance(node, ast.ImportFrom):
        return None if _torch(node.module or "") or node.level else ast.unparse(node)
    names = [a for a in node.names if not _torch(a.name)]
    return ast.unparse(ast.Import(names=names)) if names else None


def _without_docstrings(fn: ast.FunctionDef) -> ast.FunctionDef:
    """A copy with no decorators and no bare string statements (a docstring is the only place
    `ast.unparse` writes real line breaks inside a string: a `def` there would start a line).
    The copy shares the enclosing tree that `defines` links by `.parent`: copying it too would
    cost the whole file per kernel."""
    above = getattr(fn, "parent", None)
    fn = copy.deepcopy(fn, {id(above): above} if above is not None else {})
    fn.decorator_list = []
    for node in ast.walk(fn):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not isinstance(body, list) or not body or not isinstance(body[0], ast.stmt):
                continue
            kept = [
                s
                for s in body
                if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
            ]
            if not kept:
                kept = [ast.copy_location(ast.Pass(), body[0])]
            setattr(node, field, kept)
    return fn


def _quote(node: ast.stmt) -> str:
    text = ast.unparse(node).split("\n", 1)[0]
    return text if len(text) <= QUOTE else text[: QUOTE - 1] + "…"


def _line_map(fn: ast.FunctionDef, text: str, first: int) -> dict[int, tuple[int, str]]:
    """The unparsed kernel's lines (the kernel starts at line `first` of the module) -> the
    program's line and statement: the two trees walked side by side."""
    out: dict[int, tuple[int, str]] = {}
    again = syntax.parse(text).body[0]
    for old, new in zip(ast.walk(fn), ast.walk(again), strict=False):
        if type(old) is not type(new):
            break  # (never seen: unparse gives the same tree back)
        if (
            isinstance(old, ast.stmt)
            and isinstance(new, ast.stmt)
            and not isinstance(old, ast.Pass)
        ):
            out.setdefault(first + new.lineno - 1, (old.lineno, _quote(old)))
    out.setdefault(first, (fn.lineno, _quote(fn)))
    return out


def _one_binding(
    statements: list[ast.stmt],
    kernels: dict[str, ast.FunctionDef],
    checker: Defines,
    defs: dict[str, ast.FunctionDef],
) -> None:
    """Each kernel's name bound once at module level (its def; `k = triton.jit(k)` and the
    like): else the kernel the child runs could be another than the one compiled here (the
    static check refuses this too; this is the compile check's own guard)."""
    bound: dict[str, int] = {}
    for node in statements:
        names: list[str] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names = [node.name]
        elif isinstance(node, ast.Assign) and checker._is_jit_expr(node.value, defs):
            names = []  # wraps a kernel: the name still holds it
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign | ast.Delete):
            names = [n.id for n in ast.walk(node) if isinstance(n, ast.Name)
                     and isinstance(n.ctx, ast.Store | ast.Del)]  # fmt: skip
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [(a.asname or a.name).split(".")[0] for a in node.names]
        elif isinstance(node, ast.For | ast.With):
            targets = (
                [node.target]
                if isinstance(node, ast.For)
                else [i.optional_vars for i in node.items if i.optional_vars is not None]
            )
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        for name in names:
            bound[name] = bound.get(name, 0) + 1
    named = (
        set(kernels)
        | set(getattr(checker, "jit_names", ()))
        | {
            n.name
            for n in statements
            if isinstance(n, ast.FunctionDef)
            and any(checker._decorator(d) in al.KERNEL_DECORATORS for d in n.decorator_list)
        }
    )
    twice = sorted(n for n in named if bound.get(n, 0) > 1)
    if twice:
        raise CannotCut(f"the kernel name {twice[0]!r} is bound more than once", own=True)


def restricted_module(runnable: str) -> Restricted:
    """The module the compile process imports. Raises CannotCut."""
    try:
        tree = syntax.parse(runnable)
        checker = Defines(tree, tree.body)
        return _build(tree, checker)
    except RecursionError as exc:
        raise CannotCut("the file nests too deeply for the compile check", own=True) from exc
    except (SyntaxError, ValueError) as exc:
        raise CannotCut(f"{type(exc).__name__}: {exc}", own=False) from exc


def _build(tree: ast.Module, checker: Defines) -> Restricted:
    kernels = {fn.name: fn for fn in checker.kernels.values()}
    defs = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    out: list[str] = []
    lines: dict[int, tuple[int, str]] = {}
    tail = ["import triton as __kgrade_triton__"]
    aliases: list[str] = []
    statements = list(module_level(tree.body))
    _one_binding(statements, kernels, checker, defs)
    future = [n for n in statements if isinstance(n, ast.ImportFrom) and n.module == "__future__"]
    out += [ast.unparse(n) for n in future]
    for node in statements:
        if isinstance(node, ast.Import | ast.ImportFrom) and node not in future:
            text = _import(node)
            if text is not None:
                out.append(text)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if names and len(names) == len(targets) and set(names) <= checker.constants:
                out.append(f"{' = '.join(names)} = {ast.unparse(node.value)}")
            elif isinstance(node, ast.Assign) and checker._is_jit_expr(node.value, defs):
                inner: ast.expr = node.value
                while isinstance(inner, ast.Call) and inner.args:
                    inner = inner.args[0]
                if isinstance(inner, ast.Name) and inner.id in kernels and names:
                    aliases += [f"{n} = {inner.id}" for n in names if n != inner.id]
        elif isinstance(node, ast.FunctionDef) and kernels.get(node.name) is node:
            fn = _without_docstrings(node)
            text = ast.unparse(fn)
            lines |= _line_map(fn, text, len(out) + 1)
            out += text.split("\n")
            tail.append(f"{node.name} = __kgrade_triton__.jit({node.name})")
    params = {
        name: [a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]]
        for name, fn in kernels.items()
    }
    return Restricted("\n".join([*out, *tail, *aliases]) + "\n", params, lines)


# --- the child's report of its launches ------------------------------------------------------
def _constexpr_ok(v: Any, params: dict[str, list[str]], depth: int = 0) -> bool:
    if v is None or isinstance(v, bool | float):
        return True
    if isinstance(v, int):
        return -(2**63) <= v < 2**64
    if isinstance(v, str):
        return len(v) <= 256
    if not isinstance(v, dict) or len(v) != 1:
        return False
    ((kind, value),) = v.items()
    if kind == "dtype":
        return value in _DTYPES
    if kind == "torch_dtype":
        return value in TORCH_DTYPES
    if kind == "jit":
        return value in params
    if kind == "tuple":
        return (
            isinstance(value, list)
            and len(value) <= 16
            and depth < 3
            and all(_constexpr_ok(e, params, depth + 1) for e in value)
        )
    return False


# launch options compiled where a launch gives them (not their default), and their range
OPTIONS = {"num_ctas": (1, 16), "maxnreg": (1, 255)}


def validate(item: Any, params: dict[str, list[str]]) -> dict[str, Any] | None:
    """One reported specialization, if every field is what the child may say about a kernel
    of the restricted module; else None."""
    if not isinstance(item, dict) or not FIELDS <= set(item) <= FIELDS | set(OPTIONS):
        return None
    extra = {k: item[k] for k in OPTIONS if k in item}
    if not all(
        type(v) is int and lo <= v <= hi for k, v in extra.items() for lo, hi in [OPTIONS[k]]
    ):
        return None
    names = params.get(item["kernel"]) if isinstance(item["kernel"], str) else None
    sig, consts = item["signature"], item["constexprs"]
    if names is None or not isinstance(sig, dict) or not isinstance(consts, dict):
        return None
    if list(sig) != names or not all(
        isinstance(t, str) and _TYPE.fullmatch(t) for t in sig.values()
    ):
        return None
    if set(consts) != {k for k, t in sig.items() if t == "constexpr"}:
        return None
    if not all(_constexpr_ok(v, params) for v in consts.values()):
        return None
    warps, stages = item["num_warps"], item["num_stages"]
    if (
        type(warps) is not int
        or type(stages) is not int
        or not (1 <= warps <= 64 and 0 <= stages <= 16)
    ):
        return None
    return {"kernel": item["kernel"], "signature": sig, "constexprs": consts,
            "num_warps": warps, "num_stages": stages, **extra}  # fmt: skip


def problem(item: Any) -> tuple[str, str] | None:
    """The child's word that a launch could not be checked: (kind, what it says), cleaned."""
    if not isinstance(item, dict) or set(item) != {"kernel", "problem", "detail"}:
        return None
    kind, kernel, detail = item["problem"], item["kernel"], item["detail"]
    if kind not in PROBLEMS or not isinstance(kernel, str) or not isinstance(detail, str):
        return None
    return kind, f"{untrusted(kernel, 80)}: {untrusted(detail, 400)}"
