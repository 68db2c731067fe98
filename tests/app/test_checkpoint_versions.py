"""A checkpoint's version: the content hash of its files, without what a course changes while
it runs (opening, closing, the deadline); any other change is a new version."""

from __future__ import annotations

from pathlib import Path

from app.checkpoints import versions

ROOT = Path(__file__).resolve().parents[2]
VA = ROOT / "reference_kernels" / "c3a_vector_add"


def _files(toml: str) -> dict[str, str]:
    return {"checkpoint.toml": toml, "problem.py": "def make_inputs(): ...\n"}


def test_open_and_the_deadline_table_are_not_part_of_the_version() -> None:
    base = (VA / "checkpoint.toml").read_text()
    v = versions.content_hash(_files(base))
    assert versions.content_hash(_files("open = false\n" + base)) == v
    due = base + '\n[deadline]\ndue = 2030-01-01T00:00:00Z\ntimezone = "UTC"\n'
    assert versions.content_hash(_files(due)) == v
    moved = base + '\n[deadline]\ndue = 2031-06-01T00:00:00Z\npolicy = "accept"\n'
    assert versions.content_hash(_files(moved)) == v


def test_anything_else_is_a_new_version() -> None:
    base = (VA / "checkpoint.toml").read_text()
    v = versions.content_hash(_files(base))
    assert versions.content_hash(_files(base + "\n# a comment\n")) != v
    assert versions.content_hash(_files(base.replace("rtol", "rtol ", 1))) != v
    other = _files(base) | {"problem.py": "def make_inputs(): return 1\n"}
    assert versions.content_hash(other) != v
    # a key named open inside a table is the table's, and grades
    assert versions.graded_toml("[cases]\nopen = 1\n") == "[cases]\nopen = 1\n"


def test_a_folder_is_hashed_without_its_bytecode(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "va"
    shutil.copytree(VA, folder, ignore=shutil.ignore_patterns("__pycache__"))
    v, files = versions.of_folder(folder)
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "problem.cpython-311.pyc").write_bytes(b"\x00\x01")
    assert versions.of_folder(folder)[0] == v and "problem.py" in files
