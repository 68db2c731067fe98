"""The student's home page on PostgreSQL, with GPU results recorded on an H200
(benchmarks/results/2026-11-29-h200-references.json): per checkpoint the best level and
speedup, the next step in the grader's own words, the history of that checkpoint only, and
the GPU-graded versions on the roofline."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.service.conftest import signin_form, stored

ROOT = Path(__file__).resolve().parents[2]
RECORD = json.loads(
    (ROOT / "benchmarks" / "results" / "2026-11-29-h200-references.json").read_text()
)
CPU_CEILING = "Not benchmarked: no GPU here, so level 2 is the most a CPU grading gives."


def _store(name: str, checkpoint: str, result: dict[str, Any], level: int | None = None) -> int:
    return stored(name, result, checkpoint, **({} if level is None else {"level": level}))


def _cpu(checkpoint: str, verdict: str, level: int, messages: list[str]) -> dict[str, Any]:
    return {
        "checkpoint": checkpoint,
        "verdict": verdict,
        "level": level,
        "device": "cpu (Triton interpreter)",
        "messages": messages,
    }


def _card(page: str, checkpoint: str) -> str:
    m = re.search(
        rf'<section class="card checkpoint" data-checkpoint="{checkpoint}">(.*?)</section>',
        page,
        re.S,
    )
    assert m, checkpoint
    return m.group(1)


def _signed_in(client: TestClient, headers: dict[str, str]) -> None:
    token = headers["Authorization"].split()[1]
    assert (
        client.post(
            "/signin", data=signin_form(client, {"token": token}), follow_redirects=False
        ).status_code
        == 303
    )


def test_the_home_page_shows_best_next_step_history_and_the_climb(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    ann = make_user("ann")
    make_user("bob")
    v1 = _store(
        "ann",
        "c3a-softmax",
        _cpu(
            "c3a-softmax", "wrong_answer", 1, ["Level 1 (wrong_answer): …", "Wrong on 5 of 7 cases"]
        ),
    )
    v2 = _store("ann", "c3a-softmax", RECORD["c3a-softmax"]["first"])
    v3 = _store("ann", "c3a-softmax", RECORD["c3a-softmax"]["second"])
    rms = _store("ann", "c3a-rmsnorm", RECORD["c3a-rmsnorm"]["first"])
    ce = _store(
        "ann",
        "c3a-cross-entropy",
        _cpu(
            "c3a-cross-entropy",
            "correct",
            2,
            ["Level 2: correct on all 7 cases under the Triton interpreter.", CPU_CEILING],
        ),
    )
    _store("bob", "c3a-softmax", RECORD["c3a-softmax"]["second"])  # not ann's
    _signed_in(client, ann)
    page = client.get("/").text
    softmax = _card(page, "c3a-softmax")
    assert "Fused softmax" in softmax and "one pass over each row" in softmax  # the statement
    assert "level 3</span>" in softmax and f'href="/submissions/{v3}"' in softmax
    speed = RECORD["c3a-softmax"]["second"]["benchmark"]["geomean"]["torch"]["median"]
    assert f"{speed:.2f}× over torch on h200" in softmax
    # the next step is the best result's own reasons, after its headline
    for m in RECORD["c3a-softmax"]["second"]["messages"][1:]:
        assert m.replace("'", "&#39;") in softmax
    # its history: its own three versions, newest first, the two GPU ones on the roofline
    rows = re.findall(r'<tr><td>v(\d+)</td><td><a href="/submissions/(\d+)">', softmax)
    assert rows == [("3", str(v3)), ("2", str(v2)), ("1", str(v1))]
    assert softmax.count('<figure class="climb">') == 1
    assert "c3a-softmax on the roofline · NVIDIA H200 · course-8192x4096-fp32" in softmax
    assert "1 of them not on the roofline" in softmax
    rmsnorm = _card(page, "c3a-rmsnorm")
    assert re.findall(r'<a href="/submissions/(\d+)">', rmsnorm).count(str(rms)) == 2
    assert "Nsight Compute profiling was turned off: level 3 needs its evidence." in rmsnorm
    assert f"/submissions/{v3}" not in rmsnorm  # one checkpoint's history, not every one
    cross = _card(page, "c3a-cross-entropy")
    assert CPU_CEILING in cross and f"/submissions/{ce}" in cross and "<svg" not in cross
    assert "None graded on a GPU yet" in cross
    assert "No graded submission yet." in _card(page, "c3a-vector-add")


def test_an_overridden_best_says_so(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    ann = make_user("ann")
    _store("ann", "c3a-softmax", RECORD["c3a-softmax"]["first"], level=1)
    _signed_in(client, ann)
    card = _card(client.get("/").text, "c3a-softmax")
    assert "level 1</span>" in card and "level set by an instructor" in card


def test_the_history_plot_has_a_line_per_checkpoint(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    ann = make_user("ann")
    _store("ann", "c3a-softmax", _cpu("c3a-softmax", "correct", 2, ["Level 2"]))
    _store("ann", "c3a-rmsnorm", _cpu("c3a-rmsnorm", "wrong_answer", 1, ["Level 1"]))
    _signed_in(client, ann)
    page = client.get("/history").text
    assert "Your level over time, per checkpoint" in page
    legend = re.findall(r"<!-- (c3a-[a-z]+) -->", page)
    assert sorted(set(legend)) == ["c3a-rmsnorm", "c3a-softmax"]
