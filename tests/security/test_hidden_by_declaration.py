"""Hidden cases are hidden by the checkpoint's declaration (`hidden = true`), not by their
names: a hidden case named `hidden-…` is withheld like any other, and a checkpoint whose cases'
visibility is ambiguous is refused when it is loaded (so validation and `kgrade checkpoints
check` refuse it, with the file and the reason)."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from grader import checkpoints, withhold_hidden
from grader.authoring import AuthoringError

ROOT = Path(__file__).resolve().parents[2]


def _result(name: str) -> dict[str, Any]:
    return {
        "cases": [
            {"name": "small", "passed": True, "shape": [4, 4], "dtype": "float32"},
            {
                "name": name,
                "passed": False,
                "hidden": True,
                "shape": [4097, 31],
                "dtype": "bfloat16",
                "max_abs_err": 0.5,
                "message": f"{name}: wrong at [4096, 30]",
            },
        ],
        "configs": [{"label": "BLOCK=64", "failed_cases": [name], "failed_widths": [31]}],
        "messages": [f"wrong on {name} (shape [4097, 31])"],
        "stdout": "printed 4097",
    }


@pytest.mark.parametrize("name", ["hidden-large", "hidden-1", "HIDDEN-x", "secret-large"])
def test_a_declared_hidden_case_is_withheld_whatever_its_name(name: str) -> None:
    seen = withhold_hidden(_result(name))
    text = json.dumps(seen)
    assert "4097" not in text and "31]" not in text and "bfloat16" not in text, text
    assert all(c["name"] != name or name == "hidden-1" for c in seen["cases"]), seen["cases"]
    hidden = [c for c in seen["cases"] if c.get("hidden")]
    assert hidden and all(c["shape"] is None and c["max_abs_err"] is None for c in hidden)
    assert "wrong at" not in text


def test_an_alias_never_takes_a_shown_case_name() -> None:
    """A result stored before the names were refused: a shown `hidden-1` keeps its name and
    the withheld case is shown as another."""
    r = _result("big")
    r["cases"][0]["name"] = "hidden-1"
    seen = withhold_hidden(r)
    names = [c["name"] for c in seen["cases"]]
    assert names[0] == "hidden-1" and names[1] != "hidden-1", names


def _folder(tmp_path: Path, edit: str) -> Path:
    folder = tmp_path / "cp"
    shutil.copytree(ROOT / "reference_kernels" / "c3a_vector_add", folder)
    toml = folder / "checkpoint.toml"
    toml.write_text(toml.read_text() + edit)
    tomllib.loads(toml.read_text())  # the edit itself is valid TOML
    return folder


AMBIGUOUS = {
    "named-hidden-but-shown": '\n[[interpreter_cases]]\nname = "hidden-big"\nshape = [8]\n',
    "hidden-here-shown-there": (
        '\n[[interpreter_cases]]\nname = "twice"\nshape = [8]\nhidden = true\n'
        '\n[[gpu_cases]]\nname = "twice"\nshape = [8]\n'
    ),
    "hidden-benchmark-shape": (
        '\n[[benchmark_shapes]]\nname = "secret-bench"\nshape = [1024]\nhidden = true\n'
    ),
}


@pytest.mark.parametrize("edit", sorted(AMBIGUOUS))
def test_ambiguous_visibility_is_refused(tmp_path: Path, edit: str) -> None:
    with pytest.raises(AuthoringError) as exc:
        checkpoints.load(_folder(tmp_path, AMBIGUOUS[edit]))
    assert exc.value.file == "checkpoint.toml"
    assert "hidden" in exc.value.detail, exc.value.detail


def test_a_declared_hidden_case_of_any_name_is_accepted(tmp_path: Path) -> None:
    edit = '\n[[interpreter_cases]]\nname = "hidden-big"\nshape = [8]\nhidden = true\n'
    cp = checkpoints.load(_folder(tmp_path, edit))
    assert any(c.name == "hidden-big" and c.hidden for c in cp.definition.interpreter_cases)


def test_every_builtin_checkpoint_still_loads() -> None:
    assert len(checkpoints.builtins()) >= 6
