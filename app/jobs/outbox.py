"""Tasks are sent after commit, by one mechanism. Domain code calls `enqueue(session, ...)`
where it writes the row a task names; the message waits in the session and is sent by the
session's `after_commit` hook, so that no worker can read a row that is not committed yet.
A rollback drops it. A send that fails is logged, not raised: the row is committed, and the
reconciler sends its message again (a row queued for longer than a lease whose message the
broker holds nowhere: app/jobs/census.py)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

from app.jobs.celery_app import celery_app

log = logging.getLogger(__name__)
_KEY = "kgrade.outbox"


@dataclass(frozen=True)
class Message:
    task: str
    args: tuple[Any, ...]
    queue: str


def enqueue(session: Session, task: str, *args: Any, queue: str) -> None:
    """Send `task(*args)` to `queue` once `session`'s transaction commits (never if it rolls
    back)."""
    session.info.setdefault(_KEY, []).append(Message(task, args, queue))


def pending(session: Session) -> list[Message]:
    """The messages that the session's next commit will send."""
    return list(session.info.get(_KEY, []))


def send(message: Message) -> bool:
    try:
        celery_app().send_task(message.task, args=list(message.args), queue=message.queue)
    except Exception:  # the row is committed: the reconciler sends it again
        log.exception("%s%s not sent; the reconciler will send it", message.task, message.args)
        return False
    return True


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    for message in session.info.pop(_KEY, []):
        send(message)


@event.listens_for(Session, "after_transaction_end")
def _after_end(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:  # the outermost ended without a commit (rolled back, closed)
        session.info.pop(_KEY, None)
