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
    from grader.gpu.gpus import model_id as gpu_model_id
    from grader.gpu.ncu_check import NcuCheck
    from grader.gpu.ncu_check import check as check_ncu
    from grader.judge import recheck as explanation_recheck
    from grader.judge.casegroups import CaseGroup
    from grader.judge.casegroups import group as group_cases
    from grader.judge.facts import Table as CiteTable
    from grader.judge.facts import tables as cite_tables
    from grader.judge.hidden import withhold as withhold_hidden
    from grader.judge.report import render as render_report
    from grader.models import (
        Admission,
        CaseResult,
        CheckpointDef,
        Citable,
        DeadlineSpec,
        GradeResult,
        LatePolicy,
        Verdict,
    )
    from grader.options import GradeOptions
    from grader.pipeline import SandboxRefused, Spare, grade, resolve_device
    from grader.plan.inputs import randn
    from grader.sandbox.bwrap import Limits
    from grader.text import untrusted
    from grader.validation import validate

# public name → (module, attribute in it; None: the module itself)
_WHERE: dict[str, tuple[str, str | None]] = {
    "Admission": ("grader.models", "Admission"),
    "DeadlineSpec": ("grader.models", "DeadlineSpec"),
    "LatePolicy": ("grader.models", "LatePolicy"),
    "withhold_hidden": ("grader.judge.hidden", "withhold"),
    "CaseResult": ("grader.models", "CaseResult"),
    "CheckpointDef": ("grader.models", "CheckpointDef"),
    "Citable": ("grader.models", "Citable"),
    "GradeResult": ("grader.models", "GradeResult"),
    "Verdict": ("grader.models", "Verdict"),
    "GradeOptions": ("grader.options", "GradeOptions"),
    "Limits": ("grader.sandbox.bwrap", "Limits"),
    "SandboxRefused": ("grader.pipeline", "SandboxRefused"),
    "Spare": ("grader.pipeline", "Spare"),
    "grade": ("grader.pipeline", "grade"),
    "resolve_device": ("grader.pipeline", "resolve_device"),
    "checkpoints": ("grader.checkpoints", None),
    "validate": ("grader.validation", "validate"),
    "render_report": ("grader.judge.report", "render"),
    "cite_tables": ("grader.judge.facts", "tables"),
    "CiteTable": ("grader.judge.facts", "Table"),
    "untrusted": ("grader.text", "untrusted"),
    "gpu_model_id": ("grader.gpu.gpus", "model_id"),
    "CaseGroup": ("grader.judge.casegroups", "CaseGroup"),
    "group_cases": ("grader.judge.casegroups", "group"),
    "randn": ("grader.plan.inputs", "randn"),
    "NcuCheck": ("grader.gpu.ncu_check", "NcuCheck"),
    "check_ncu": ("grader.gpu.ncu_check", "check"),
    "explanation_recheck": ("grader.judge.recheck", None),
}

__all__ = [
    "Admission",
    "CaseGroup",
    "CaseResult",
    "CheckpointDef",
    "Citable",
    "CiteTable",
    "DeadlineSpec",
    "GradeOptions",
    "GradeResult",
    "LatePolicy",
    "Limits",
    "NcuCheck",
    "SandboxRefused",
    "Spare",
    "Verdict",
    "check_ncu",
    "checkpoints",
    "cite_tables",
    "explanation_recheck",
    "gpu_model_id",
    "grade",
    "group_cases",
    "randn",
    "render_report",
    "resolve_device",
    "untrusted",
    "validate",
    "withhold_hidden",
]


def __getattr__(name: str) -> Any:
    try:
        module, attribute = _WHERE[name]
    except KeyError:
        raise AttributeError(f"module 'grader' has no attribute {name!r}") from None
    value = import_module(module)
    return value if attribute is None else getattr(value, attribute)
