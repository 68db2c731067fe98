"""Security headers on every response (pages, the API, static files): a Content Security
Policy (scripts only from this site, no framing: `frame-ancestors 'none'`, forms posted only
here), `X-Frame-Options: DENY` for older browsers, `X-Content-Type-Options: nosniff` and a
`Referrer-Policy`. A response that set its own policy keeps it (/docs: its inline start-up
script, by nonce)."""

from __future__ import annotations

from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
# Enforced on every response (issue 32): the pages have no inline script or handler, htmx is
# served from /static, and the browser tests (tests/web/) see no violation. /docs and /redoc
# send their own, with a nonce for their inline start-up script.
HEADERS = {
    b"x-content-type-options": b"nosniff",
    b"x-frame-options": b"DENY",
    b"referrer-policy": b"same-origin",
}


def policy(nonce: str | None = None, workers: bool = False) -> str:
    """The policy, with an inline script allowed by `nonce` and workers from blob: URLs."""
    out = POLICY
    if nonce:
        out = out.replace("script-src 'self'", f"script-src 'self' 'nonce-{nonce}'")
    if workers:
        out += "; worker-src 'self' blob:"
    return out


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers: list[Any] = list(message.get("headers", []))
                have = {k.lower() for k, _ in headers}
                if b"content-security-policy" not in have:
                    headers.append((b"content-security-policy", POLICY.encode()))
                headers += [(k, v) for k, v in HEADERS.items() if k not in have]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)
