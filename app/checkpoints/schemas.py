from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, Field

from app.core.limits import MAX_CHECKPOINT_FILE, MAX_CHECKPOINT_FILES

File = Annotated[str, Field(max_length=MAX_CHECKPOINT_FILE)]
FileName = Annotated[str, Field(min_length=1, max_length=200)]


class CheckpointOut(BaseModel):
    id: str
    title: str
    entry: str
    signature: str
    statement: str
    dtypes: list[str]
    open: bool
    target_gpus: list[str]
    baseline: str
    starter: str | None
    version: str | None = Field(None, description="the installed version (content hash)")


class CheckpointIn(BaseModel):
    definition: File = Field(description="checkpoint.toml")
    problem: File = Field(description="problem.py: make_inputs, reference, BASELINES")
    reference: File = Field(description="reference.py: a correct Triton solution")
    starter: File | None = None
    wrong: dict[FileName, File] = Field(
        description="solutions/wrong/NAME.py → source, each with # expect:",
        max_length=MAX_CHECKPOINT_FILES,
    )


class OpenIn(BaseModel):
    open: bool


class OrderIn(BaseModel):
    order: list[Annotated[str, Field(max_length=64)]] = Field(max_length=256)


class CheckOut(BaseModel):
    """One check of a validation: a grading of one of the checkpoint's files."""

    name: str
    expected: str
    got: str
    ok: bool
    reason: str = Field("", description="why: the grading's first message after its headline")


class ReportOut(BaseModel):
    """A finished validation: valid (installed, and open if its checkpoint.toml says so), or
    not, with why."""

    id: str = Field(description="the checkpoint's id")
    valid: bool
    checks: list[CheckOut]
    error: str | None = None


class ValidationQueued(BaseModel):
    id: int
    checkpoint: str
    status: str
    url: str = Field(description="where to follow it: GET it until status is done")
    version: str = Field(description="the upload's version: the content hash of its files")
    replaces: str | None = Field(
        description="the installed version it replaces once valid (earlier results keep "
        "theirs; regrade to grade them with this one); null for a new checkpoint"
    )


class CheckpointUnchanged(BaseModel):
    """The upload is the installed version's very files: no new version, nothing queued."""

    checkpoint: str
    version: str
    unchanged: bool = True
    message: str


class VersionOut(BaseModel):
    version: str = Field(description="the content hash of the checkpoint's files")
    created_at: datetime = Field(description="when it first graded a result or was installed")
    current: bool = Field(description="the version installed now")


class VersionFilesOut(BaseModel):
    checkpoint: str
    version: str
    files: dict[str, str] = Field(description="path in the checkpoint folder → text")


class ValidationOut(BaseModel):
    id: int
    checkpoint: str
    status: str = Field(description="queued, running or done")
    checks_done: int
    checks_total: int = Field(description="0 until a worker has started it")
    checks: list[CheckOut] = Field(description="the checks finished so far, in their order")
    created_at: datetime
    finished_at: datetime | None
    report: ReportOut | None = Field(None, description="once done")

    @classmethod
    def of(cls, row: Any) -> ValidationOut:
        checks = [CheckOut(**c) for c in row.checks or [] if c is not None]
        report = None
        if row.status == "done":
            report = ReportOut(
                id=row.checkpoint, valid=bool(row.valid), checks=checks, error=row.error
            )
        return cls(
            id=row.id,
            checkpoint=row.checkpoint,
            status=row.status,
            checks_done=len(checks),
            checks_total=len(row.checks or []),
            checks=checks,
            created_at=row.created_at,
            finished_at=row.finished_at,
            report=report,
        )
