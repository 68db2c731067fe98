"""The server's client: one call to the API (KGRADE_URL, KGRADE_TOKEN), an HTTP error said as a
usage error, a poll that outlasts an API restart. Every command that talks to the server
imports it; it imports no command."""

from __future__ import annotations

import sys
import time
from typing import Any

import httpx

from app.cli.common import UsageError
from app.settings import get_settings


def call(method: str, path: str, **kw: Any) -> httpx.Response:
    s = get_settings()
    if not s.token:
        raise UsageError("set KGRADE_TOKEN to your token (make one on your account page, /account)")
    try:
        r = httpx.request(
            method,
            s.url.rstrip("/") + path,
            timeout=30,
            headers={"Authorization": f"Bearer {s.token}"},
            **kw,
        )
    except httpx.HTTPError as exc:
        raise UsageError(f"cannot reach {s.url} ({exc}); is the server running?") from exc
    if r.status_code >= 400:
        try:
            message = r.json().get("error", r.text)
        except ValueError:
            message = r.text
        raise UsageError(f"{message} (HTTP {r.status_code})")
    return r


def poll(path: str, patience: float = 120.0) -> dict[str, Any]:
    """A GET that `--wait` repeats: a refused or dropped connection (the API restarting) is
    tried again for `patience` seconds before it is given up, said on stderr meanwhile."""
    give_up = time.monotonic() + patience
    while True:
        try:
            return dict(call("GET", path).json())
        except UsageError as exc:
            if not isinstance(exc.__cause__, httpx.TransportError) or time.monotonic() > give_up:
                raise
            print(
                f"\r(the server did not answer; trying again) {exc}"[:72], end="", file=sys.stderr
            )
            time.sleep(2.0)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
