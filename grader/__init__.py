"""kgrade's grading engine: a plain library (no web, queue or database code).

from grader import checkpoints, grade
result = grade(source, checkpoints.get("c3a-softmax"))
"""

from grader.models import CaseResult, CheckpointDef, GradeResult, Verdict
from grader.options import GradeOptions
from grader.pipeline import SandboxRefused, grade

__all__ = [
    "CaseResult",
    "CheckpointDef",
    "GradeOptions",
    "GradeResult",
    "SandboxRefused",
    "Verdict",
    "grade",
]
