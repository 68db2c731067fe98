"""Public data types of the grading engine: checkpoint definitions and grade results.

Everything here is plain data (pydantic), so a grade serialises to the same JSON whether it
comes from `kgrade grade`, a Celery task or a test.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, model_validator


class Verdict(StrEnum):
    CORRECT = "correct"
    WRONG_ANSWER = "wrong_answer"
    COMPILE_ERROR = "compile_error"
    RUNTIME_ERROR = "runtime_error"
    TIME_LIMIT = "time_limit"
    MEMORY_LIMIT = "memory_limit"
    FORBIDDEN = "forbidden"
    INTERNAL_ERROR = "internal_error"
    # The CPU precheck could not check some cases: the submission's own code stopped there at
    # a libdevice function Triton's interpreter cannot run. Never final where a GPU is: the
    # GPU stage, which runs every case, decides (on a CPU-only deployment it stays this).
    UNCHECKED = "unchecked"


# A checkpoint's deadline: when it opens, when it is due, and what happens to late work; in
# `checkpoint.toml`'s `[deadline]` table or set by an instructor (the service stores that in
# the database and it overrides the definition's). Every time is kept in UTC; `timezone` is
# only the zone the times are shown in, and the zone a time written without an offset is read
# in.
class LatePolicy(StrEnum):
    REFUSE = "refuse"  # after the due time, nothing is admitted
    ACCEPT = "accept"  # admitted and marked late (until `late_until`, where set)


class Admission(StrEnum):
    NOT_OPEN = "not_open"
    ON_TIME = "on_time"
    LATE = "late"
    PAST = "past"  # past the due time (refuse) or past the late window (accept)


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {name!r} (an IANA name, e.g. Europe/Berlin)") from exc


class DeadlineSpec(BaseModel):
    """`opens` (optional), `due`, and after it either nothing (`policy = "refuse"`) or late
    work accepted and marked late (`policy = "accept"`), until `late_until` where set."""

    opens: datetime | None = Field(default=None, description="no submission before this")
    due: datetime = Field(description="submissions after this are late (or refused)")
    late_until: datetime | None = Field(
        default=None, description="with policy 'accept': late work accepted until this"
    )
    policy: LatePolicy = LatePolicy.REFUSE
    timezone: str = Field(default="UTC", description="IANA zone the times are shown in")

    @model_validator(mode="after")
    def _in_utc_and_ordered(self) -> DeadlineSpec:
        tz = zone(self.timezone)

        def utc(t: datetime | None) -> datetime | None:
            if t is None:
                return None
            try:
                return (t if t.tzinfo else t.replace(tzinfo=tz)).astimezone(UTC)
            except OverflowError as exc:
                raise ValueError(f"deadline: {t.isoformat()} is out of range in UTC") from exc

        # assigned through __dict__: validate_assignment would run this validator again
        self.__dict__.update(opens=utc(self.opens), due=utc(self.due))
        self.__dict__["late_until"] = utc(self.late_until)
        if self.opens is not None and self.opens >= self.due:
            raise ValueError("deadline: opens must be before due")
        if self.late_until is not None:
            if self.policy is not LatePolicy.ACCEPT:
                raise ValueError("deadline: late_until needs policy = 'accept'")
            if self.late_until <= self.due:
                raise ValueError("deadline: late_until must be after due")
        return self

    def admission(self, at: datetime) -> Admission:
        at = at if at.tzinfo else at.replace(tzinfo=UTC)
        if self.opens is not None and at < self.opens:
            return Admission.NOT_OPEN
        if at <= self.due:
            return Admission.ON_TIME
        if self.policy is LatePolicy.ACCEPT and (self.late_until is None or at <= self.late_until):
            return Admission.LATE
        return Admission.PAST

    def is_late(self, at: datetime) -> bool:
        at = at if at.tzinfo else at.replace(tzinfo=UTC)
        return at > self.due

    def shown(self, t: datetime) -> str:
        """A time in the deadline's zone, with the zone: '2026-12-08 23:59 CET (Europe/Berlin)'."""
        local = (t if t.tzinfo else t.replace(tzinfo=UTC)).astimezone(zone(self.timezone))
        return f"{local:%Y-%m-%d %H:%M} {local.tzname()}" + (
            f" ({self.timezone})" if self.timezone != "UTC" else ""
        )


