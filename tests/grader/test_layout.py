"""grader's folders show the pipeline (plan, sandbox, judge, gpu; the pipeline on top), and the
harness, the only code mounted into the sandbox, imports nothing but the stdlib, torch, Triton
and its own modules. The import direction between the sub-packages is import-linter's contract
(pyproject.toml, run by tests/app/test_layering.py); this checks what a contract cannot: that no
new flat module appears beside them, and what the harness's files import (they run as scripts
in the sandbox, where `grader` is not on the path)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import grader
from grader.sandbox import job

GRADER = Path(grader.__file__).resolve().parent
PACKAGES = {"plan", "sandbox", "judge", "gpu"}
# the shared base (types, checkpoint loading, safe text, cache files, options) and the top
BASE = {"__init__", "models", "checkpoints", "authoring", "cachefile", "text", "syntax", "options"}
TOP = {"pipeline", "validation"}


def test_grader_is_its_base_its_top_and_four_sub_packages() -> None:
    flat = {p.stem for p in GRADER.glob("*.py")}
    folders = {p.name for p in GRADER.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert flat == BASE | TOP, f"a module outside the sub-packages: {sorted(flat - BASE - TOP)}"
    assert folders == PACKAGES
    for pkg in PACKAGES:
        assert (GRADER / pkg / "__init__.py").is_file()


def test_the_harness_mounted_is_the_harness_folder() -> None:
    assert Path(job.HARNESS_DIR) == GRADER / "sandbox" / "harness"
    assert (Path(job.HARNESS_DIR) / "child.py").is_file()
    assert (Path(job.HARNESS_DIR) / "compile_kernels.py").is_file()


def _imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside the harness
                out.add("harness")
            elif node.module:
                out.add(node.module.split(".")[0])
    return out


def test_the_harness_imports_only_stdlib_torch_triton_and_itself() -> None:
    allowed = set(sys.stdlib_module_names) | {"torch", "triton", "numpy", "harness", "__future__"}
    harness = Path(job.HARNESS_DIR)
    files = sorted(harness.glob("*.py"))
    assert len(files) >= 8
    own = {p.stem for p in files}
    for path in files:
        stray = _imported(path) - allowed - own
        assert not stray, f"{path.name} imports {sorted(stray)}"
