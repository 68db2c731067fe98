"""A student's home: per checkpoint, their best level and speedup, the next step to the next
level (the best result's own reasons, after its headline: what the grader said it lacks),
their submissions in order, and the climb of those graded on a GPU on the bandwidth roofline
(effective GB/s at the course's shape, under the copy ceiling the worker measured, beside the
baselines'), as the course's lab places each version of a kernel."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app.deadlines import service as deadlines
from app.models import Status, Submission, User, now
from app.submissions import repository
from grader import Admission, DeadlineSpec, checkpoints

HISTORY = 500  # submissions read per student
CLIMB = 40  # GPU gradings per checkpoint placed on the roofline (the latest)


@dataclass(frozen=True)
class Point:
    """One GPU-graded submission on the roofline."""

    submission_id: int
    version: int  # its number among the student's submissions to the checkpoint, from 1
    gbps: float
    level: int | None


@dataclass
class Climb:
    gpu: str
    shape: str  # the course's shape: "course-fp32 · 8192×4096 float32"
    ceiling_gbps: float
    baselines_gbps: dict[str, float]  # at that shape, from the latest grading
    points: list[Point] = field(default_factory=list)


@dataclass
class Progress:
    checkpoint: checkpoints.Checkpoint
    due: datetime | None
    best: Submission | None
    next_steps: list[str]
    overridden: bool  # the best's level was set by an instructor
    history: list[Submission]  # oldest first
    climbs: list[Climb]  # one per GPU model
    versions: dict[int, int]  # submission id → its version number
    deadline: DeadlineSpec | None = None  # the effective one (an instructor's, else the file's)

    @property
    def open(self) -> bool:
        return self.checkpoint.definition.open

    @property
    def admission(self) -> Admission:
        """What a submission made now would be: not open yet, on time, late, or refused."""
        return self.deadline.admission(now()) if self.deadline else Admission.ON_TIME

    def shown(self, t: datetime | None) -> str:
        """A time of the deadline in its zone, with the zone."""
        return self.deadline.shown(t) if self.deadline and t else ""


def _rank(s: Submission) -> tuple[int, float, int]:
    return (s.level if s.level is not None else -1, s.speedup or 0.0, -s.id)


def home(session: Session, user: User, listed: list[checkpoints.Checkpoint]) -> list[Progress]:
    """The open checkpoints, then the closed ones the student submitted to."""
    mine = repository.of_user(session, user.id, HISTORY)
    by_cp: dict[str, list[Submission]] = {}
    for s in mine:
        by_cp.setdefault(s.checkpoint, []).append(s)
    out = []
    for cp in listed:
        subs = by_cp.get(cp.id, [])
        if cp.definition.open or subs:
            out.append(_progress(session, user, cp, subs, deadlines.effective(session, cp)))
    return sorted(out, key=lambda p: not p.open)


def _progress(
    session: Session,
    user: User,
    cp: checkpoints.Checkpoint,
    subs: list[Submission],
    deadline: DeadlineSpec | None,
) -> Progress:
    done = [s for s in subs if s.status == Status.DONE and s.level is not None]
    best = max(done, key=_rank) if done else None
    gpu = [s for s in done if s.gpu_model][-CLIMB:]
    wanted = [s.id for s in gpu] + ([best.id] if best else [])
    results = repository.results(session, wanted)
    versions = {s.id: i + 1 for i, s in enumerate(subs)}
    steps, overridden = [], False
    if best is not None:  # its reasons as the student may see them (hidden cases withheld)
        result = deadlines.viewed(session, user, cp, results.get(best.id)) or {}
        steps = [str(m) for m in (result.get("messages") or [])[1:]]
        overridden = result.get("level") != best.level
    due = deadline.due if deadline else None
    climbs = _climbs(gpu, results, versions)
    return Progress(cp, due, best, steps, overridden, subs, climbs, versions, deadline)


def _climbs(
    subs: list[Submission], results: dict[int, dict[str, Any] | None], versions: dict[int, int]
) -> list[Climb]:
    climbs: dict[str, Climb] = {}
    for s in subs:
        bench = (results.get(s.id) or {}).get("benchmark") or {}
        course = _course_shape(results.get(s.id) or {}, bench)
        if course is None or not bench.get("peak_gbps"):
            continue
        climb = climbs.setdefault(
            bench.get("gpu_model") or s.gpu_model or "",
            Climb(bench.get("gpu", ""), _shape_name(course), float(bench["peak_gbps"]), {}),
        )
        climb.points.append(Point(s.id, versions[s.id], float(course["gbps"]), s.level))
        climb.ceiling_gbps = float(bench["peak_gbps"])
        climb.baselines_gbps = {
            impl: course["minimal_bytes"] / (t * 1e-6) / 1e9
            for impl, t in (course.get("times_us") or {}).items()
            if impl != "submission" and t
        }
    return list(climbs.values())


def _course_shape(result: dict[str, Any], bench: dict[str, Any]) -> dict[str, Any] | None:
    """The benchmark shape Nsight profiled (the course's), else the first."""
    shapes = bench.get("shapes") or []
    name = (result.get("profile") or {}).get("name")
    return next((sh for sh in shapes if sh.get("name") == name), shapes[0] if shapes else None)


def _shape_name(shape: dict[str, Any]) -> str:
    dims = "×".join(str(d) for d in shape.get("shape") or [])
    return f"{shape.get('name', '')} · {dims} {shape.get('dtype', '')}".strip()
