"""The edited starter's round trip in a real browser (issue 31): a student fills in the starter
in the submit page's textarea, submits with a file that is refused, gets the form back with
exactly what they typed (no carriage return or literal `\\r` on a line, no line lost), and
sends it again unchanged: it is stored as typed and graded, with no SyntaxError. The form once
came back with a carriage return on every line of the starter."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.db import sessions
from app.models import Submission
from tests.web.test_pages import CHROMIUM, SOFTMAX, _sign_in, browser, live  # noqa: F401

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]

# The kernel's body, typed by keyboard where the starter says "Your code" (Enter in a textarea
# indents nothing: the spaces are typed).
BODY = [
    "mask = cols < n_cols",
    'x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf"))',
    "x = x.to(tl.float32)",
    "x = x - tl.max(x, axis=0)",
    "num = tl.exp(x)",
    "",
    "y = num / tl.sum(num, axis=0)",
    "tl.store(y_ptr + row * y_row_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)",
]


def test_an_edited_starter_comes_back_as_typed_and_grades(
    live: str,  # noqa: F811
    browser,  # noqa: F811
    make_user,
    tmp_path: Path,
) -> None:  # type: ignore[no-untyped-def]
    token = make_user("ann")["Authorization"].split()[1]
    page = _sign_in(browser, live, token)
    page.goto(f"{live}/submit?checkpoint=c3a-softmax")
    source = page.locator("#source")
    starter = (SOFTMAX / "starter.py").read_text()
    assert source.input_value() == starter
    # the student's edit: a line of their own at the top, the body after "# Your code: …"
    source.click()
    page.keyboard.press("Control+Home")
    page.keyboard.type("# ann's softmax\n")
    at = source.input_value().index("(masked).") + len("(masked).")
    source.evaluate(f"t => t.setSelectionRange({at}, {at})")
    for line in BODY:
        page.keyboard.press("Enter")
        page.keyboard.type(f"    {line}" if line else "")
    typed = source.input_value()
    assert typed.startswith("# ann's softmax\n") and BODY[-1] in typed
    assert len(typed.splitlines()) == len(starter.splitlines()) + 1 + len(BODY)

    refused = tmp_path / "kernel.py"
    refused.write_bytes(b"\xff\xfe not UTF-8\n")  # a file the form refuses
    page.set_input_files("#upload", str(refused))
    page.click("text=Submit for grading")
    page.wait_for_selector(".error")
    assert "not UTF-8" in page.inner_text(".error")
    assert "/submissions/" not in page.url  # the form came back
    back = page.locator("#source").input_value()
    assert "\r" not in back and "\\r" not in back
    assert back.splitlines() == typed.splitlines()
    assert back == typed

    page.click("text=Submit for grading")  # again, unchanged (the file input is empty now)
    page.wait_for_url(f"{live}/submissions/*")
    page.wait_for_selector("[data-verdict]", timeout=120_000)
    result = page.inner_text("#result")
    assert "SyntaxError" not in result
    assert page.inner_text("[data-verdict]") == "correct", result[:2000]
    with sessions()() as s:
        stored = s.query(Submission).one().source
    assert stored == typed
