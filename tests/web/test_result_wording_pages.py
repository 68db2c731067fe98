"""Issue 31's result page in a real browser (Chromium): the program's output wraps its long
lines inside the page (it was clipped on the right) and names none of the server's folders;
a hidden case before the due time shows no "None"."""

from __future__ import annotations

import sys

import pytest

from tests.service.conftest import stored
from tests.service.test_cli_course import server  # noqa: F401 (a fixture: uvicorn alone)
from tests.service.test_deadlines import _hidden_result
from tests.web.test_pages import _sign_in, browser  # noqa: F401

pytestmark = [pytest.mark.slow]


def test_the_programs_output_wraps_and_a_hidden_case_shows_no_none(
    server: str,  # noqa: F811
    browser,  # noqa: F811
    make_user,
) -> None:  # type: ignore[no-untyped-def]
    token = make_user("ann")["Authorization"].split()[1]
    result = _hidden_result()
    result["stdout"] = "<site-packages>/triton/runtime/interpreter.py:599: RuntimeWarning: " + (
        "invalid value encountered in subtract " * 12
    )
    result["cases"][1]["failure"] = "values"  # type: ignore[index]
    sid = stored("ann", result)
    page = _sign_in(browser, server, token)
    page.set_viewport_size({"width": 900, "height": 900})
    page.goto(f"{server}/submissions/{sid}")
    text = page.inner_text("#result")
    assert "None" not in text and "hidden until the due time" in text
    assert "Failed: values outside the tolerance" in text
    # no deadline: the output is withheld; an instructor's view shows it as stored
    prof = _sign_in(browser, server, make_user("prof", "instructor")["Authorization"].split()[1])
    prof.set_viewport_size({"width": 900, "height": 900})
    prof.goto(f"{server}/submissions/{sid}")
    out = prof.locator("#program-output")
    assert "RuntimeWarning" in out.inner_text() and sys.prefix not in out.inner_text()
    sizes = out.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert sizes[0] <= sizes[1], sizes  # wrapped, nothing hidden past the right edge
