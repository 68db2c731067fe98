"""Loading checkpoints: a folder with `checkpoint.toml` (data), `problem.py` (input generator,
reference, baselines, byte count), `reference.py` (a correct Triton solution), `starter.py`
and `solutions/wrong/*.py` (known-bad solutions, each naming the verdict it must get).

Loading is data only: checkpoint.toml is parsed and validated, problem.py is parsed (never
imported) and must define `make_inputs` and `reference`. problem.py is an admin's code and
runs only in a sandboxed process of its own (`grader/sandbox/problem.py`): a Checkpoint's
`make_inputs`, `reference`, `minimal_bytes`, `flops` and baselines are answered by that
process's proxy (`code`), attached for a grading or connected by default.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import torch
from pydantic import ValidationError

from grader import authoring, syntax
from grader.authoring import AuthoringError, CheckpointError
from grader.models import CaseSpec, CheckpointDef

BUILTIN_DIR = Path(__file__).resolve().parent.parent / "reference_kernels"
Arg = torch.Tensor | int | float


@dataclass(frozen=True)
class WrongSolution:
    path: Path
    expect: str  # the verdict it must get; "a|b" accepts either

    @property
    def name(self) -> str:
        return self.path.stem


@dataclass(frozen=True)
class Declared:
    """What a problem.py defines, as its sandboxed process reports it: the functions among
    make_inputs, reference, minimal_bytes and flops, and BASELINES as data (each name: "callable",
    or a string such as "compile:torch")."""

    functions: frozenset[str]
    baselines: dict[str, str]


class ProblemCode(Protocol):
    """The checkpoint's problem.py as the grader calls it (grader/sandbox/problem.Problem)."""

    def declared(self) -> Declared: ...

    def make_inputs(self, case: CaseSpec, gen: torch.Generator) -> list[Arg]: ...

    def reference(self, inputs: list[Arg]) -> torch.Tensor: ...

    def count(self, fn: str, inputs: list[Arg], output: torch.Tensor) -> int | None: ...

    def shortcuts(self, inputs: list[Arg]) -> dict[str, torch.Tensor]: ...

    def draw(
        self, case: CaseSpec, gen: torch.Generator, device: str, counts: tuple[str, ...] = ()
    ) -> tuple[list[Arg], torch.Tensor, dict[str, int | None]]: ...


@dataclass(frozen=True)
class Drawn:
    """One case's inputs and reference, with its counts when they were asked for
    (`Checkpoint.draw`): minimal_bytes (problem.py's, else every tensor's bytes) and flops
    (None unless the checkpoint declares its work)."""

    inputs: list[Arg]
    reference: torch.Tensor
    minimal_bytes: int | None = None
    flops: int | None = None


def _all_bytes(inputs: list[Arg], output: torch.Tensor) -> int:
    tensors = [a for a in inputs if isinstance(a, torch.Tensor)]
    return sum(t.numel() * t.element_size() for t in [*tensors, output])


_connect: list[Callable[[Checkpoint], ProblemCode]] = []


def connect(factory: Callable[[Checkpoint], ProblemCode]) -> None:
    """Who runs a checkpoint's problem.py when none is attached (grader/sandbox/problem.py)."""
    _connect[:] = [factory]