class Tolerance(BaseModel):
    atol: float
    rtol: float


class CaseSpec(BaseModel):
    """One input shape of a checkpoint. Each case is drawn at least twice with fresh data."""

    name: str
    shape: list[int]
    dtype: str = "float32"
    # Extra knobs the checkpoint's input generator understands (e.g. {"scale": 1000.0}).
    params: dict[str, Any] = Field(default_factory=dict)
    # Hidden cases are graded, but a student sees their details only after the checkpoint's
    # due time (decided when the result is read: grader/judge/hidden.py); staff always see them.
    hidden: bool = False


class InputFamily(BaseModel):
    """A kind of input the checkpoint's cases exercise (large magnitudes, masked entries, an
    offset …): `params` for its `make_inputs`, laid over a benchmark shape's own (which win:
    the timed work's size stays the shape's). Each timed round draws one at random."""

    name: str
    params: dict[str, Any] = Field(default_factory=dict)


class RubricSpec(BaseModel):
    baseline: str = "torch"
    # Level 3 needs the lower bound of the speedup's 95 % confidence interval above this.
    min_speedup_lower_bound: float = 1.0
    # Points the explanation must address (each a list of accepted keywords).
    explanation_points: dict[str, list[str]] = Field(default_factory=dict)
    number_tolerance: float = 0.15
    # Per quantity, a tolerance other than number_tolerance (keys: explanation.QUANTITIES,
    # e.g. {"occupancy" = 0.25}).
    claim_tolerances: dict[str, float] = Field(default_factory=dict)
    # The kinds of number an explanation must cite, each checked against a measurement:
    # "traffic" (DRAM bytes or a traffic ratio) and "speed" (a speedup or a time).
    required_claims: list[str] = Field(default_factory=lambda: ["traffic", "speed"])
    # What level 3 rewards: "win" — a speedup over `baseline` (the lower bound of its interval
    # above min_speedup_lower_bound); "explained_gap" — a correct kernel that may lose to
    # `baseline` (exercise E3: a GEMM against cuBLAS), with Nsight evidence and an
    # explanation that quantifies the gap (`required_claims`, e.g. ["compute", "speed"]: its
    # TFLOP/s and the ratio to the baseline, each checked against the measurements).
    level3: Literal["win", "explained_gap"] = "win"

    def tolerance(self, quantity: str) -> float:
        return self.claim_tolerances.get(quantity, self.number_tolerance)


