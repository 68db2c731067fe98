"""The embedded broker's queue lengths, as /metrics reads them: kombu's SQLAlchemy transport on
a SQLite file of its own, messages put and taken by kombu itself."""

from __future__ import annotations

from pathlib import Path

from kombu import Connection

from app.metrics.repository import embedded_queue_lengths


def test_waiting_messages_are_counted_per_queue_and_taken_ones_are_not(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'broker.db'}"
    assert embedded_queue_lengths(url) == {}  # no broker tables yet: nothing waits
    with Connection(f"sqla+{url}") as conn:
        pre, gpu = conn.SimpleQueue("precheck"), conn.SimpleQueue("gpu.h200")
        for i in range(3):
            pre.put({"n": i})
        gpu.put({"n": 0})
        assert embedded_queue_lengths(url) == {"precheck": 3, "gpu.h200": 1}
        channel = conn.default_channel
        channel.basic_get("precheck").ack()  # one message, as a worker takes it
        taken = channel.basic_get("gpu.h200")  # taken, not yet acknowledged: not waiting
        assert embedded_queue_lengths(url) == {"precheck": 2, "gpu.h200": 0}
        taken.ack()
