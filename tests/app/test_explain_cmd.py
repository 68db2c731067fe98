"""`kgrade explain RESULT.json EXPLANATION.md`: an explanation re-checked against a recorded
H200 grading (tests/grader/recorded.py) without a GPU — the reading sentence by sentence and
the level it would give; a claims block corrects a misread number; bad input is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.grader.recorded import grading

HONEST = (
    "Softmax is memory-bound, so only the bytes moved matter. My fused kernel moves 244 MB of "
    "DRAM traffic, 4.16× less than the naive version. It is 1.62× faster than torch.softmax. "
    "I chose softmax rather than a GEMM because cuBLAS wins dense GEMM on SM_120."
)


@pytest.fixture
def stored(tmp_path: Path) -> Path:
    path = tmp_path / "result.json"
    path.write_text(grading().model_dump_json())
    return path


def _run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, stored: Path, text: str, *extra: str
) -> tuple[int, str, str]:
    md = tmp_path / "explanation.md"
    md.write_text(text)
    rc = main(["explain", str(stored), str(md), *extra])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_an_honest_explanation_would_give_level_3(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, stored: Path
) -> None:
    rc, out, _ = _run(capsys, tmp_path, stored, HONEST)
    assert rc == 0
    assert "[2] My fused kernel moves 244 MB" in out
    assert "ok  '244 MB' (traffic, submission) vs 244 MB" in out
    assert "Level it would give: 3 (stored: 3)." in out


def test_a_misread_number_is_shown_and_a_claims_block_corrects_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, stored: Path
) -> None:
    text = HONEST + " Its reuse is 92 %."
    rc, out, _ = _run(capsys, tmp_path, stored, text, "--json")
    data = json.loads(out)
    assert rc == 0 and data["level"] == 2
    unread = [n for n in data["explanation"]["numbers"] if n["unread"]]
    assert [n["quote"] for n in unread] == ["92 %"]
    assert any("92 % (achieved occupancy, yours)" in m for m in data["reasons"])
    fixed = text + "\n\n```claims\noccupancy, mine: 92 %\n```\n"
    rc, out, _ = _run(capsys, tmp_path, stored, fixed, "--json")
    data = json.loads(out)
    assert data["level"] == 3, data["reasons"]
    wrong = text + "\n\n```claims\nl2 hit rate, mine: 92 %\n```\n"
    rc, out, _ = _run(capsys, tmp_path, stored, wrong, "--json")
    data = json.loads(out)
    assert data["level"] == 2 and any("50 %" in m for m in data["reasons"])


def test_an_api_submission_json_is_read_and_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, stored: Path
) -> None:
    api = tmp_path / "submission.json"
    api.write_text(
        json.dumps({"id": 7, "status": "done", "result": json.loads(stored.read_text())})
    )
    rc, out, _ = _run(capsys, tmp_path, api, HONEST)
    assert rc == 0 and "Level it would give: 3" in out
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    rc, out, err = _run(capsys, tmp_path, junk, HONEST)
    assert rc == 2 and err.startswith("kgrade: ") and "is not JSON" in err
    junk.write_text(json.dumps({"hello": 1}))
    rc, out, err = _run(capsys, tmp_path, junk, HONEST)
    assert rc == 2 and "holds no grading" in err and len(err.strip().splitlines()) == 1
