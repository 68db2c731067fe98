"""The production API's listening socket (`kgrade api --workers N`, docker-compose's api).

uvicorn binds the socket it hands to its --workers processes with proto 0; accepted sockets
inherit that, asyncio then leaves Nagle's algorithm on, and every keep-alive request after the
first waits for the client's delayed ACK (~40 ms on Linux; uvicorn issue #3149)."""

from __future__ import annotations

import asyncio
import json
import re
import socket
from pathlib import Path

from app.cli.api_cmd import api_config

ROOT = Path(__file__).resolve().parents[2]


def _accepted_nodelay(listener: socket.socket) -> int:
    """TCP_NODELAY of the server side of a connection accepted by asyncio on listener."""
    seen: list[int] = []

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            sock = transport.get_extra_info("socket")
            seen.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    async def run() -> None:
        server = await asyncio.get_running_loop().create_server(Probe, sock=listener)
        port = listener.getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        while not seen:
            await asyncio.sleep(0.01)
        writer.close()
        server.close()
        await server.wait_closed()

    asyncio.run(asyncio.wait_for(run(), 10))
    return seen[0]


def test_the_workers_listener_gives_connections_tcp_nodelay() -> None:
    config = api_config(host="127.0.0.1", port=0, workers=2)
    listener = config.bind_socket()
    assert listener.proto == socket.IPPROTO_TCP
    assert _accepted_nodelay(listener) != 0


def test_docker_compose_serves_the_api_with_kgrade_api() -> None:
    compose = (ROOT / "docker-compose.yml").read_text()
    api = re.search(r"(?ms)^  api:\n.*?command: (\[.*?\])\n", compose)
    assert api is not None
    assert json.loads(api.group(1))[:2] == ["kgrade", "api"]