class CheckpointDef(BaseModel):
    """A checkpoint's data, as written in `reference_kernels/<id>/checkpoint.toml`."""

    id: str
    title: str
    entry: str
    signature: str
    statement: str = ""
    dtypes: list[str] = Field(default_factory=lambda: ["float32"])
    tolerances: dict[str, Tolerance]
    interpreter_cases: list[CaseSpec]
    gpu_cases: list[CaseSpec] = Field(default_factory=list)
    benchmark_shapes: list[CaseSpec] = Field(default_factory=list)
    # Benchmark shapes (by name) where Nsight Compute profiles the submission and every
    # baseline; empty: the first benchmark shape (the course's shape). The first listed is the
    # shape an explanation's numbers are read at when a sentence names none.
    profile_shapes: list[str] = Field(default_factory=list)
    draws_per_case: int = Field(default=2, ge=2)
    # aten ops (by overload packet name, e.g. "sum") the entry may run besides allocation,
    # views and copies. Empty means: every computation must be in Triton.
    allowed_torch_ops: list[str] = Field(default_factory=list)
    baselines: list[str] = Field(default_factory=lambda: ["torch"])
    target_gpus: list[str] = Field(default_factory=lambda: ["rtx5090", "h200"])
    rubric: RubricSpec = Field(default_factory=RubricSpec)
    # A closed checkpoint refuses new submissions (the service's admission checks this).
    open: bool = True
    # Opening, due time, late policy and the zone shown; an instructor's (stored in the
    # database) overrides it. None: no deadline.
    deadline: DeadlineSpec | None = None
    # Output poison for float outputs; the harness fills every fresh allocation with it.
    poison: float = float("nan")
    # What in this checkpoint's computation can cause a kind of wrong output, said after such
    # a failure and only on this checkpoint (a hint applies where its cause can occur: an
    # overflowed exp() on softmax, never on a vector add). Keys: "nan" (NaN where the reference
    # is finite), "inf", "values" (outside the tolerance), "shape".
    hints: dict[Literal["nan", "inf", "values", "shape"], str] = Field(default_factory=dict)
    # The kinds of input timed rounds draw from, one per round at random (the plain draw, with
    # no params, is always one of them): whatever the cases exercise, so that an answer right
    # only on benign inputs is wrong on the rounds that draw the others.
    input_families: list[InputFamily] = Field(default_factory=list)
    # Raw-assembly escapes of triton.language (tl.inline_asm_elementwise) are refused unless a
    # checkpoint allows them (grader/judge/allowlist.py).
    allow_inline_asm: bool = False

    @model_validator(mode="after")
    def _profile_shapes_are_benchmarked(self) -> CheckpointDef:
        names = {c.name for c in self.benchmark_shapes}
        unknown = [n for n in self.profile_shapes if n not in names]
        if unknown:
            raise ValueError(f"profile_shapes names no benchmark shape: {', '.join(unknown)}")
        return self

    def families(self) -> list[dict[str, Any]]:
        """The timed rounds' input families' params: the plain draw first, then the declared."""
        out: list[dict[str, Any]] = [{}]
        for f in self.input_families:
            if f.params and f.params not in out:
                out.append(dict(f.params))
        return out

    @model_validator(mode="after")
    def _visibility_is_declared_once(self) -> CheckpointDef:
        """Whether a case is hidden is its declaration (`hidden = true`), never its name; so
        a name is hidden everywhere or nowhere, no visible case takes the names a withheld
        one is shown as (`hidden-1`, …), and benchmark shapes, always shown, are not hidden."""
        bench_hidden = [c.name for c in self.benchmark_shapes if c.hidden]
        if bench_hidden:
            raise ValueError(
                "benchmark_shapes are always shown (their times are the grade's): "
                f"'hidden' is for interpreter_cases and gpu_cases, not {', '.join(bench_hidden)}"
            )
        cases = [*self.interpreter_cases, *self.gpu_cases]
        hidden = {c.name for c in cases if c.hidden}
        shown = {c.name for c in [*cases, *self.benchmark_shapes] if not c.hidden}
        both = sorted(hidden & shown)
        if both:
            raise ValueError(
                f"case {', '.join(both)} is declared hidden in one place and shown in another "
                "(or is also a benchmark shape's name): give it one visibility, or another name"
            )
        aliased = sorted(n for n in shown if n.lower().startswith("hidden-"))
        if aliased:
            raise ValueError(
                f"a shown case may not be named {', '.join(aliased)}: names 'hidden-…' are what "
                "a withheld case is shown as; declare it `hidden = true`, or rename it"
            )
        return self

    def profile_cases(self) -> list[CaseSpec]:
        """The benchmark shapes Nsight profiles, the course's (the default) first."""
        if not self.profile_shapes:
            return self.benchmark_shapes[:1]
        by_name = {c.name: c for c in self.benchmark_shapes}
        return [by_name[n] for n in dict.fromkeys(self.profile_shapes)]


class CaseResult(BaseModel):
    name: str
    passed: bool
    max_abs_err: float | None = None
    message: str = ""
    shape: list[int] | None = None
    dtype: str | None = None
    draw: int = 0
    config: str | None = None
    # a hidden case's (CaseSpec.hidden): shown to a student only after the due time
    hidden: bool = False
    # what was wrong, in words that show nothing of the case (judge/compare.FAILURES' keys:
    # shape, nan, inf, values, error, crashed), so a withheld case can still say it
    failure: str = ""
    # elements NaN or infinite where the reference is not (or the other way round): these have
    # no error to say, so a view says "NaN" rather than the finite elements' max_abs_err
    nonfinite: int = 0
    # the calls this row stands for: 1, or (a long table, judge/budget.py) a case's calls of
    # one outcome merged into one row, its worst error kept
    calls: int = 1


