"""Disguised copies of a kernel, for the similarity tests and benchmark: what a student who
copies does to hide it, done to the repository's real kernels.

- `rename`: every name the file binds (functions, parameters, variables, loop targets, the
  modules' aliases: `import torch` becomes `import torch as q`) gets a fresh one, everywhere:
  keyword arguments to the file's own functions and kernel launches (`k[grid](..., BLOCK=b)`)
  and strings that name them (`key=["n_cols"]`, `meta["BLOCK"]`) too, so the copy still runs.
  Python's and the libraries' names (`range`, `tl.load`, `mask=`) are left, as they must be.
- `reorder`: adjacent assignments that do not read or write each other's names are swapped.
- `reformat`: written out again by `ast.unparse` (comments gone, its own spacing and quotes),
  then another indentation, argument lists broken over lines, comments and blank lines added.
- `edit`: a student's small change: a statement added to a function.
- `habits`: a student's own host code, the same in each of their submissions.
"""

from __future__ import annotations

import ast
import builtins
import io
import keyword
import random
import re
import tokenize
from pathlib import Path

_KEEP = frozenset(dir(builtins)) | frozenset(keyword.kwlist)
_WORDS = [
    "acc",
    "val",
    "tmp",
    "buf",
    "res",
    "arr",
    "data",
    "blk",
    "idx",
    "pos",
    "lo",
    "hi",
    "src",
    "dst",
    "inp",
    "outp",
    "row",
    "col",
    "seg",
    "part",
    "chunk",
    "step",
    "base",
    "ptr",
    "num",
    "den",
    "mx",
    "mn",
    "tot",
    "norm",
    "scale",
    "off",
    "pid",
    "grid",
    "size",
    "cnt",
    "k",
    "v",
    "w",
    "z",
    "q",
]
_COMMENTS = (
    "# compute the block",
    "# load inputs",
    "# numerically stable",
    "# TODO: tune this",
    "# main loop",
    "# write back",
    "# see lecture notes",
    "# helper",
)


_LAYOUT = frozenset({tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT})


def _bound(tree: ast.AST) -> set[str]:
    """The names the module binds, less Python's own and dunder names."""
    names: set[str] = set()
    in_class: set[int] = set()
    future: set[int] = set()  # `from __future__ import annotations` is no binding
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            in_class |= {id(n) for n in node.body}
        elif isinstance(node, ast.ImportFrom) and node.module == "__future__":
            future |= {id(n) for n in node.names}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if id(node) not in in_class:  # a method is reached as an attribute: keep it
                names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias) and node.name != "*" and id(node) not in future:
            bound = node.asname or node.name
            if "." not in bound:
                names.add(bound)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return {n for n in names if n not in _KEEP and not n.startswith("__")}


def fresh_names(names: set[str], rng: random.Random) -> dict[str, str]:
    """A new name for each, none of them an old one, a keyword or a builtin."""
    out: dict[str, str] = {}
    taken = set(names) | _KEEP
    for name in sorted(names):
        while True:
            new = f"{rng.choice(_WORDS)}{rng.choice(['', '_', 'X', '2'])}{rng.randrange(100)}"
            if new not in taken:
                break
        taken.add(new)
        out[name] = new
    return out


class _Renamer(ast.NodeTransformer):
    def __init__(self, mapping: dict[str, str], functions: set[str]) -> None:
        self.m = mapping
        self.functions = functions  # the file's own callables: their keyword args are renamed

    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = self.m.get(node.id, node.id)
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        self.generic_visit(node)
        node.arg = self.m.get(node.arg, node.arg)
        return node

    def _def(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> ast.AST:
        self.generic_visit(node)
        node.name = self.m.get(node.name, node.name)
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _def

    def visit_alias(self, node: ast.alias) -> ast.AST:
        bound = node.asname or node.name
        if bound in self.m:
            node.asname = self.m[bound]
        return node

    def visit_Global(self, node: ast.Global | ast.Nonlocal) -> ast.AST:
        node.names = [self.m.get(n, n) for n in node.names]
        return node

    visit_Nonlocal = visit_Global

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, str) and node.value in self.m:
            node.value = self.m[node.value]  # `key=["n_cols"]`, `meta["BLOCK"]`
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        callee = node.func.value if isinstance(node.func, ast.Subscript) else node.func
        if isinstance(callee, ast.Name) and callee.id in self.functions:
            for kw in node.keywords:
                if kw.arg is not None:
                    kw.arg = self.m.get(kw.arg, kw.arg)
        self.generic_visit(node)
        return node


