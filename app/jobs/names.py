"""Queue and task names: the one contract between the code that enqueues and `worker/`.

Queues: `precheck` (CPU: static checks and interpreter correctness, any machine; also
checkpoint validation) and one per GPU model, `gpu.<model>`, fed only by submissions that
passed the precheck.
"""

from __future__ import annotations

PRECHECK = "precheck"
TASK_PRECHECK = "kgrade.precheck"
TASK_GPU = "kgrade.gpu_grade"
TASK_RECONCILE = "kgrade.reconcile"
TASK_VALIDATE = "kgrade.validate_checkpoint"


def gpu_queue(model: str) -> str:
    return f"gpu.{model}"
