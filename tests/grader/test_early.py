"""A sandboxed child started before its job (grader/sandbox/early.py), as the grading's child and
the Nsight replay's are: it waits for the very job file it was given, and one whose job never
comes (a wrong submission leaves the replay's child without one) is killed on leaving, not
waited for."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from grader import checkpoints
from grader.judge.evaluate import Collector
from grader.pipeline import child_env, plan_runs
from grader.sandbox import bwrap, early, job
from tests.procs import descendants, harness_pids

CK = checkpoints.get("c3a-vector-add")


def _paths(tmp_path: Path) -> job.Paths:
    paths = job.Paths(tmp_path / "job", tmp_path / "out", sandboxed=bwrap.probe() is None)
    job.prepare(paths, CK.reference_solution.read_text())
    return paths


def _spec(paths: job.Paths, job_file: str) -> bwrap.Spec:
    env = child_env("cpu", paths)
    return job.child_spec(paths, CK, "cpu", env, job_file=job_file)


def _harness_running() -> bool:
    return bool(harness_pids(descendants(os.getpid())))


@pytest.mark.timeout(120)
def test_a_child_runs_the_job_file_it_was_given(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    runs = plan_runs(CK, "cpu", seed=7)
    collector = Collector([], CK.definition.tolerances, 1 << 30)
    limits = bwrap.Limits(wall_seconds=90)
    with early.started(_spec(paths, job.PROFILE_JOB_FILE), limits, collector, paths.sandboxed) as c:
        collector.expect(runs, {})
        # a job.json beside it is not its job: it must keep waiting for profile.json
        job.write(paths, CK.reference_solution.read_text(), CK, "cpu", [], [], max_configs=1)
        time.sleep(3)
        assert not collector.result.ready
        job.write(
            paths,
            CK.reference_solution.read_text(),
            CK,
            "cpu",
            runs,
            [],
            max_configs=64,
            job_file=job.PROFILE_JOB_FILE,
        )
        c.publish()
    outcome = c.wait()
    assert outcome.returncode == 0, outcome.output
    assert len(collector.result.records) == len(runs)
    assert all(r.comparison is not None and r.comparison.passed for r in collector.result.records)


@pytest.mark.timeout(120)
def test_a_child_whose_job_never_comes_is_killed_on_leaving(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    collector = Collector([], CK.definition.tolerances, 1 << 30)
    left = threading.Event()
    errors: list[BaseException] = []

    def body() -> None:
        try:
            run()
        except BaseException as exc:
            errors.append(exc)

    def run() -> None:
        limits = bwrap.Limits(wall_seconds=600)
        spec = _spec(paths, job.PROFILE_JOB_FILE)
        with early.started(spec, limits, collector, paths.sandboxed):
            end = time.monotonic() + 20
            while not _harness_running() and time.monotonic() < end:
                time.sleep(0.05)
            assert _harness_running()
        left.set()

    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    thread.join(60)
    assert not errors, errors
    assert left.is_set(), "leaving waited for a child whose job never came"
    assert not _harness_running()
