"""`kgrade api`: the API alone, in N processes, as deployed (migrations and workers run
elsewhere: docker-compose's migrate and worker services)."""

from __future__ import annotations

import argparse
import os
import socket

import uvicorn
from uvicorn.supervisors import Multiprocess

from app.settings import get_settings


class NodelayConfig(uvicorn.Config):
    """uvicorn's Config with a listener that keeps TCP_NODELAY on accepted connections.

    With --workers N uvicorn binds the socket itself with proto 0 and hands it to its worker
    processes; accepted sockets inherit proto 0, asyncio then leaves Nagle's algorithm on, and
    every keep-alive request after the first waits for the client's delayed ACK (uvicorn
    issue #3149; what it cost: docs/PERFORMANCE.md, section 1). The one-process path
    (`kgrade serve`) is not affected."""

    def bind_socket(self) -> socket.socket:
        sock = super().bind_socket()
        if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.proto == 0:
            family, kind = sock.family, sock.type
            return socket.socket(family, kind, socket.IPPROTO_TCP, fileno=sock.detach())
        return sock


def api_config(host: str, port: int, workers: int) -> NodelayConfig:
    """`KGRADE_TRUSTED_PROXIES` alone decides whose forwarded headers count: uvicorn's own
    default believes any peer on 127.0.0.1 (or $FORWARDED_ALLOW_IPS), so that anything local,
    a proxy or not, could name any client address and dodge the per-address limits."""
    trusted = get_settings().trusted_proxies
    return NodelayConfig(
        "app.main:app",
        host=host,
        port=port,
        workers=workers,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=",".join(trusted) if trusted else "",
    )


def cmd_api(args: argparse.Namespace) -> int:
    s = get_settings()
    workers = args.workers or os.cpu_count() or 1
    config = api_config(args.host or s.host, args.port or s.port, workers)
    if workers > 1:
        Multiprocess(config, sockets=[config.bind_socket()]).run()
    else:
        uvicorn.Server(config).run()
    return 0
