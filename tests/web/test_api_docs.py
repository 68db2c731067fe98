"""/docs (Swagger UI) and /redoc render in Chromium with the network cut off: every host but
kgrade's is unresolvable (--host-resolver-rules) and any request elsewhere is refused and
recorded; both pages show the API and the bearer security scheme."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from tests.service.test_cli_course import server  # noqa: F401 (a fixture: uvicorn alone)
from tests.web.test_pages import CHROMIUM, SHOTS
from tests.web.test_pages import pytestmark as _marks

pytestmark = _marks  # slow; skipped without Chromium


@pytest.fixture
def offline() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                # no name resolves but kgrade's own address: a CDN cannot be reached
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            ],
        )
        yield b
        b.close()


def _page(browser, base: str, elsewhere: list[str]):  # type: ignore[no-untyped-def]
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    host = urlsplit(base).netloc

    def gate(route) -> None:  # type: ignore[no-untyped-def]
        url = route.request.url
        if urlsplit(url).netloc == host or url.startswith("data:"):
            route.continue_()
        else:
            elsewhere.append(url)
            route.abort()

    page.route("**/*", gate)
    return page


def test_swagger_ui_renders_offline_with_an_authorize_button(server: str, offline) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    elsewhere: list[str] = []
    page = _page(offline, server, elsewhere)
    page.goto(f"{server}/docs")
    page.wait_for_selector(".swagger-ui .info .title", timeout=30_000)
    assert "kgrade" in page.inner_text(".swagger-ui .info .title")
    assert "Submit a kernel for grading" in page.inner_text(".swagger-ui")
    page.click("button.authorize")
    dialog = page.wait_for_selector(".auth-container", timeout=10_000)
    text = dialog.inner_text()
    assert "token" in text and "Bearer" in text
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "api-docs.png"), full_page=False)
    assert elsewhere == []


def test_redoc_renders_offline_with_the_security_scheme(server: str, offline) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    elsewhere: list[str] = []
    page = _page(offline, server, elsewhere)
    page.goto(f"{server}/redoc")
    page.wait_for_selector("h1", timeout=30_000)
    page.wait_for_selector('h2:has-text("Submit a kernel for grading")', timeout=30_000)
    body = page.inner_text("body").lower()  # redoc's headings are upper-cased by its CSS
    assert "kgrade" in body and "authorizations:\ntoken" in body
    assert elsewhere == []
