"""`kgrade checkpoints deadline` and the leaderboard's filters against a running server
(uvicorn on PostgreSQL and Redis): the deadline shown in its zone, set, refused with a clear
line, cleared; a submission past it refused in words; an unknown checkpoint's board a clear
line, never an empty board."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.service.test_cli_course import _token, kgrade, server  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "reference_kernels" / "c3a_softmax" / "reference.py"


def test_an_instructor_sets_and_clears_a_deadline_from_the_cli(server: str, make_user) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    prof, ann = _token(make_user("prof", "instructor")), _token(make_user("ann"))
    assert kgrade(server, ann, "checkpoints", "deadline", "c3a-softmax").stdout.strip() == (
        "c3a-softmax: no deadline"
    )
    args = ("--due", "2026-12-08T23:59", "--tz", "Europe/Berlin", "--policy", "accept")
    r = kgrade(server, prof, "checkpoints", "deadline", "c3a-softmax", *args)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == (
        "c3a-softmax: due 2026-12-08 23:59 CET (Europe/Berlin); late work accepted and marked "
        "late (set by an instructor)"
    )
    bad = kgrade(server, prof, "checkpoints", "deadline", "c3a-softmax", "--due", "soon")
    assert bad.returncode == 2 and "due" in bad.stderr and "Traceback" not in bad.stderr
    no = kgrade(server, ann, "checkpoints", "deadline", "c3a-softmax", "--due", "2026-12-09")
    assert no.returncode == 2 and "instructor" in no.stderr
    gone = kgrade(server, prof, "checkpoints", "deadline", "nope", "--due", "2026-12-09")
    assert gone.returncode == 2 and "nope" in gone.stderr and "HTTP 404" in gone.stderr
    past = (datetime.now(UTC) - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    assert (
        kgrade(server, prof, "checkpoints", "deadline", "c3a-softmax", "--due", past).returncode
        == 0
    )
    sub = kgrade(server, ann, "submit", str(REFERENCE), "-c", "c3a-softmax")
    assert sub.returncode == 2 and "takes no more submissions: it was due at" in sub.stderr
    assert "(HTTP 403)" in sub.stderr
    cleared = kgrade(server, prof, "checkpoints", "deadline", "c3a-softmax", "--clear")
    assert cleared.stdout.strip() == "c3a-softmax: no deadline"


def test_the_leaderboard_of_an_unknown_checkpoint_is_a_clear_line(server: str, make_user) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    prof = _token(make_user("prof", "instructor"))
    for cmd in ("leaderboard", "export"):
        r = kgrade(server, prof, cmd, "c3a-nope")
        assert r.returncode == 2 and "c3a-nope" in r.stderr and "(HTTP 404)" in r.stderr
    empty = kgrade(server, prof, "leaderboard", "c3a-softmax", "--late", "include")
    assert empty.stdout.strip() == "c3a-softmax: no graded submissions (late work included)"


def test_history_marks_late_submissions(server: str, make_user) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    from tests.service.conftest import stored

    ann = _token(make_user("ann"))
    result = {"checkpoint": "c3a-softmax", "verdict": "correct", "level": 2, "device": "cpu"}
    stored("ann", {**result, "messages": ["Level 2"]})
    stored("ann", {**result, "messages": ["Level 2"]}, late=True)
    lines = kgrade(server, ann, "history").stdout.splitlines()
    assert [ln.endswith("  late") for ln in lines] == [True, False]  # newest first
