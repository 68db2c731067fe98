"""Queue and task names: the one contract between the code that enqueues and `worker/`.

Queues: `precheck` (CPU: static checks and interpreter correctness, any machine; also
checkpoint validation), one per GPU model, `gpu.<model>`, fed only by submissions that passed
the precheck, and `reconcile`, the reconciler's alone, which every precheck worker also serves:
the broker takes a worker's queues in turn, so the reconciler waits for at most the grading in
hand, not behind a deadline's backlog of prechecks (a dead GPU worker's grading would
otherwise wait for the whole precheck queue to drain before it is sent again).
"""

from __future__ import annotations

PRECHECK = "precheck"
RECONCILE = "reconcile"
TASK_PRECHECK = "kgrade.precheck"
TASK_GPU = "kgrade.gpu_grade"
TASK_RECONCILE = "kgrade.reconcile"
TASK_VALIDATE = "kgrade.validate_checkpoint"


def gpu_queue(model: str) -> str:
    return f"gpu.{model}"