class ConfigResult(BaseModel):
    """The outcome of one `@triton.autotune` config across every case it was run on."""

    config: str
    passed: bool
    failed_cases: list[str] = Field(default_factory=list)
    failed_widths: list[int] = Field(default_factory=list)


class GradeResult(BaseModel):
    checkpoint: str
    verdict: Verdict
    level: int = Field(ge=0, le=4)
    device: str
    cases: list[CaseResult] = Field(default_factory=list)
    messages: list[str] = Field(default_factory=list)
    configs: list[ConfigResult] = Field(default_factory=list)
    stdout: str = ""
    stages: dict[str, float] = Field(default_factory=dict)
    sandbox: str = ""
    # what counted the child's memory and capped its writable folders (cgroup.describe)
    limits: str = ""
    versions: dict[str, str] = Field(default_factory=dict)
    benchmark: BenchmarkResult | None = None
    # Nsight Compute on the checkpoint's first profile shape (the course's), and on any other
    # it lists
    profile: ProfileResult | None = None
    extra_profiles: list[ProfileResult] = Field(default_factory=list)
    # what a student can quote: every measured fact, named by implementation, shape and dtype
    citable: Citable | None = None
    explanation: ExplanationCheck | None = None
    # the GPU stage's reasons against level 3 other than the explanation's (None: no GPU
    # stage, or stored before they were kept): what an offline re-check of the explanation
    # adds its own to (grader/judge/recheck.py)
    level3_blockers: list[str] | None = None

    @classmethod
    def internal_error(
        cls,
        checkpoint: str,
        message: str,
        device: str = "-",
        versions: dict[str, str] | None = None,
    ) -> GradeResult:
        """The grader's own failure, never the submission's: level 0, `message`. The one way
        to make one: a grading that failed (the pipeline adds its headline, as to every grade),
        a checkpoint that does not load, a worker that cannot grade, attempts run out."""
        return cls(
            checkpoint=checkpoint,
            verdict=Verdict.INTERNAL_ERROR,
            level=0,
            device=device,
            messages=[message],
            versions=versions or {},
        )


class Ratio(BaseModel):
    """A speedup (baseline time / submission time): median of paired ratios (over input families:
    the geometric mean of the families' medians), 95 % CI."""

    median: float
    low: float
    high: float


class ShapeBenchmark(BaseModel):
    name: str
    shape: list[int]
    dtype: str
    rounds: int
    times_us: dict[str, float]  # median per implementation (submission and each baseline)
    speedup: dict[str, Ratio]  # per baseline
    minimal_bytes: int
    gbps: float
    pct_of_peak: float | None = None
    below_roofline: bool = False
    outside_stream_us: float = 0.0  # time the submission's work ran outside the timed stream
    # the speedup over the rubric's baseline, round by round (the numbers behind the median)
    paired: list[float] = Field(default_factory=list)
    # a checkpoint that declares its work (problem.py `flops`): where it sits on the roofline
    roofline: Roofline | None = None


class Roofline(BaseModel):
    """One benchmark shape on the roofline (grader/gpu/roofline.py): the declared work over the
    minimal bytes, against the calibrated tensor-core ceiling of its dtype and the memory
    ceiling. TFLOP/s per implementation: the declared FLOPs over its median time."""

    flops: int
    intensity: float  # FLOP per minimal byte
    peak_tflops: float  # the calibrated ceiling of this dtype (cuBLAS at a large shape)
    peak_gbps: float
    ridge: float  # FLOP/byte where the two ceilings meet
    bound: str  # "compute" (intensity right of the ridge) or "memory"
    roof_tflops: float  # the attainable TFLOP/s at this intensity: min(peak, intensity × bw)
    tflops: dict[str, float] = Field(default_factory=dict)  # per implementation
    pct_of_roof: float  # the submission's TFLOP/s, % of roof_tflops


