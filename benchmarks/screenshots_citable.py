"""Screenshots of a GPU grading's result page for the README, without a GPU:
docs/screenshots/submission-cite.png ("What you can cite" next to the explanation) and
docs/screenshots/submission-claims.png (the explanation checked claim by claim).

The graded results are built the way tests/grader/test_citable.py builds them (its helpers,
imported: a real ncu CSV recorded on an H200, a benchmark and the explanation check), stored as
two submissions' results in a throwaway embedded database (KGRADE_HOME in a temp folder:
SQLite, as `kgrade serve` runs by default), then the app is started on 127.0.0.1 and the owner's
pages are opened in Debian's Chromium (headless, through Playwright).

    .venv/bin/python benchmarks/screenshots_citable.py
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import FloatRect, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.models import GradeResult  # noqa: E402
from tests.grader.test_citable import _fact, _honest, _level, _result  # noqa: E402
from tests.web.test_pages import CHROMIUM, SHOTS, _free_port, _sign_in  # noqa: E402

SOURCE = ROOT / "reference_kernels" / "c3a_softmax" / "reference.py"
WIDTH = 1200


def _claims(result: GradeResult) -> str:
    """The fused kernel's DRAM traffic misquoted (144 MB against 111 MB measured: off by 30 %,
    as in test_the_traffic_figure_off_by_30_percent_fails_once); the naive version's traffic
    and the speedup over torch quoted from the table, so that the misquote is the one reason."""
    naive = _fact(result, "traffic", "naive", "read + written")
    speed = _fact(result, "speedup", "submission", versus="torch")
    return (
        "Softmax is memory-bound, so only the bytes moved matter. My fused kernel reads each "
        f"row once and writes it once: it moves 144 MB of DRAM traffic against {naive} for "
        f"the naive version. It is {speed} faster than torch.softmax. I chose a memory-bound "
        "op rather than GEMM because cuBLAS wins dense GEMM on SM_120."
    )


def _graded(text: str) -> GradeResult:
    """A GPU grading of `text`, with the level and messages the pipeline would give it."""
    from grader import checkpoints
    from grader.judge import rubric

    result = _result()
    result.level, reasons = _level(result, text)
    result.messages = reasons or [rubric.level3_message(checkpoints.get("c3a-softmax"))]
    return result


def _store(home: Path) -> tuple[str, list[int]]:
    """Migrate a fresh embedded database in `home`; add ann and her two graded submissions."""
    os.environ["KGRADE_HOME"] = str(home)
    for k in ("KGRADE_DATABASE_URL", "KGRADE_REDIS_URL"):
        os.environ.pop(k, None)
    from app.cli.service_cmd import migrate
    from app.db import transaction
    from app.models import Stage, Status, Submission, now
    from app.settings import get_settings
    from app.submissions.lifecycle import summary_fields
    from app.users import service

    get_settings.cache_clear()
    migrate()
    honest_result = _result()
    honest = _honest(honest_result)
    ids = []
    with transaction() as session:
        user, token = service.add(session, "ann", "student")
        for text in (honest, _claims(honest_result)):
            sub = Submission(
                user_id=user.id,
                checkpoint="c3a-softmax",
                source=SOURCE.read_text(),
                explanation=text,
                status=Status.DONE,
                stage=Stage.DONE,
                finished_at=now(),
                **summary_fields(_graded(text)),
            )
            session.add(sub)
            session.flush()
            ids.append(sub.id)
    return token, ids


def _serve(home: Path, port: int) -> subprocess.Popen[bytes]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("KGRADE_DATABASE_URL", "KGRADE_REDIS_URL")
    }
    env["KGRADE_HOME"] = str(home)  # the embedded default: SQLite in home, no broker used
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "app.main:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        cwd=ROOT,
        env=env,
        stdout=(home / "server.log").open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/signin", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGTERM)
    raise SystemExit((home / "server.log").read_text()[-2000:])


def _shoot(page: Page, path: Path, top: str, bottom: str, pad: int = 16) -> None:
    """The page, full width, from `pad` px above the top of `top` to `pad` px below the
    bottom of `bottom` (selectors)."""
    a = page.locator(top).first.bounding_box()
    b = page.locator(bottom).last.bounding_box()
    assert a and b, (top, bottom)
    y0 = max(0, a["y"] - pad)
    clip: FloatRect = {"x": 0, "y": y0, "width": WIDTH, "height": b["y"] + b["height"] + 16 - y0}
    page.screenshot(path=str(path), full_page=True, clip=clip)
    print(f"{path.relative_to(ROOT)}: {WIDTH}×{round(clip['height'])}")


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="kgrade-shots-"))
    try:
        token, (backed, off) = _store(tmp / "home")
        port = _free_port()
        server = _serve(tmp / "home", port)
        url = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
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
                page = _sign_in(browser, url, token)
                page.set_viewport_size({"width": WIDTH, "height": 900})

                page.goto(f"{url}/submissions/{backed}")
                assert "What you can cite" in page.inner_text("#cite")
                assert "466 MB" in page.inner_text("table.citable")
                assert "memory-bound" in page.inner_text("pre.explanation")
                # #cite's own heading margin is its top padding
                _shoot(page, SHOTS / "submission-cite.png", "#cite", "#cite", pad=0)

                page.goto(f"{url}/submissions/{off}")
                claims = page.inner_text("table.claims")
                assert "144 MB" in claims and "111 MB" in claims, claims
                assert page.locator("table.claims td.fail").count() == 1
                assert page.locator("table.claims td.pass").count() == 2
                assert page.locator("table.claims ~ p.msg").count() == 1  # the misquote alone
                # the check's heading, table and reasons (the explanation is in the other shot)
                _shoot(
                    page,
                    SHOTS / "submission-claims.png",
                    "h2:has-text('Explanation check')",
                    "table.claims, table.claims ~ p.msg",
                )
                browser.close()
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
