"""Text from a submission is data (issue 17, "Report hygiene"): what the sandboxed child says
(exception messages, its output, autotune config labels, kernel and phase names) reaches the
JSON result, the terminal report and the web pages as valid Unicode, with control characters
escaped and without lines of its own inside the grader's sentences."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from grader import Verdict
from grader.judge.collect import Collector
from grader.judge.report import render
from grader.models import GradeResult
from grader.sandbox import job
from grader.sandbox.harness import wire
from grader.text import clean, untrusted
from tests.conftest import GradeFn

# C0 but \n and \t, DEL, C1, bidi controls, line/paragraph separators, lone surrogates
HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\u2028\u2029\ud800-\udfff]"
)

KERNEL = """
import torch
import triton
import triton.language as tl


@triton.jit
def _row_softmax(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.max(x, axis=0))
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row * n_cols + cols, y, mask=mask)


def _launch(x):
    x = x.contiguous()
    y = torch.empty_like(x)
    _row_softmax[(x.shape[0],)](x, y, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return y
"""

# Each is an ordinary Triton file: the escapes are in its own string literals.
SURROGATE = (
    "# expect: runtime_error\n"
    + KERNEL
    + """

def softmax_triton(x):
    _launch(x)
    raise ValueError("bad row \\ud800 here")
"""
)

ANSI_OUTPUT = (
    "# expect: correct\n"
    + KERNEL
    + """

print("\\x1b[2K\\r\\u2714 correct \\u2014 level 4\\x1b[0m")


def softmax_triton(x):
    print("\\x1b]0;owned\\x07\\u202eevil\\u2028verdict: correct   level: 4\\x9b2J")
    return _launch(x)
"""
)

FORGED_MESSAGE = (
    "# expect: runtime_error\n"
    + KERNEL
    + """

def softmax_triton(x):
    _launch(x)
    raise RuntimeError("boom\\x1b[2K\\r\\nverdict: correct   level: 4\\n\\u2714 all cases correct")
"""
)

NEWLINE_CONFIG = """# expect: wrong_answer
import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config(
            {
                "BLOCK": 64,
                "NOTE": "x\\n\\u2714 all cases correct",
                "K\\nverdict: correct   level: 4": 2,
            },
            num_warps=4,
        ),
        triton.Config({"BLOCK": 4096, "NOTE": "ok"}, num_warps=4),
    ],
    key=["n_cols"],
)
@triton.jit
def _row_softmax(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr, NOTE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.max(x, axis=0))
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row * n_cols + cols, y, mask=mask)


def softmax_triton(x):
    x = x.contiguous()
    y = torch.empty_like(x)
    _row_softmax[(x.shape[0],)](x, y, x.shape[1])
    return y
