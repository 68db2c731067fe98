"""The explanation's reading and re-check in a real browser (Chromium, the live service of
tests/web/test_pages.py): a misread claim is corrected in the claims block, re-checked
against the same stored measurements (the recorded H200 grading), and the check changes."""

from __future__ import annotations

from tests.grader.recorded import grading
from tests.service.conftest import stored
from tests.web.test_pages import _sign_in, browser, live, pytestmark  # noqa: F401

MISREAD = (
    "Softmax is memory-bound, so only the bytes moved matter. My fused kernel moves 244 MB "
    "of DRAM traffic, 4.16× less than the naive version. It is 1.62× faster than torch. Its "
    "reuse is 92 %. I chose softmax rather than a GEMM because cuBLAS wins GEMM on SM_120."
)


def test_a_student_corrects_a_misread_claim_and_sees_the_check_change(  # type: ignore[no-untyped-def]
    live: str,  # noqa: F811  (the fixture imported above)
    browser,  # noqa: F811
    make_user,
) -> None:
    from grader import checkpoints
    from grader.judge import explanation

    token = make_user("ana")["Authorization"].split()[1]
    result = grading().model_copy(deep=True)
    rubric = checkpoints.get("c3a-softmax").definition.rubric
    result.explanation = explanation.check(MISREAD, rubric, result.citable)
    result.level = 2
    sid = stored("ana", result.model_dump(mode="json"), explanation=MISREAD)
    page = _sign_in(browser, live, token)
    page.goto(f"{live}/submissions/{sid}")
    table = page.locator("#claims-read")
    assert "not read" in table.inner_text()
    assert "Explanation check: not backed" in page.locator("#reading").inner_text()
    text = page.locator("#recheck-text").input_value()
    line = next(x for x in text.splitlines() if x.startswith("# WHAT, WHOSE: 92 %"))
    page.fill("#recheck-text", text.replace(line, "occupancy, mine: 92 %"))
    page.click("#recheck-button")
    page.wait_for_selector("#would-level")
    assert page.locator("#would-level").get_attribute("data-level") == "3"
    assert "Explanation check: backed" in page.locator("#reading").inner_text()
    page.fill("#recheck-text", text.replace(line, "l2 hit rate, mine: 92 %"))
    page.click("#recheck-button")
    page.wait_for_selector("#would-level[data-level='2']")
    assert "50 %" in page.locator("#reading").inner_text()  # the measured L2 hit rate