@dataclass(frozen=True)
class Checkpoint:
    definition: CheckpointDef
    folder: Path
    code: ProblemCode | None = field(default=None, compare=False, repr=False)

    @property
    def id(self) -> str:
        return self.definition.id

    @property
    def problem(self) -> ProblemCode:
        """The process that runs problem.py: the one attached, else the default one."""
        if self.code is not None:
            return self.code
        if not _connect:
            raise CheckpointError(
                f"{self.id}: problem.py runs only in its sandbox (import grader.sandbox.problem)"
            )
        return _connect[0](self)

    def make_inputs(self, case: CaseSpec, gen: torch.Generator) -> list[Arg]:
        """The entry's positional arguments: tensors, or plain numbers (e.g. eps)."""
        return self.problem.make_inputs(case, gen)

    def reference(self, inputs: list[Arg]) -> torch.Tensor:
        return self.problem.reference(inputs)

    def draw(
        self, case: CaseSpec, gen: torch.Generator, device: str, counts: bool = False
    ) -> Drawn:
        """make_inputs and the reference (computed on `device`, held on the CPU), and with
        `counts` minimal_bytes and flops, in one request to problem.py's process."""
        names = ("minimal_bytes", "flops") if counts else ()
        declared = self.problem.declared().functions
        inputs, reference, got = self.problem.draw(
            case, gen, device, tuple(n for n in names if n in declared)
        )
        if not counts:
            return Drawn(inputs, reference)
        nbytes = got.get("minimal_bytes")
        if nbytes is None:
            nbytes = _all_bytes(inputs, reference)
        return Drawn(inputs, reference, nbytes, got.get("flops"))

    def minimal_bytes(self, inputs: list[Arg], output: torch.Tensor) -> int:
        if "minimal_bytes" in self.problem.declared().functions:
            counted = self.problem.count("minimal_bytes", inputs, output)
            if counted is not None:
                return counted
        return _all_bytes(inputs, output)

    def flops(self, inputs: list[Arg], output: torch.Tensor) -> int | None:
        """The work of one call, as problem.py's `flops(inputs, output)` declares it; None: the
        checkpoint declares none (memory-bound: no roofline of FLOPs, grader/gpu/roofline.py)."""
        if not self.compute_bound:
            return None
        return self.problem.count("flops", inputs, output)

    @property
    def compute_bound(self) -> bool:
        """It declares its work: the grade places it on the FLOP roofline and Nsight collects
        the tensor pipe's and the SMs' utilisation too."""
        return "flops" in self.problem.declared().functions

    def baselines(self) -> dict[str, str]:
        """BASELINES as data: each name, "callable" or what it names ("compile:torch")."""
        return dict(self.problem.declared().baselines)

    def timed_baselines(self) -> list[str]:
        """The definition's baselines that problem.py defines as functions, in its order."""
        table = self.baselines()
        return [b for b in self.definition.baselines if table.get(b) == "callable"]

    @property
    def reference_solution(self) -> Path:
        return self.folder / "reference.py"

    @property
    def starter(self) -> Path | None:
        p = self.folder / "starter.py"
        return p if p.exists() else None

    def wrong_solutions(self) -> list[WrongSolution]:
        """Each known-bad solution with the verdict its `# expect:` line names (checked: an
        AuthoringError names the file and line of a missing or unknown one)."""
        out = []
        for path in sorted((self.folder / "solutions" / "wrong").glob("*.py")):
            rel = str(path.relative_to(self.folder))
            out.append(WrongSolution(path, authoring.expected_verdict(path.read_text(), rel)))
        return out


def _defines(source: str) -> set[str]:
    """The names problem.py binds at its top level (a def, an assignment, an import), read
    from its syntax tree: it is never imported here."""
    names: set[str] = set()
    for node in syntax.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.If | ast.Try | ast.With):  # a def under a condition
            for sub in ast.walk(node):
                if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
                    names.add(sub.name)
                elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    names.add(sub.id)
    return names


def load(folder: Path) -> Checkpoint:
    """A checkpoint folder as data: checkpoint.toml validated, problem.py parsed (never run)."""
    toml = folder / "checkpoint.toml"
    if not toml.exists():
        raise CheckpointError(f"{folder}: no checkpoint.toml")
    text = toml.read_text()
    try:
        definition = CheckpointDef.model_validate(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        raise authoring.toml_error(exc) from exc
    except ValidationError as exc:
        raise authoring.model_error(exc, text) from exc
    problem_path = folder / "problem.py"
    if not problem_path.exists():
        raise CheckpointError(f"{folder}: no problem.py")
    source = problem_path.read_text()
    if (err := authoring.syntax_error(source, "problem.py")) is not None:
        raise err
    defined = _defines(source)
    for name in ("make_inputs", "reference"):
        if name not in defined:
            raise AuthoringError("problem.py", f"missing function {name}()")
    return Checkpoint(definition, folder)


def builtin_folders() -> list[Path]:
    return sorted(p.parent for p in BUILTIN_DIR.glob("*/checkpoint.toml"))


def builtins() -> dict[str, Checkpoint]:
    loaded = [load(f) for f in builtin_folders()]
    return {c.id: c for c in loaded}


def folders(extra_dirs: list[Path] | None = None) -> list[Path]:
    """The built-in checkpoint folders, then those found in `extra_dirs`."""
    found = builtin_folders()
    for d in extra_dirs or []:
        found += sorted(p.parent for p in d.glob("*/checkpoint.toml")) if d.is_dir() else []
    return found


def get(checkpoint_id: str, extra_dirs: list[Path] | None = None) -> Checkpoint:
    candidates = folders(extra_dirs)
    for folder in candidates:
        data = tomllib.loads((folder / "checkpoint.toml").read_text())
        if data.get("id") == checkpoint_id:
            return load(folder)
    known = ", ".join(
        sorted(tomllib.loads((f / "checkpoint.toml").read_text())["id"] for f in candidates)
    )
    raise CheckpointError(f"unknown checkpoint '{checkpoint_id}' (known: {known})")