def rename(tree: ast.Module, rng: random.Random) -> dict[str, str]:
    """Rename every bound name of `tree` in place; the mapping used."""
    mapping = fresh_names(_bound(tree), rng)
    functions = {
        n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    _Renamer(mapping, functions).visit(tree)
    return mapping


def _uses(stmt: ast.stmt) -> tuple[set[str], set[str]]:
    writes = {
        n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    reads = {
        n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    return writes, reads


def reorder(tree: ast.Module, rng: random.Random, chance: float = 0.7) -> int:
    """Swap adjacent independent assignments in every function body; how many were swapped."""
    swapped = 0
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        body = fn.body
        i = 0
        while i + 1 < len(body):
            a, b = body[i], body[i + 1]
            if isinstance(a, ast.Assign | ast.AugAssign) and isinstance(b, ast.Assign):
                (wa, ra), (wb, rb) = _uses(a), _uses(b)
                if not (wa & (rb | wb) or wb & ra) and rng.random() < chance:
                    body[i], body[i + 1] = b, a
                    swapped += 1
                    i += 1
            i += 1
    return swapped


def edit(tree: ast.Module, rng: random.Random) -> None:
    """A small change of a student's: an assertion or a spare assignment added to a function."""
    fns = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.args.args]
    if not fns:
        return
    fn = rng.choice(fns)
    arg = rng.choice(fn.args.args).arg
    text = rng.choice(
        [
            f"assert {arg} is not None",
            f"_chk{rng.randrange(1000)} = {arg}",
            f"if {arg} is None:\n    raise ValueError('missing input')",
        ]
    )
    pos = rng.randrange(len(fn.body) + 1)
    fn.body[pos:pos] = ast.parse(text).body


_ATTRS = ("shape[0]", "shape[-1]", "numel()", "dim()", "element_size()", "stride(0)", "nelement()")
_OPS = ("+", "-", "*", "//", "%", "<<", "|", "&")
_CMPS = ("<", ">", "<=", ">=", "==", "!=")
_HABITS = (
    "{v} = {x}.{a} {op} {n}",
    "if {x}.{a} {cmp} {n}:\n    {v} = {v} {op} {n}",
    "assert {x}.{a} {cmp} {n}, 'unexpected input'",
    "{v} = [{x}.{a} {op} i for i in range({n})]",
    "while {v} {cmp} {n}:\n    {v} {op}= 1",
    "{v} = max({v}, {x}.{a}) {op} {n}",
    "{v} = ({x}.{a}, {v} {op} {n})",
    "for _ in range({n}):\n    {v} = {v} {op} {x}.{a}",
)


def habits(tree: ast.Module, rng: random.Random, n: int = 5) -> None:
    """A student's own host code: n statements, each a form of the pool with an attribute,
    an operator and a comparison of its own, at the start of the file's last function (the
    entry, in every kernel here). Real students' files differ in such code even when their
    kernels are the tutorial's."""
    fns = [f for f in tree.body if isinstance(f, ast.FunctionDef) and f.args.args]
    if not fns:
        return
    fn = fns[-1]
    x = fn.args.args[0].arg
    lines = [
        rng.choice(_HABITS).format(
            x=x,
            v="hab",
            a=rng.choice(_ATTRS),
            op=rng.choice(_OPS),
            cmp=rng.choice(_CMPS),
            n=rng.randrange(2, 9),
        )
        for _ in range(n)
    ]
    fn.body[0:0] = ast.parse("hab = 1\n" + "\n".join(lines)).body


def _breaks(text: str, rng: random.Random, chance: float) -> str:
    """Line breaks after some commas inside brackets (legal anywhere there)."""
    lines = text.splitlines(keepends=True)
    cuts: list[tuple[int, int]] = []
    depth = 0
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.OP and tok.string in "([{":
            depth += 1
        elif tok.type == tokenize.OP and tok.string in ")]}":
            depth -= 1
        elif tok.type == tokenize.OP and tok.string == "," and depth and rng.random() < chance:
            cuts.append(tok.end)
    for row, col in reversed(cuts):
        line = lines[row - 1]
        lines[row - 1] = line[:col] + "\n" + " " * rng.randrange(4, 30) + line[col:].lstrip()
    return "".join(lines)


def _decorate(text: str, rng: random.Random, indent: str, comment_chance: float) -> str:
    """Another indentation; comment lines and blank lines between some statements."""
    starts = set()
    at_start = True
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NEWLINE:
            at_start = True
        elif at_start and tok.type not in _LAYOUT:
            starts.add(tok.start[0])
            at_start = False
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        body = line.lstrip(" ")
        depth = (len(line) - len(body)) // 4
        if n in starts and body:
            line = indent * depth + body
            if rng.random() < comment_chance:
                out.append(indent * depth + rng.choice(_COMMENTS))
            if rng.random() < comment_chance / 2:
                out.append("")
        out.append(line)
    return "\n".join(out) + "\n"


def reformat(tree: ast.Module, rng: random.Random, *, comments: float = 0.3) -> str:
    """The tree written out again in a style of its own."""
    text = ast.unparse(tree)
    text = _breaks(text, rng, chance=0.3)
    return _decorate(text, rng, rng.choice(["  ", "   ", "\t", "        "]), comments)


def disguise(
    source: str, seed: int, *, edits: int = 0, reordering: float = 0.7, habit: int | None = None
) -> str:
    """A renamed, reordered (each independent pair swapped at that chance), reformatted (and,
    with `edits`, edited; with `habit`, that student's own host code added) copy of `source`."""
    rng = random.Random(seed)
    tree = ast.parse(source)
    if habit is not None:
        habits(tree, random.Random(habit))
    for _ in range(edits):
        edit(tree, rng)
    rename(tree, rng)
    reorder(tree, rng, reordering)
    return reformat(tree, rng)


ROOT = Path(__file__).resolve().parents[2]
CHECKPOINTS = ("c3a-vector-add", "c3a-softmax", "c3a-rmsnorm", "c3a-cross-entropy")
_CHECKPOINT_LINE = re.compile(r"^# checkpoint: (\S+)", re.MULTILINE)


def folder(checkpoint: str) -> Path:
    return ROOT / "reference_kernels" / checkpoint.replace("-", "_")


def starter(checkpoint: str) -> str:
    return (folder(checkpoint) / "starter.py").read_text()


def honest_kernels(checkpoint: str) -> dict[str, str]:
    """The repository's correct kernels for a checkpoint, written apart from one another (as
    far as the repository goes): its reference, the course's lab file (softmax) and the honest
    submissions of the security catalog that name it. Name → source."""
    here = folder(checkpoint)
    out = {"reference.py": (here / "reference.py").read_text()}
    for p in sorted((here / "solutions").glob("correct/*.py")):
        out[f"solutions/correct/{p.name}"] = p.read_text()
    for p in sorted((ROOT / "tests" / "security" / "honest").glob("*.py")):
        text = p.read_text()
        m = _CHECKPOINT_LINE.search(text)
        if m and m.group(1) == checkpoint:
            out[f"honest/{p.name}"] = text
    return out
