"""The attack catalog (tests/security/attacks/) and the honest catalog (tests/security/honest/).

Each file is a complete submission. Its first lines say how a correct grader must grade it:

    # expect: forbidden|wrong_answer        the verdicts it may get
    # class: 3                              the attack class (1-5), or `honest`
    # one line: what it tries
    # checkpoint: c3a-softmax

A hostile file is never graded `correct`, whatever spelling its trick uses. An honest one is
graded `correct`. For every file, the result serialises, and neither the JSON nor the human
report carries an ESC byte, a lone surrogate or a forged `verdict:` line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from grader import checkpoints, grade
from grader.judge import kernel_check
from grader.judge.report import render
from grader.models import Verdict
from grader.options import GradeOptions
from grader.sandbox.bwrap import Limits, probe

HERE = Path(__file__).resolve().parent
ATTACKS = HERE / "attacks"
HONEST = HERE / "honest"
CLASSES = {"1", "2", "3", "4", "5"}
_VERDICTS = {v.value for v in Verdict}

pytestmark = pytest.mark.skipif(probe() is not None, reason=str(probe()))


@dataclass(frozen=True)
class Entry:
    path: Path
    expect: frozenset[str]
    klass: str
    what: str
    checkpoint: str

    @property
    def hostile(self) -> bool:
        return self.path.parent == ATTACKS


def _parse(path: Path) -> Entry:
    lines = path.read_text().splitlines()
    assert len(lines) >= 4, f"{path.name}: missing header"
    assert lines[0].startswith("# expect: "), f"{path.name}: line 1 must be '# expect: ...'"
    assert lines[1].startswith("# class: "), f"{path.name}: line 2 must be '# class: N'"
    assert lines[2].startswith("# "), f"{path.name}: line 3 must describe the file"
    checkpoint = next(
        (ln.split(":", 1)[1].strip() for ln in lines[:6] if ln.startswith("# checkpoint:")),
        "c3a-softmax",
    )
    expect = frozenset(v.strip() for v in lines[0].removeprefix("# expect: ").split("|"))
    return Entry(
        path,
        expect,
        lines[1].removeprefix("# class: ").strip(),
        lines[2].removeprefix("# ").strip(),
        checkpoint,
    )


def _catalog() -> list[Entry]:
    return [_parse(p) for folder in (ATTACKS, HONEST) for p in sorted(folder.glob("*.py"))]


CATALOG = _catalog()


def test_catalog_is_complete() -> None:
    hostile = [e for e in CATALOG if e.hostile]
    honest = [e for e in CATALOG if not e.hostile]
    assert len(hostile) >= 60, len(hostile)
    assert len(honest) >= 12, len(honest)
    for klass in sorted(CLASSES):
        count = sum(e.klass == klass for e in hostile)
        assert count >= 2, f"class {klass}: {count} attacks"
    for e in CATALOG:
        assert e.expect <= _VERDICTS, f"{e.path.name}: unknown verdicts {e.expect - _VERDICTS}"
        checkpoints.get(e.checkpoint)  # the named checkpoint exists
        if e.hostile:
            assert e.klass in CLASSES, f"{e.path.name}: class {e.klass!r}"
            assert "correct" not in e.expect, f"{e.path.name}: hostile, expects correct"
            assert ".jit" in e.path.read_text(), f"{e.path.name}: no @triton.jit kernel"
        else:
            assert e.expect == {"correct"}, f"{e.path.name}: an honest file expects correct"


def _lone_surrogate(text: str) -> bool:
    return any(0xD800 <= ord(c) <= 0xDFFF for c in text)


IDS = [f"{e.path.parent.name}/{e.path.stem}" for e in CATALOG]
# Known failures of the CI rehearsal of 2026-12-01 after merging issues 28-32, to fix next
# session (listed in its closing note): not strict, so that a fix shows as XPASS
KNOWN: dict[str, str] = {}  # stem -> why it is a known failure (none now)
PARAMS = [
    pytest.param(e, marks=pytest.mark.xfail(reason=KNOWN[e.path.stem], strict=False))
    if e.path.stem in KNOWN
    else e
    for e in CATALOG
]


@pytest.mark.parametrize("entry", PARAMS, ids=IDS)
# The compile check may take GRACE_SECONDS (300 s) after the 30 s run: a file whose every
# specialization compiles in just under STALL_SECONDS passes the suite's 300 s on a loaded
# machine (CI of stop 36, cc_stall_cumsum_wide_block: three 65536-wide scans)
@pytest.mark.timeout(int(30 + kernel_check.GRACE_SECONDS + 120))
def test_catalog_grading(entry: Entry) -> None:
    result = grade(
        entry.path.read_text(),
        checkpoints.get(entry.checkpoint),
        GradeOptions(device="cpu", limits=Limits(wall_seconds=30)),
    )
    verdict = result.verdict.value
    first = result.messages[1] if len(result.messages) > 1 else "".join(result.messages[:1])
    if entry.hostile:
        assert verdict != "correct", f"{entry.path.name} got through ({entry.what}): {first[:300]}"
    assert verdict in entry.expect, (
        f"{entry.path.name}: expected {'|'.join(sorted(entry.expect))}, got {verdict}: "
        f"{first[:300]}"
    )

    # The result serialises, both ways, with no escape byte and no lone surrogate in it.
    dumped = result.model_dump_json()
    assert "\x1b" not in dumped and "\\u001b" not in dumped.lower()
    assert not _lone_surrogate(dumped)
    # a surrogate escaped in the JSON text comes back as one once parsed
    assert not _lone_surrogate(json.dumps(json.loads(dumped), ensure_ascii=False))
    report = render(result)
    report.encode("utf-8")  # raises on a lone surrogate
    assert "\x1b" not in report
    assert not _lone_surrogate(report)
    # Nothing the submission wrote or raised draws a second verdict line in the report (its
    # text may say "verdict:", indented as a quote; only the grader's own line starts there).
    forged = [ln for ln in report.splitlines() if ln.startswith("verdict:")]
    assert len(forged) == 1, f"{entry.path.name}: verdict lines in the report: {forged}"
