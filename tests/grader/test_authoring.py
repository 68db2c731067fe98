"""Checkpoint authoring that teaches: every mistake named with its file (never a temporary
path) and line; the JSON schema in docs/ generated from the model; the worked example of
docs/CHECKPOINTS.md loads as written."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from grader import checkpoints
from grader.authoring import AuthoringError, json_schema
from grader.sandbox import problem as problem_proc

ROOT = Path(__file__).resolve().parents[2]
VA = ROOT / "reference_kernels" / "c3a_vector_add"
DOC = ROOT / "docs" / "CHECKPOINTS.md"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    f = tmp_path / "lab_add"
    shutil.copytree(VA, f)
    toml = f / "checkpoint.toml"
    toml.write_text(toml.read_text().replace('id = "c3a-vector-add"', 'id = "lab-add"'))
    return f


def _error(folder: Path) -> AuthoringError:
    with pytest.raises(AuthoringError) as caught:
        checkpoints.load(folder).wrong_solutions()
    assert str(folder) not in str(caught.value)  # the file within the folder, never its path
    return caught.value


def _edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, count))


def test_the_schema_in_docs_is_generated_from_the_model() -> None:
    stored = (ROOT / "docs" / "checkpoint.schema.json").read_text()
    assert stored == json_schema(), "docs/checkpoint.schema.json is out of date: make schema"


def test_every_field_of_the_model_is_documented() -> None:
    from grader.models import CaseSpec, CheckpointDef, RubricSpec

    doc = DOC.read_text()
    for model in (CheckpointDef, CaseSpec, RubricSpec):
        for name in model.model_fields:
            assert f"| `{name}` |" in doc, f"docs/CHECKPOINTS.md does not document {name}"


def test_a_toml_syntax_error_has_its_line(folder: Path) -> None:
    toml = folder / "checkpoint.toml"
    lines = toml.read_text().splitlines()
    n = lines.index("[[interpreter_cases]]") + 1
    _edit(toml, "[[interpreter_cases]]", "[[interpreter_cases]")
    err = _error(folder)
    assert (err.file, err.line) == ("checkpoint.toml", n)
    assert str(err).startswith(f"checkpoint.toml, line {n}: not valid TOML: Expected ']]'")


def test_a_field_of_the_wrong_type_names_the_field_and_its_line(folder: Path) -> None:
    _edit(folder / "checkpoint.toml", 'title = "C3a · Vector add"', "title = 3")
    assert (
        str(_error(folder))
        == "checkpoint.toml, line 2: field title: Input should be a valid string (it is 3)"
    )


def test_a_field_of_a_case_names_the_case_and_its_line(folder: Path) -> None:
    toml = folder / "checkpoint.toml"
    _edit(toml, "shape = [100]", 'shape = "x"')
    n = toml.read_text().splitlines().index('shape = "x"') + 1
    err = _error(folder)
    assert err.line == n
    assert "field interpreter_cases[1].shape: Input should be a valid list" in str(err)
    assert "pydantic" not in str(err) and "validation error" not in str(err)


def test_a_missing_field_and_a_profile_shape_that_is_not_benchmarked(folder: Path) -> None:
    toml = folder / "checkpoint.toml"
    _edit(toml, 'entry = "vector_add_triton"\n', "")
    assert str(_error(folder)) == "checkpoint.toml: field entry: required, and missing"
    _edit(
        toml, 'title = "C3a · Vector add"', 'entry = "x"\nprofile_shapes = ["course"]\ntitle = "t"'
    )
    assert str(_error(folder)) == (
        "checkpoint.toml, line 3: profile_shapes names no benchmark shape: course"
    )


def test_problem_py_syntax_error_exception_and_missing_function(folder: Path) -> None:
    problem = folder / "problem.py"
    good = problem.read_text()
    problem.write_text("import torch\n\ndef make_inputs(case, gen:\n    pass\n")
    err = _error(folder)
    assert (err.file, err.line) == ("problem.py", 3) and "Python syntax error" in str(err)
    problem.write_text(good.replace("BASELINES = {", "x = toch.add\nBASELINES = {"))
    n = problem.read_text().splitlines().index("x = toch.add") + 1
    checkpoint = checkpoints.load(folder)  # data only: problem.py is parsed, never run here
    with pytest.raises(AuthoringError) as caught:  # it runs in its own sandbox
        problem_proc.of(checkpoint, gpu=False).declared()
    assert (
        str(caught.value)
        == f"problem.py, line {n}: does not load: it raised NameError: name 'toch' is not defined"
    )
    problem.write_text(good.replace("def reference(", "def not_reference("))
    assert str(_error(folder)) == "problem.py: missing function reference()"
    conditional = "\nif True:\n\n    def reference(x):\n        return x\n"
    problem.write_text(good.replace("def reference(", "def not_reference(") + conditional)
    assert checkpoints.load(folder).id == "lab-add"  # defined under a condition: found


def test_a_known_bad_solution_without_or_with_an_unknown_expect(folder: Path) -> None:
    bad = folder / "solutions" / "wrong" / "missing_mask.py"
    _edit(bad, "# expect: runtime_error\n", "")
    err = _error(folder)
    assert (err.file, err.line) == ("solutions/wrong/missing_mask.py", 1)
    assert "no '# expect: VERDICT' line" in str(err) and "wrong_answer" in str(err)
    bad.write_text("import torch\n# expect: wrong\n" + bad.read_text())
    err = _error(folder)
    assert err.line == 2 and "'# expect:' names 'wrong', not a verdict" in str(err)
    _edit(bad, "# expect: wrong\n", "# expect: correct\n")
    assert "cannot expect 'correct'" in str(_error(folder))
    _edit(bad, "# expect: correct\n", "# expect: runtime_error|wrong_answer\n")
    assert [
        w.expect for w in checkpoints.load(folder).wrong_solutions() if w.name == "missing_mask"
    ] == ["runtime_error|wrong_answer"]


def test_a_solution_that_does_not_parse_has_its_line(folder: Path) -> None:
    from app.checkpoints.service import check_folder

    ref = folder / "reference.py"
    ref.write_text(ref.read_text() + "\ndef broken(:\n")
    n = len(ref.read_text().splitlines())
    with pytest.raises(AuthoringError) as caught:
        check_folder(folder)
    assert (caught.value.file, caught.value.line) == ("reference.py", n)
    ref.write_text((VA / "reference.py").read_text())
    # a known-bad solution that expects a compile error may well not parse
    (folder / "solutions" / "wrong" / "syntax.py").write_text("# expect: compile_error\ndef f(:\n")
    check_folder(folder)


def test_the_worked_example_of_the_docs_loads(tmp_path: Path) -> None:
    blocks = re.findall(r"```(toml|python)\n(.*?)```", DOC.read_text(), re.S)
    toml = next(b for kind, b in blocks if kind == "toml")
    problem = next(b for kind, b in blocks if kind == "python" and "def make_inputs" in b)
    folder = tmp_path / "scaled_add"
    folder.mkdir()
    (folder / "checkpoint.toml").write_text(toml)
    (folder / "problem.py").write_text(problem)
    cp = checkpoints.load(folder)
    assert cp.id == "lab-scaled-add" and cp.definition.entry == "scaled_add_triton"
    import torch

    x, y, alpha = cp.make_inputs(
        cp.definition.interpreter_cases[1], torch.Generator().manual_seed(1)
    )
    assert torch.allclose(cp.reference([x, y, alpha]), x + 0.5 * y)