"""

# ---------------------------------------------------------------- the sanitiser itself


def test_lone_surrogates_become_replacement_characters() -> None:
    assert untrusted("a\ud800b") == "a\ufffdb"
    assert untrusted("\udfff\ud800") == "\ufffd\ufffd"
    assert untrusted("\ud83d\ude00") == "\U0001f600"  # a proper pair is its character
    untrusted("x\udc80" * 50).encode("utf-8")


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[2K\r\u2714 correct", "\\x1b[2K\\r\u2714 correct"),
        ("\x00\x07\x08\x0b\x0c\x1f", "\\x00\\x07\\x08\\x0b\\x0c\\x1f"),
        ("\x7f\x85\x9b", "\\x7f\\x85\\x9b"),
        (
            "\u202aa\u202eb\u2066c\u2069\u200e\u200f\u061c",
            "\\u202aa\\u202eb\\u2066c\\u2069\\u200e\\u200f\\u061c",
        ),
        ("a\u2028b\u2029c", "a\\u2028bc".replace("bc", "b\\u2029c")),
    ],
)
def test_control_characters_are_escaped_visibly(raw: str, shown: str) -> None:
    assert untrusted(raw) == shown
    assert untrusted(raw, lines=True) == shown


def test_newlines_and_tabs_kept_only_in_multi_line_text() -> None:
    assert untrusted("a\nb\tc", lines=True) == "a\nb\tc"
    assert untrusted("a\nb\tc") == "a\\nb\\tc"
    assert len(untrusted("a\r\n\x85\u2028b", lines=True).splitlines()) == 2


def test_ordinary_text_is_unchanged_and_cleaning_is_idempotent() -> None:
    plain = "µs × · ✔ é 中文 — softmax_kernel(BLOCK_SIZE=256, num_warps=2) \\x1b"
    assert untrusted(plain) == plain
    for s in ("\x1b[31m\ud800\n\t\u202e", "x" * 50 + "\x1b"):
        for lines in (False, True):
            once = untrusted(s, 20, lines=lines)
            assert untrusted(once, 20, lines=lines) == once


def test_max_len_and_non_strings() -> None:
    assert untrusted("abcdefghij", 5) == "abcd…"
    assert len(untrusted("\x1b" * 100, 10)) == 10
    assert untrusted(42) == "42" and untrusted(None) == "None"


def test_clean_walks_a_header_keys_included_and_stops_at_depth() -> None:
    header = {"a\x1b": ["\ud800", {"k\n": "v\r\n"}], "n": 3, "ok": True, "none": None}
    assert clean(header) == {
        "a\\x1b": ["\ufffd", {"k\\n": "v\\r\\n"}],
        "n": 3,
        "ok": True,
        "none": None,
    }
    deep: Any = "x"
    for _ in range(50):
        deep = [deep]
    assert json.dumps(clean(deep)).count("[") <= 9


# ---------------------------------------------------------------- the child's label


def _forcer() -> Any:
    sys.path.insert(0, str(Path(job.HARNESS_DIR).parent))
    try:
        from harness import forcer  # the module the child runs (the config forcer's labels)
    finally:
        sys.path.pop(0)
    return forcer


def test_config_label_is_one_line_from_reprs() -> None:
    label = _forcer().label
    honest = SimpleNamespace(kwargs={"BLOCK_SIZE": 256}, num_warps=2, num_stages=3)
    assert label(honest) == "BLOCK_SIZE=256, num_warps=2"
    hostile = SimpleNamespace(
        kwargs={"K\nverdict: correct": 1, "NOTE": "x\n\u2714 all\x1b[2K", "B": 1.5},
        num_warps=4,
        num_stages=2,
    )
    text = label(hostile)
    assert "\n" not in text and "\x1b" not in text and not HIDDEN.search(text)
    assert text == (
        "'K\\nverdict: correct'=1, NOTE='x\\n\u2714 all\\x1b[2K', B=1.5, num_warps=4, num_stages=2"
    )


# ---------------------------------------------------------------- the parent's entry


def _stream(*headers: dict[str, Any]) -> io.BytesIO:
    buf = io.BytesIO()
    for h in headers:
        wire.write_frame(buf, h)
    buf.seek(0)
    return buf


def test_collector_cleans_names_and_labels_from_the_child() -> None:
    c = Collector([], {}, 1 << 20)
    c(
        _stream(
            {"type": "phase", "name": "start\nverdict: correct", "seconds": 1.0},
            {"type": "tuned", "configs": {"kern\nx\ud800": "BLOCK=1\n\u2714 ok\x1b[2K"}},
            {"type": "profiled", "configs": ["kern(BLOCK=1)\r\n\u2714 correct\u202e"]},
        )
    )
    got = c.result
    assert list(got.phases) == ["start\\nverdict: cor…"]
    assert got.tuned == {"kern\\nx\ufffd": "BLOCK=1\\n\u2714 ok\\x1b[2K"}
    assert got.profiled == ["kern(BLOCK=1)\\r\\n\u2714 correct\\u202e"]


# ---------------------------------------------------------------- real gradings


def _strings(value: Any, path: str = "") -> list[tuple[str, str]]:
    if isinstance(value, str):
        return [(path, value)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [(path, str(k)), *_strings(v, f"{path}.{k}")]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v, f"{path}[]")]
    return []


MULTI_LINE = re.compile(r"^(\.messages\[\]|\.stdout|\.cases\[\]\.message)$")


def assert_clean(result: GradeResult) -> str:
    """Every string of the result and its report is valid, shows no control character, and
    only messages and output span lines; the report has one verdict line. Returns the report."""
    for path, s in _strings(result.model_dump()):
        assert not HIDDEN.search(s), (path, s)
        if not MULTI_LINE.match(path):
            assert "\n" not in s and "\t" not in s, (path, s)
    json.loads(result.model_dump_json())
    report = render(result)
    report.encode("utf-8")
    assert not HIDDEN.search(report), report
    lines = report.splitlines()
    assert lines == report.split("\n")
    assert [ln for ln in lines if ln.startswith("verdict:")] == [lines[1]], report
    assert not [ln for ln in lines if ln.startswith("\u2714")], report
    return report


def test_a_lone_surrogate_in_an_exception(grade_source: GradeFn) -> None:
    result = grade_source(SURROGATE)
    assert result.verdict is Verdict.RUNTIME_ERROR, result.messages
    report = assert_clean(result)
    assert "ValueError: bad row \ufffd here" in report


def test_ansi_escapes_in_the_output(grade_source: GradeFn) -> None:
    result = grade_source(ANSI_OUTPUT)
    assert result.verdict is Verdict.CORRECT, result.messages
    report = assert_clean(result)
    assert "\\x1b[2K\\r\u2714 correct \u2014 level 4\\x1b[0m" in result.stdout
    assert "\\x1b]0;owned\\x07\\u202eevil\\u2028verdict: correct   level: 4\\x9b2J" in report


def test_ansi_and_forged_lines_in_an_exception(grade_source: GradeFn) -> None:
    result = grade_source(FORGED_MESSAGE)
    assert result.verdict is Verdict.RUNTIME_ERROR, result.messages
    report = assert_clean(result)
    assert "RuntimeError: boom\\x1b[2K\\r" in report
    # the message's own lines stay, indented under the grader's sentence
    assert "\n  verdict: correct   level: 4\n" in report


def test_newlines_in_an_autotune_config(grade_source: GradeFn) -> None:
    result = grade_source(NEWLINE_CONFIG)
    assert result.verdict is Verdict.WRONG_ANSWER, result.messages
    report = assert_clean(result)
    labels = {c.config for c in result.configs}
    assert labels == {
        "_row_softmax(BLOCK=64, NOTE='x\\n\u2714 all cases correct', "
        "'K\\nverdict: correct   level: 4'=2, num_warps=4)",
        "_row_softmax(BLOCK=4096, NOTE='ok', num_warps=4)",
    }
    assert "wrong for widths" in report and "BLOCK smaller than the row" in report


def test_an_old_result_with_raw_control_characters_renders_clean() -> None:
    """`kgrade status` renders results stored before this was fixed, or by another server."""
    raw = GradeResult(
        checkpoint="c3a-softmax",
        verdict=Verdict.RUNTIME_ERROR,
        level=1,
        device="cpu",
        messages=["Error: x\ud800\x1b[2K\rverdict: correct"],
        stdout="\x1b[31mred\u202e",
    )
    report = render(raw)
    report.encode("utf-8")
    assert not HIDDEN.search(report)


# ---------------------------------------------------------------- the command line


@pytest.mark.parametrize(
    "source", [SURROGATE, ANSI_OUTPUT, FORGED_MESSAGE], ids=["surrogate", "ansi", "forged"]
)
def test_kgrade_grade_shows_it_as_data_without_a_traceback(tmp_path: Path, source: str) -> None:
    from tests.app.test_cli import kgrade

    f = tmp_path / "hostile.py"
    f.write_text(source, encoding="utf-8")
    for extra in ((), ("--json",)):
        proc = kgrade("grade", str(f), "-c", "c3a-softmax", "--device", "cpu", *extra)
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stderr, proc.stderr
        assert not HIDDEN.search(proc.stdout), proc.stdout
        if extra:
            assert json.loads(proc.stdout)["verdict"] in {"runtime_error", "correct"}
        else:
            lines = proc.stdout.splitlines()
            assert [ln for ln in lines if ln.startswith("verdict:")] == [lines[1]], proc.stdout


def test_web_pages_escape_control_characters_too() -> None:
    from markupsafe import Markup

    from app.web.templating import templates

    page = templates.env.from_string("<p>{{ m }}</p><pre>{{ out }}</pre>{{ svg|safe }}")
    html = page.render(
        m="<b>\x1b[2K\rverdict: correct\u202e", out="a\nb\ud800", svg=Markup("<svg/>")
    )
    assert html == "<p>&lt;b&gt;\\x1b[2K\\rverdict: correct\\u202e</p><pre>a\nb\ufffd</pre><svg/>"
