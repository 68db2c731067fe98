"""The pages in a real browser (Debian's Chromium, driven by Playwright) against the real
service: PostgreSQL, Redis, a uvicorn server and a Celery worker. Screenshots land in
docs/screenshots/ for the README."""

from __future__ import annotations

import csv
import io
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.cli.host import worker_argv

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SOFTMAX = ROOT / "reference_kernels" / "c3a_softmax"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def live(service_env: dict[str, str], tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    env = {**os.environ, **service_env}
    log = (tmp_path / "server.log").open("wb")
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        ),
        subprocess.Popen(
            worker_argv(["precheck"], beat=False),
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        ),
    ]
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/health", timeout=2).json().get("workers"):
                break
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.5)
    else:
        raise AssertionError((tmp_path / "server.log").read_text()[-2000:])
    yield url
    for p in procs:
        os.killpg(p.pid, signal.SIGTERM)
        p.wait(timeout=30)


@pytest.fixture
def browser() -> Iterator[object]:
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
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield b
        b.close()


# What Chromium said about the Content Security Policy (enforced on every page: issue 32)
CSP_SAID: list[str] = []


def _sign_in(browser, url: str, token: str):  # type: ignore[no-untyped-def]
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.on(
        "console",
        lambda m: CSP_SAID.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.goto(f"{url}/signin")
    page.fill("#token", token)
    page.click("button[type=submit]")
    page.wait_for_url(f"{url}/")  # the home page
    return page


def _submit(page, url: str, source: str) -> str:  # type: ignore[no-untyped-def]
    page.goto(f"{url}/submit?checkpoint=c3a-softmax")
    page.fill("#source", source)
    page.click("text=Submit for grading")
    page.wait_for_url(f"{url}/submissions/*")
    page.wait_for_selector("[data-verdict]", timeout=120_000)  # live, without reloading
    return str(page.url)


def test_students_and_an_instructor_in_a_browser(live: str, browser, make_user) -> None:  # type: ignore[no-untyped-def]
    SHOTS.mkdir(parents=True, exist_ok=True)
    tokens = {
        n: make_user(n, r)["Authorization"].split()[1]
        for n, r in (("ann", "student"), ("bob", "student"), ("prof", "instructor"))
    }

    ann = _sign_in(browser, live, tokens["ann"])
    ann.goto(f"{live}/submit")
    ann.screenshot(path=str(SHOTS / "submit.png"), full_page=False)
    good = _submit(ann, live, (SOFTMAX / "reference.py").read_text())
    assert ann.inner_text("[data-verdict]") == "correct"
    assert "level 2" in ann.inner_text(".level")
    assert ann.locator("pre.source span").count() > 10  # the source, with line numbers
    ann.screenshot(path=str(SHOTS / "submission-correct.png"), full_page=False)
    bad = _submit(ann, live, (SOFTMAX / "solutions" / "wrong" / "lab_a1_autotune.py").read_text())
    assert ann.inner_text("[data-verdict]") == "wrong_answer"
    assert "BLOCK_SIZE=256" in ann.inner_text("#result")
    ann.screenshot(path=str(SHOTS / "submission-wrong.png"), full_page=False)
    ann.goto(f"{live}/history")
    assert ann.locator("table tr").count() == 3
    ann.screenshot(path=str(SHOTS / "history.png"), full_page=False)

    bob = _sign_in(browser, live, tokens["bob"])
    bob.goto(good)
    assert "no submission" in bob.inner_text(".error")
    assert "softmax_kernel" not in bob.content()

    prof = _sign_in(browser, live, tokens["prof"])
    prof.goto(f"{live}/leaderboard/c3a-softmax")
    board = prof.inner_text("main")
    assert "ann" in board and "cpu" in board
    prof.screenshot(path=str(SHOTS / "leaderboard.png"), full_page=False)
    with prof.expect_download() as dl:
        prof.click("#export-checkpoint")
    rows = list(csv.DictReader(io.StringIO(Path(dl.value.path()).read_text())))
    ann_row = next(r for r in rows if r["student"] == "ann")
    assert ann_row["best_level"] == "2"
    assert CSP_SAID == []  # the pages, htmx's live updates included, broke no rule
    assert bad != good


def test_sign_in_refuses_a_bad_token_and_pages_need_a_session(live: str, browser) -> None:  # type: ignore[no-untyped-def]
    page = browser.new_page()
    page.goto(f"{live}/history")
    assert page.url.endswith("/signin")
    page.fill("#token", "not-a-token")
    page.click("button[type=submit]")
    assert "not valid" in page.inner_text(".error")
    page.screenshot(path=str(SHOTS / "signin.png"))


def test_an_admin_adds_validates_and_closes_a_checkpoint(
    live: str, browser, make_user, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    va = ROOT / "reference_kernels" / "c3a_vector_add"
    folder = tmp_path / "upload"
    shutil.copytree(va, folder)
    toml = folder / "checkpoint.toml"
    toml.write_text(toml.read_text().replace('id = "c3a-vector-add"', 'id = "lab-add"'))
    admin = _sign_in(browser, live, make_user("root", "admin")["Authorization"].split()[1])
    admin.goto(f"{live}/admin/checkpoints")
    admin.set_input_files("input[name=definition]", str(toml))
    admin.set_input_files("input[name=problem]", str(folder / "problem.py"))
    admin.set_input_files("input[name=reference]", str(folder / "reference.py"))
    admin.set_input_files("input[name=starter]", str(folder / "starter.py"))
    admin.set_input_files(
        "input[name=wrong]", [str(p) for p in sorted((folder / "solutions" / "wrong").glob("*.py"))]
    )
    # The form posts and the validation's page comes back at once; the worker runs the six
    # gradings and the page shows each check as it finishes, then the outcome, without a reload.
    admin.click("text=Validate and add", timeout=180_000)
    admin.wait_for_url(f"{live}/admin/checkpoints/validations/*")
    admin.wait_for_selector(
        "#validation[data-validation=running], #validation[data-validation=done]", timeout=180_000
    )
    admin.wait_for_selector("text=lab-add: valid, opened", timeout=180_000)
    admin.screenshot(path=str(SHOTS / "admin-checkpoints.png"), full_page=False)
    row = admin.locator("tr", has_text="lab-add")
    assert "open" in row.inner_text()
    row.locator("button", has_text="Close").click()
    admin.wait_for_url(f"{live}/admin/checkpoints")
    assert "closed" in admin.locator("tr", has_text="lab-add").inner_text()
    student = _sign_in(browser, live, make_user("ann")["Authorization"].split()[1])
    student.goto(f"{live}/admin/checkpoints")
    assert "managed by admins" in student.inner_text(".error")
