"""kgrade's grading engine: a plain library (no web, queue or database code).

from grader import checkpoints, grade
result = grade(source, checkpoints.get("c3a-softmax"))

The names below are loaded on first use (a module-level `__getattr__`), so that
`from grader import Verdict` does not import torch.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader import checkpoints
    from grader.facts import Table as CiteTable
    from grader.facts import tables as cite_tables
    from grader.gpus import model_id as gpu_model_id
    from grader.models import CaseResult, CheckpointDef, Citable, GradeResult, Verdict
    from grader.ncu_check import NcuCheck
    from grader.ncu_check import check as check_ncu
    from grader.options import GradeOptions
    from grader.pipeline import SandboxRefused, Spare, grade, resolve_device
    from grader.report import render as render_report
    from grader.sandbox import Limits
    from grader.text import untrusted
    from grader.validation import validate

# public name → (module, attribute in it; None: the module itself)
_WHERE: dict[str, tuple[str, str | None]] = {
    "CaseResult": ("grader.models", "CaseResult"),
    "CheckpointDef": ("grader.models", "CheckpointDef"),
    "Citable": ("grader.models", "Citable"),
    "GradeResult": ("grader.models", "GradeResult"),
    "Verdict": ("grader.models", "Verdict"),
    "GradeOptions": ("grader.options", "GradeOptions"),
    "Limits": ("grader.sandbox", "Limits"),
    "SandboxRefused": ("grader.pipeline", "SandboxRefused"),
    "Spare": ("grader.pipeline", "Spare"),
    "grade": ("grader.pipeline", "grade"),
    "resolve_device": ("grader.pipeline", "resolve_device"),
    "checkpoints": ("grader.checkpoints", None),
    "validate": ("grader.validation", "validate"),
    "render_report": ("grader.report", "render"),
    "cite_tables": ("grader.facts", "tables"),
    "CiteTable": ("grader.facts", "Table"),
    "untrusted": ("grader.text", "untrusted"),
    "gpu_model_id": ("grader.gpus", "model_id"),
    "NcuCheck": ("grader.ncu_check", "NcuCheck"),
    "check_ncu": ("grader.ncu_check", "check"),
}

__all__ = [
    "CaseResult",
    "CheckpointDef",
    "Citable",
    "CiteTable",
    "GradeOptions",
    "GradeResult",
    "Limits",
    "NcuCheck",
    "SandboxRefused",
    "Spare",
    "Verdict",
    "check_ncu",
    "checkpoints",
    "cite_tables",
    "gpu_model_id",
    "grade",
    "render_report",
    "resolve_device",
    "untrusted",
    "validate",
]


def __getattr__(name: str) -> Any:
    try:
        module, attribute = _WHERE[name]
    except KeyError:
        raise AttributeError(f"module 'grader' has no attribute {name!r}") from None
    value = import_module(module)
    return value if attribute is None else getattr(value, attribute)
