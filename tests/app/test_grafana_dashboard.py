"""docs/grafana-dashboard.json: valid JSON that Grafana imports (panels with a Prometheus data
source variable and targets), and every query names a metric that kgrade's collector builds
(the families of one scrape, on an empty SQLite database and an embedded broker with nothing
queued). tests/service/test_metrics.py checks the same against a scrape after real gradings."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

import app.models  # noqa: F401  (the tables, on Base)
from app.db import Base
from app.metrics.service import families
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = json.loads((ROOT / "docs" / "grafana-dashboard.json").read_text())


def exported(tmp_path: Path) -> set[str]:
    """The sample names a scrape can have: each family's, with a counter's _total and a
    histogram's _bucket, _sum and _count."""
    engine = create_engine(f"sqlite:///{tmp_path / 'kgrade.db'}")
    tables = ("users", "submissions", "workers", "grading_events")  # what the collector reads
    Base.metadata.create_all(engine, tables=[Base.metadata.tables[n] for n in tables])
    s = Settings(home=tmp_path, database_url=None, redis_url=None, gpu_models=["h200"])
    with Session(engine) as session:
        found = families(session, s)
    names = set()
    for f in found:
        suffixes = {"counter": ["_total"], "histogram": ["_bucket", "_sum", "_count"]}
        names |= {f.name + x for x in suffixes.get(f.type, [""])}
    return names


def test_every_query_names_a_metric_kgrade_exports(tmp_path: Path) -> None:
    names = exported(tmp_path)
    assert {"kgrade_queue_depth", "kgrade_gradings_total", "kgrade_gpus_seen"} <= names
    panels = [p for p in DASHBOARD["panels"] if p.get("type") != "row"]
    assert len(panels) >= 8
    asked = set()
    for p in panels:
        assert p["title"] and p["targets"] and p["gridPos"]["w"] > 0, p
        assert p["datasource"] == {"type": "prometheus", "uid": "${datasource}"}
        for t in p["targets"]:
            found = set(re.findall(r"\bkgrade_[a-z_]+\b", t["expr"]))
            assert found, (p["title"], t["expr"])
            assert found <= names, (p["title"], found - names)
            asked |= found
    # what the brief asks the operator to see: queues, verdicts, durations, workers, GPUs,
    # lease expiries and retries, each on some panel
    for needed in (
        "kgrade_queue_depth",
        "kgrade_gradings_total",
        "kgrade_stage_duration_seconds_bucket",
        "kgrade_workers_seen",
        "kgrade_gpus_seen",
        "kgrade_lease_expiries_total",
        "kgrade_retries_total",
    ):
        assert needed in asked, needed


def test_the_dashboard_has_its_data_source_variable_and_unique_panel_ids() -> None:
    (var,) = [v for v in DASHBOARD["templating"]["list"] if v["name"] == "datasource"]
    assert (var["type"], var["query"]) == ("datasource", "prometheus")
    ids = [p["id"] for p in DASHBOARD["panels"]]
    assert len(ids) == len(set(ids))
    assert DASHBOARD["uid"] and DASHBOARD["schemaVersion"] >= 36
