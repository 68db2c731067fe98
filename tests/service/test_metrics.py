"""/metrics on PostgreSQL and Redis, scraped around real gradings (the worker's own stage
function, in this process: claim, grade in the sandbox, store) and the reconciler: the counts,
the histogram and the gauges move by what happened. The Grafana dashboard asks only for
metrics that a scrape really has. Who may scrape: the token, else loopback only."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]
SOFTMAX = ROOT / "reference_kernels" / "c3a_softmax"
TOKEN = "metrics-secret"
SCRAPER = {"Authorization": f"Bearer {TOKEN}"}
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture
def metrics_token(service_env, monkeypatch):  # type: ignore[no-untyped-def]
    from app.settings import get_settings

    monkeypatch.setenv("KGRADE_METRICS_TOKEN", TOKEN)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def scrape(client: TestClient) -> tuple[Samples, dict[str, str]]:
    """Every sample by (name, labels), and every family's type by name."""
    r = client.get("/metrics", headers=SCRAPER)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    samples: Samples = {}
    types = {}
    for family in text_string_to_metric_families(r.text):
        types[family.name] = family.type
        for s in family.samples:
            samples[s.name, tuple(sorted(s.labels.items()))] = s.value
    return samples, types


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def _submit(client: TestClient, who: dict[str, str], path: Path) -> int:
    body = {"checkpoint": "c3a-softmax", "source": path.read_text()}
    r = client.post("/api/submissions", headers=who, json=body)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


@pytest.mark.slow
def test_counts_histograms_and_gauges_move_with_real_gradings(  # type: ignore[no-untyped-def]
    client, make_user, metrics_token
) -> None:
    from sqlalchemy import update

    from app.db import transaction
    from app.health.service import report_seen
    from app.models import Stage, Status, Submission, now
    from app.settings import get_settings
    from app.submissions import lifecycle
    from worker import tasks

    before, _ = scrape(client)
    assert value(before, "kgrade_broker_up") == 1
    assert value(before, "kgrade_queue_depth", queue="precheck") == 0
    ann = make_user("ann")
    good = _submit(client, ann, SOFTMAX / "reference.py")
    bad = _submit(client, ann, SOFTMAX / "solutions" / "wrong" / "no_max_subtraction.py")
    queued, _ = scrape(client)
    assert value(queued, "kgrade_queue_depth", queue="precheck") == 2  # both messages wait
    assert value(queued, "kgrade_submissions", status="queued", stage="precheck") == 2

    tasks.run_stage(good, Stage.PRECHECK)  # graded for real, in the sandbox
    tasks.run_stage(bad, Stage.PRECHECK)
    after, types = scrape(client)
    assert value(after, "kgrade_gradings_total", stage="precheck", verdict="correct") == 1
    assert value(after, "kgrade_gradings_total", stage="precheck", verdict="wrong_answer") == 1
    assert value(after, "kgrade_submissions", status="done", stage="done") == 2
    h = "kgrade_stage_duration_seconds"
    assert types[h] == "histogram"
    assert value(after, f"{h}_count", stage="precheck") == 2
    assert value(after, f"{h}_sum", stage="precheck") > 0
    buckets = sorted(
        (float(dict(labels)["le"]), v) for (n, labels), v in after.items() if n == f"{h}_bucket"
    )
    assert buckets[-1] == (float("inf"), 2)
    assert [v for _, v in buckets] == sorted(v for _, v in buckets)  # cumulative

    # A worker died mid-grading: the reconciler finds the lease expired and sends it again;
    # the next claim is a retry.
    third = _submit(client, ann, SOFTMAX / "reference.py")
    with transaction() as t:
        t.execute(
            update(Submission)
            .where(Submission.id == third)
            .values(status=Status.RUNNING, attempts=1, lease_expires_at=now() - timedelta(1))
        )
    assert tasks.reconcile() == 1
    with transaction() as t:
        assert lifecycle.claim(t, third, Stage.PRECHECK, "w2", get_settings()) is not None
        report_seen(t, "gpu-worker-1", "gpu.h200", "NVIDIA H200")
        report_seen(t, "cpu-worker-1", "precheck", None)
    last, _ = scrape(client)
    assert value(last, "kgrade_lease_expiries_total", stage="precheck") == 1
    assert value(last, "kgrade_retries_total", stage="precheck") == 1
    assert value(last, "kgrade_messages_lost_total", stage="precheck") == 0
    assert value(last, "kgrade_workers_seen", queue="gpu.h200") == 1
    assert value(last, "kgrade_workers_seen", queue="precheck") == 1
    assert value(last, "kgrade_gpus_seen", gpu="NVIDIA H200") == 1
    assert value(last, "kgrade_queue_depth", queue="gpu.h200") == 0  # a worker's queue, listed

    # the dashboard names only what a scrape has
    dashboard = json.loads((ROOT / "docs" / "grafana-dashboard.json").read_text())
    exported = set(types) | {f"{n}_total" for n, t in types.items() if t == "counter"}
    exported |= {
        f"{n}_{s}" for n, t in types.items() if t == "histogram" for s in ("bucket", "sum", "count")
    }
    panels = [p for p in dashboard["panels"] if p.get("type") != "row"]
    assert len(panels) >= 8
    for p in panels:
        assert p["targets"], p["title"]
        for target in p["targets"]:
            names = set(re.findall(r"\bkgrade_[a-z_]+\b", target["expr"]))
            assert names and names <= exported, (p["title"], names - exported)


def test_the_token_is_required_when_set(client, metrics_token) -> None:  # type: ignore[no-untyped-def]
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer nope"}).status_code == 401
    r = client.get("/metrics", headers=SCRAPER)
    assert r.status_code == 200 and "kgrade_queue_depth" in r.text


def test_without_a_token_only_loopback_may_scrape(service_env) -> None:  # type: ignore[no-untyped-def]
    from app.main import create_app

    app = create_app()
    far = TestClient(app, client=("203.0.113.7", 40000)).get("/metrics")
    assert far.status_code == 403 and "KGRADE_METRICS_TOKEN" in far.text  # the error page
    near = TestClient(app, client=("127.0.0.1", 40000)).get("/metrics")
    assert near.status_code == 200 and "kgrade_submissions" in near.text
