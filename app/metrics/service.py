"""The metrics of one scrape, built from the database and the broker at that moment (a custom
prometheus_client collector: nothing is counted in this process, so a worker on another host
and an API process that restarted are counted alike).

The metrics, their labels and sources (docs/DEPLOY.md, "Metrics", says the same for operators):
- kgrade_queue_depth{queue}, gauge: messages waiting in the broker (Redis lists; the embedded
  broker's table); kgrade_broker_up, gauge: 1 if they could be read.
- kgrade_submissions{status, stage}, gauge: submissions now.
- kgrade_gradings_total{stage, verdict}, counter: stage results stored (grading_events
  `graded`); kgrade_stage_duration_seconds{stage}, histogram: the grader's own time for each.
- kgrade_retries_total, kgrade_lease_expiries_total, kgrade_messages_lost_total,
  kgrade_gave_up_total {stage}, counters: claims beyond the first attempt; running rows whose
  lease the reconciler found expired; queued rows it sent again; rows out of attempts.
- kgrade_workers_seen{queue}, kgrade_gpus_seen{gpu}, gauges: workers seen in the last minute
  (the workers table), per queue they serve and per GPU.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import redis
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector, CollectorRegistry
from sqlalchemy.orm import Session

from app.health.service import SEEN_WITHIN
from app.jobs.names import PRECHECK, gpu_queue
from app.metrics import repository
from app.models import now
from app.settings import Settings
from app.submissions import events

# Seconds: a precheck takes a few to a minute, a GPU grading with Nsight up to a few minutes.
BUCKETS = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0)
# kombu's Redis transport keeps a queue's messages of priority steps 3, 6 and 9 in lists of
# their own beside the queue's name (the default step, 0, is the name itself).
_PRIORITY_SUFFIXES = ("", "\x06\x163", "\x06\x166", "\x06\x169")
COUNTED = {
    events.RETRY: ("kgrade_retries", "Claims beyond a stage's first attempt."),
    events.LEASE_EXPIRED: (
        "kgrade_lease_expiries",
        "Running gradings whose lease the reconciler found expired (the worker died or hung).",
    ),
    events.MESSAGE_LOST: (
        "kgrade_messages_lost",
        "Queued gradings the reconciler sent again (queued for longer than a lease).",
    ),
    events.GAVE_UP: ("kgrade_gave_up", "Gradings out of attempts, ended as internal_error."),
}


def queue_names(s: Settings, worker_queues: list[str]) -> list[str]:
    names = {PRECHECK, *(gpu_queue(m) for m in s.gpu_models), *worker_queues}
    return sorted(n for n in names if n)


def queue_depths(s: Settings, names: list[str]) -> dict[str, int] | None:
    """Messages waiting per queue; None if the broker cannot be read."""
    try:
        if s.redis_url:
            r = redis.Redis.from_url(s.redis_url, socket_connect_timeout=2, socket_timeout=2)
            pipe = r.pipeline()
            for n in names:
                for suffix in _PRIORITY_SUFFIXES:
                    pipe.llen(n + suffix)
            lengths = pipe.execute()
            k = len(_PRIORITY_SUFFIXES)
            return {n: int(sum(lengths[i * k : (i + 1) * k])) for i, n in enumerate(names)}
        found = repository.embedded_queue_lengths(s.broker_url.removeprefix("sqla+"))
        return {n: found.get(n, 0) for n in names}
    except Exception:
        return None


def families(session: Session, s: Settings) -> list[Metric]:
    """Every metric of one scrape."""
    workers = repository.workers_since(session, now() - SEEN_WITHIN)
    per_queue = Counter(q for queues, _ in workers for q in queues.split(",") if q)
    out: list[Metric] = [*_queues(s, list(per_queue)), _submissions(session)]
    out += _events(session)
    out.append(_durations(session))
    seen = GaugeMetricFamily(
        "kgrade_workers_seen", "Workers seen in the last minute, per queue.", labels=["queue"]
    )
    for q, n in sorted(per_queue.items()):
        seen.add_metric([q], n)
    gpus = GaugeMetricFamily(
        "kgrade_gpus_seen", "GPU workers seen in the last minute, per GPU.", labels=["gpu"]
    )
    for gpu, n in sorted(Counter(g for _, g in workers if g).items()):
        gpus.add_metric([gpu], n)
    return [*out, seen, gpus]


def _queues(s: Settings, worker_queues: list[str]) -> list[Metric]:
    depths = queue_depths(s, queue_names(s, worker_queues))
    up = GaugeMetricFamily("kgrade_broker_up", "1 if the broker's queue lengths could be read.")
    up.add_metric([], 0 if depths is None else 1)
    depth = GaugeMetricFamily(
        "kgrade_queue_depth", "Messages waiting in the broker, per queue.", labels=["queue"]
    )
    for q, n in sorted((depths or {}).items()):
        depth.add_metric([q], n)
    return [up, depth]


def _submissions(session: Session) -> Metric:
    g = GaugeMetricFamily(
        "kgrade_submissions", "Submissions now, by status and stage.", labels=["status", "stage"]
    )
    for status, stage, n in sorted(repository.submissions_by_state(session)):
        g.add_metric([status, stage], n)
    return g


def _events(session: Session) -> list[Metric]:
    graded = CounterMetricFamily(
        "kgrade_gradings",
        "Stage results stored, by stage and verdict.",
        labels=["stage", "verdict"],
    )
    others = {
        kind: CounterMetricFamily(name, doc, labels=["stage"])
        for kind, (name, doc) in COUNTED.items()
    }
    for kind, stage, verdict, n in sorted(repository.event_counts(session), key=_key):
        if kind == events.GRADED:
            graded.add_metric([stage, verdict or ""], n)
        elif kind in others:
            others[kind].add_metric([stage], n)
    return [graded, *others.values()]


def _key(row: tuple[str, str, str | None, int]) -> tuple[str, str, str]:
    return (row[0], row[1], row[2] or "")


def _durations(session: Session) -> Metric:
    h = HistogramMetricFamily(
        "kgrade_stage_duration_seconds",
        "The grader's own time for each stored stage result, by stage.",
        labels=["stage"],
    )
    for stage, cumulative, count, total in sorted(repository.durations(session, BUCKETS)):
        buckets: list[tuple[str, float]] = [
            (repr(b), float(n)) for b, n in zip(BUCKETS, cumulative, strict=True)
        ]
        buckets.append(("+Inf", float(count)))
        h.add_metric([stage], buckets, total)
    return h


class _Scrape(Collector):
    def __init__(self, session: Session, s: Settings) -> None:
        self.session, self.s = session, s

    def collect(self) -> Iterator[Metric]:
        yield from families(self.session, self.s)


def exposition(session: Session, s: Settings) -> tuple[bytes, str]:
    """The scrape's text, and its content type (Prometheus' text format)."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Scrape(session, s))
    return generate_latest(registry), CONTENT_TYPE_LATEST
