"""GET /metrics for Prometheus. Access: with KGRADE_METRICS_TOKEN set, only a scrape that sends
it as a bearer token; without it, only a client on this host's loopback (docs/DEPLOY.md)."""

from __future__ import annotations

import hmac
import ipaddress

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.deps import SessionDep, SettingsDep
from app.errors import ApiError
from app.metrics import service

router = APIRouter(include_in_schema=False)


def _loopback(host: str | None) -> bool:
    try:
        return host is not None and ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _proxied(request: Request) -> bool:
    """Sent on by a proxy (it names a client): a proxy on this host is not this host."""
    return any(h in request.headers for h in ("x-forwarded-for", "forwarded", "x-real-ip"))


@router.get("/metrics")
def metrics(request: Request, session: SessionDep, s: SettingsDep) -> Response:
    if s.metrics_token:
        sent = request.headers.get("authorization", "")
        expected = f"Bearer {s.metrics_token}"
        if not hmac.compare_digest(sent.encode(), expected.encode()):
            raise ApiError(401, "/metrics needs the metrics token", {"WWW-Authenticate": "Bearer"})
    elif not _loopback(request.client.host if request.client else None) or _proxied(request):
        raise ApiError(403, "/metrics answers this host only (or set KGRADE_METRICS_TOKEN)")
    body, content_type = service.exposition(session, s)
    return Response(body, media_type=content_type)
