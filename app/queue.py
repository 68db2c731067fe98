"""Sending gradings to the workers, by task name (the API never imports task code)."""

from __future__ import annotations

from worker.celery_app import PRECHECK, TASK_GPU, TASK_PRECHECK, celery, gpu_queue


def send_precheck(submission_id: int) -> None:
    celery.send_task(TASK_PRECHECK, args=[submission_id], queue=PRECHECK)


def send_gpu(submission_id: int, model: str) -> None:
    celery.send_task(TASK_GPU, args=[submission_id], queue=gpu_queue(model))


def broker_reachable(timeout: float = 2.0) -> bool:
    try:
        with celery.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
        return True
    except Exception:
        return False
