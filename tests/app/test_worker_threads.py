"""A worker's grading process limits its own torch CPU threads (KGRADE_GRADER_THREADS)."""

from __future__ import annotations

import os

import pytest
import torch

from app.settings import Settings, get_settings


def test_the_default_leaves_most_cores_to_the_sandboxed_children() -> None:
    cores = os.cpu_count() or 1
    assert Settings(grader_threads=0).torch_threads == max(1, cores // 8)
    assert Settings(grader_threads=3).torch_threads == 3
    with pytest.raises(ValueError):
        Settings(grader_threads=-1)


def test_a_worker_process_applies_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    from worker.tasks import _limit_threads

    before = torch.get_num_threads()
    monkeypatch.setenv("KGRADE_GRADER_THREADS", "2" if before != 2 else "3")
    get_settings.cache_clear()
    try:
        _limit_threads()
        assert torch.get_num_threads() == int(os.environ["KGRADE_GRADER_THREADS"])
    finally:
        torch.set_num_threads(before)
        monkeypatch.undo()
        get_settings.cache_clear()
