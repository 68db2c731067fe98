"""Loading checkpoints: a folder with `checkpoint.toml` (data), `problem.py` (input generator,
reference, baselines, byte count), `reference.py` (a correct Triton solution), `starter.py`
and `solutions/wrong/*.py` (known-bad solutions, each naming the verdict it must get).

`problem.py` runs in the trusted parent: it is written by an admin, never by a student.
"""

from __future__ import annotations

import importlib.util
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import torch
from pydantic import ValidationError

from grader import authoring
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
class Checkpoint:
    definition: CheckpointDef
    folder: Path
    problem: ModuleType

    @property
    def id(self) -> str:
        return self.definition.id

    def make_inputs(self, case: CaseSpec, gen: torch.Generator) -> list[Arg]:
        """The entry's positional arguments: tensors, or plain numbers (e.g. eps)."""
        inputs = list(self.problem.make_inputs(case, gen))
        for a in inputs:
            if not isinstance(a, torch.Tensor | int | float) or isinstance(a, bool):
                raise CheckpointError(f"{self.id}: make_inputs returned a {type(a).__name__}")
        return inputs

    def reference(self, inputs: list[Arg]) -> torch.Tensor:
        fn: Callable[..., torch.Tensor] = self.problem.reference
        return fn(*[a.clone() if isinstance(a, torch.Tensor) else a for a in inputs])

    def minimal_bytes(self, inputs: list[Arg], output: torch.Tensor) -> int:
        fn = getattr(self.problem, "minimal_bytes", None)
        if fn is not None:
            return int(fn(inputs, output))
        tensors = [a for a in inputs if isinstance(a, torch.Tensor)]
        return sum(t.numel() * t.element_size() for t in [*tensors, output])

    def flops(self, inputs: list[Arg], output: torch.Tensor) -> int | None:
        """The work of one call, as problem.py's `flops(inputs, output)` declares it; None: the
        checkpoint declares none (memory-bound: no roofline of FLOPs, grader/gpu/roofline.py)."""
        fn = getattr(self.problem, "flops", None)
        return int(fn(inputs, output)) if fn is not None else None

    @property
    def compute_bound(self) -> bool:
        """It declares its work: the grade places it on the FLOP roofline and Nsight collects
        the tensor pipe's and the SMs' utilisation too."""
        return callable(getattr(self.problem, "flops", None))

    def baselines(self) -> dict[str, Callable[..., Any]]:
        return dict(getattr(self.problem, "BASELINES", {}))

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


def _import_file(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise CheckpointError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load(folder: Path) -> Checkpoint:
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
    if (err := authoring.syntax_error(problem_path.read_text(), "problem.py")) is not None:
        raise err
    try:
        problem = _import_file(f"kgrade_problem_{definition.id.replace('-', '_')}", problem_path)
    except Exception as exc:  # an admin's problem.py may raise anything
        raise authoring.import_error(exc, problem_path, "problem.py") from exc
    for name in ("make_inputs", "reference"):
        if not callable(getattr(problem, name, None)):
            raise AuthoringError("problem.py", f"missing function {name}()")
    return Checkpoint(definition, folder, problem)


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
