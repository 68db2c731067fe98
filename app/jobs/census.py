"""What the broker holds: every message of some queues, waiting in line or delivered to a
worker and not yet acknowledged, as (task, first argument) pairs. The reconciler sends a
queued row's message again only when the broker provably lost it (it is in none of these), so
that work only waiting in line behind a backlog is neither sent twice nor counted lost.

Redis (kombu): a queue is a list; a delivered, unacknowledged message is a value of the
`unacked` hash. The embedded SQLite broker (kombu's SQLAlchemy transport): a message stays in
`kombu_message` until it is acknowledged, delivered or not. Anything that cannot be read is
`None`: not known, so nothing queued is taken for lost."""

from __future__ import annotations

import base64
import json
import logging
from typing import Any

from app.jobs.celery_app import celery_app

log = logging.getLogger(__name__)
Held = set[tuple[str, int]]
UNACKED = "unacked"  # kombu's Redis transport's hash of delivered, unacknowledged messages


def _task_and_id(payload: str | bytes) -> tuple[str, int] | None:
    """(task, first argument) of one serialized kombu message (Celery's protocol 2)."""
    try:
        message = json.loads(payload)
        if isinstance(message, list):  # the `unacked` hash: [message, exchange, routing key]
            message = message[0]
        task = message["headers"]["task"]
        body: Any = message["body"]
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args = json.loads(body)[0]
        return str(task), int(args[0])
    except (ValueError, KeyError, IndexError, TypeError):
        return None  # not one of ours (or not a task message): nothing to match


def _redis(url: str, queues: list[str]) -> list[bytes | str]:
    import redis

    r = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=30)
    out: list[bytes | str] = []
    for q in queues:
        out += r.lrange(q, 0, -1)
    out += r.hvals(UNACKED)
    return out


def _sqlite(url: str, queues: list[str]) -> list[str]:
    from sqlalchemy import bindparam, create_engine, inspect, text

    engine = create_engine(url.removeprefix("sqla+"))
    try:
        if not inspect(engine).has_table("kombu_message"):
            return []  # nothing was ever sent
        q = text(
            "SELECT m.payload FROM kombu_message m JOIN kombu_queue q ON q.id = m.queue_id "
            "WHERE q.name IN :names"
        ).bindparams(bindparam("names", expanding=True))
        with engine.connect() as conn:
            return [row[0] for row in conn.execute(q, {"names": queues})]
    finally:
        engine.dispose()


def held(queues: list[str]) -> Held | None:
    """The messages the broker holds in `queues` (and delivered, unacknowledged ones of any
    queue), or None where it cannot be read."""
    url = str(celery_app().conf.broker_url)
    try:
        if url.startswith(("redis://", "rediss://")):
            payloads: list[Any] = _redis(url, queues)
        elif url.startswith("sqla+"):
            payloads = _sqlite(url, queues)
        else:
            return None
    except Exception:
        log.exception("the broker's queues could not be read; nothing queued is taken for lost")
        return None
    return {found for p in payloads if (found := _task_and_id(p)) is not None}