class BenchmarkResult(BaseModel):
    gpu: str
    gpu_model: str
    peak_gbps: float
    peak_source: str
    baseline: str
    # timed by the grader apart from the submission (torch.compile), not paired per round
    unpaired_baselines: list[str] = Field(default_factory=list)
    shapes: list[ShapeBenchmark] = Field(default_factory=list)
    geomean: dict[str, Ratio] = Field(default_factory=dict)
    flags: list[str] = Field(default_factory=list)
    # dtype -> the calibrated tensor-core ceiling in TFLOP/s (compute-bound checkpoints only)
    compute_peaks: dict[str, float] = Field(default_factory=dict)
    compute_source: str = ""


class KernelMetrics(BaseModel):
    impl: str
    name: str
    duration_us: float
    dram_read_bytes: float
    dram_write_bytes: float
    dram_pct_of_peak: float | None = None
    occupancy_pct: float | None = None
    registers: int | None = None
    l2_bytes: float | None = None
    l2_hit_pct: float | None = None
    # compute-bound checkpoints (nsight.COMPUTE_METRICS): tensor pipe active, % of the active
    # cycles' peak; SM throughput, % of peak
    tensor_pipe_pct: float | None = None
    sm_throughput_pct: float | None = None


class ImplTotals(BaseModel):
    """One implementation's kernels on the profiled shape, together: counts and bytes summed,
    percentages weighted by each kernel's duration."""

    kernels: int
    duration_us: float
    dram_bytes: float
    dram_pct_of_peak: float | None = None
    dram_read_bytes: float | None = None
    dram_write_bytes: float | None = None
    occupancy_pct: float | None = None
    l2_hit_pct: float | None = None
    tensor_pipe_pct: float | None = None
    sm_throughput_pct: float | None = None


class ProfileResult(BaseModel):
    shape: list[int]
    dtype: str
    name: str = ""  # the benchmark shape's name
    kernels: list[KernelMetrics] = Field(default_factory=list)
    totals: dict[str, ImplTotals] = Field(default_factory=dict)
    report_file: str | None = None
    error: str | None = None
    seconds: float = 0.0
    # the baselines' kernels are measured without any submission, once per GPU model,
    # versions and shape: "now", or when they were
    baselines_measured: str | None = None
    # the configs the profiled call ran, as the child named them: those its autotuners picked
    # while timed (empty: none was autotuned, or the replay had to tune again)
    configs: list[str] = Field(default_factory=list)
    # the profiled call's output checked like a timed round's: None when right, else why not
    # (wrong, or never sent); unset (the default "") where no check was made (baselines alone)
    output_check: str | None = ""


class Fact(BaseModel):
    """One measured number a student can cite, and what it is of."""

    quantity: str  # explanation.QUANTITIES: traffic, bandwidth, time, speedup, ...
    label: str  # "DRAM traffic (read + written)"
    impl: str  # submission, torch, naive, compile
    versus: str | None = None  # a ratio's baseline: speedup/traffic ratio = versus ÷ impl
    shape_name: str  # the benchmark shape's name; "geometric mean" over every shape
    shape: list[int] = Field(default_factory=list)
    dtype: str = ""
    value: float  # bytes, GB/s, %, µs, ×, a count
    text: str  # the value as a student would write it: "241 MB", "1.58×"
    source: str  # "Nsight Compute" or "benchmark"


class Citable(BaseModel):
    """'What you can cite': every fact measured for this grading. A sentence of the
    explanation that names no shape is read at `shape_name` (the course's)."""

    gpu: str = ""
    shape_name: str
    shape: list[int]
    dtype: str
    facts: list[Fact] = Field(default_factory=list)


class ExplanationCheck(BaseModel):
    backed: bool
    points: dict[str, bool] = Field(default_factory=dict)
    # one per number read, in order: quote, sentence, quantity, subject, versus, shape,
    # negated, checked, ok, measured (what it was compared with), rel_error, closest (= measured)
    numbers: list[dict[str, Any]] = Field(default_factory=list)
    messages: list[str] = Field(default_factory=list)
    # the reading shown back (grader/judge/explanation.py): each visible sentence with the
    # indexes into `numbers` of its claims; the claims block's lines; which sentence met
    # each point
    sentences: list[dict[str, Any]] = Field(default_factory=list)
    block: list[dict[str, Any]] = Field(default_factory=list)
    point_sentences: dict[str, str] = Field(default_factory=dict)
