"""`grade()`: one submission against one checkpoint, from source text to a GradeResult.

Stages: static checks (parent) → inputs and references from a secret seed (parent) → the
submission in the sandbox (child) → comparison and verdict (parent) → rubric level.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import platform
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch

from grader.checkpoints import Checkpoint
from grader.gpu import benchmark, gpu_stage, turns
from grader.judge import budget, kernel_check, rubric
from grader.judge.collect import Collector
from grader.judge.evaluate import Evaluation, Hints, evaluate
from grader.judge.static import StaticReport, check
from grader.models import GradeResult, Verdict
from grader.options import GradeOptions
from grader.plan.runs import PlannedRun
from grader.plan.shapes import BenchShape
from grader.sandbox import bwrap, cgroup, early, folders, job, problem
from grader.sandbox.harness import interp_bf16
from grader.text import cap_json, server_paths_hidden

log = logging.getLogger(__name__)
# Every autotune config is checked on every case. Outputs up to this size come back whole for
# every config; beyond it, the first config's output comes back whole and the others' at
# SAMPLE_ELEMENTS secret positions (a config that skips a block of columns fails at thousands
# of them), which keeps 20 configs × a 128 MB output from becoming 5 GB through a pipe.
FULL_CHECK_ELEMENTS = 1 << 22
SAMPLE_ELEMENTS = 1 << 16


class SandboxRefused(RuntimeError):
    """No sandbox can be made here and the caller did not allow grading without one."""


def resolve_device(device: str) -> str:
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device not in {"cpu", "cuda"}:
        raise ValueError(f"unknown device {device!r} (cpu, cuda or auto)")
    return device


def describe_device(device: str) -> str:
    if device == "cpu":
        return "cpu (Triton interpreter)"
    return f"{torch.cuda.get_device_name()} (cuda)"


def versions(device: str = "cuda") -> dict[str, str]:
    """What graded it. On a GPU grading, also which card (its UUID), so that a result can be
    traced to one GPU of a multi-GPU worker host."""
    import triton

    out = {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "triton": triton.__version__,
    }
    if device == "cuda" and torch.cuda.is_available():
        out["gpu"] = torch.cuda.get_device_name()
        out["cuda"] = str(torch.version.cuda)
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        out["gpu_uuid"] = str(getattr(props, "uuid", "unknown"))  # which card graded it
    return out


def _run_seed(seed: int, case: str, draw: int) -> int:
    digest = hashlib.sha256(f"{seed}:{case}:{draw}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


BF16_GPU_ONLY = (
    "bf16 is checked on the GPU only here: this Triton's interpreter cannot compute bf16 as a "
    "GPU does, so the bf16 cases were left out of this CPU check."
)


def interpreter_checks_bf16() -> bool:
    """The child's interpreter computes bf16 as a GPU does (natively, or once the harness has
    patched it: harness/interp_bf16.py, the same check the child makes)."""
    return interp_bf16.status() != interp_bf16.UNSUPPORTED


def plan_runs(checkpoint: Checkpoint, device: str, seed: int) -> list[PlannedRun]:
    """Draw every case's inputs from the secret seed and compute the references here."""
    d = checkpoint.definition
    cases = d.interpreter_cases if device == "cpu" else (d.gpu_cases or d.interpreter_cases)
    if device == "cpu" and not interpreter_checks_bf16():
        cases = [c for c in cases if c.dtype != "bfloat16"]
    runs: list[PlannedRun] = []
    for case in cases:
        for draw in range(d.draws_per_case):
            gen = torch.Generator().manual_seed(_run_seed(seed, case.name, draw))
            drawn = checkpoint.draw(case, gen, device)
            inputs, reference = drawn.inputs, drawn.reference
            sample = None
            if reference.numel() > FULL_CHECK_ELEMENTS:
                sample = torch.randint(0, reference.numel(), (SAMPLE_ELEMENTS,), generator=gen)
            runs.append(PlannedRun(len(runs), case, draw, inputs, reference, sample))
    return runs


def folder_cap(options: GradeOptions) -> int | None:
    """The size of the child's /cache and /out, where they can be capped here (folders.py)."""
    return options.limits.folder_bytes if folders.can_cap() else None


def _level0(
    checkpoint: Checkpoint, verdict: Verdict, device: str, messages: list[str]
) -> GradeResult:
    result = GradeResult(
        checkpoint=checkpoint.id,
        verdict=verdict,
        level=0,
        device=describe_device(device),
        messages=messages,
        versions=versions(device),
    )
    result.messages.insert(0, rubric.headline(result, device))
    return result


class Spare:
    """A sandboxed child for the next CPU grading, started before that grading exists: it
    starts Python, torch and Triton (most of a precheck's time), then waits for a job. A
    precheck worker starts one while it grades and hands it to `grade(spare=...)` next time.
    Each spare serves one grading (a fresh process per submission, as always); one whose
    grading never comes is killed by `discard()`. Idle, it holds ~300 MB and polls for its job
    (0.3 % of a core here); its CPU limit would end it after about a day, so it retires after
    an hour."""

    MAX_AGE = 3600.0

    def __init__(self, options: GradeOptions) -> None:
        self.options = options
        self.used = False
        self.born = time.monotonic()
        sandboxed = not options.unsafe_no_sandbox
        self.root = job.new_root(options.work_dir)
        try:
            cap = folder_cap(options)
            self.paths = job.Paths(self.root / "job", self.root / "out", sandboxed, cap=cap)
            job.prepare(self.paths, None)
            spec = job.child_spec(self.paths, None, "cpu", job.child_env("cpu", self.paths))
            self.reader = early.LateReader()
            self.child = early.Early(spec, options.limits, self.reader, sandboxed)
        except BaseException:
            job.remove_root(self.root)
            raise

    def fits(self, options: GradeOptions) -> bool:
        """Can it grade under `options`: the same sandbox, limits and folder, and still up."""
        mine = self.options
        return (
            not self.used
            and self.child.alive()
            and time.monotonic() - self.born < self.MAX_AGE
            and resolve_device(options.device) == "cpu"
            and (options.limits, options.unsafe_no_sandbox, options.work_dir)
            == (mine.limits, mine.unsafe_no_sandbox, mine.work_dir)
        )

    def discard(self) -> None:
        self.child.kill()
        job.remove_root(self.root)


def grade(
    source: str,
    checkpoint: Checkpoint,
    options: GradeOptions | None = None,
    spare: Spare | None = None,
) -> GradeResult:
    """Grade `source`. Always returns a result; an unexpected failure of the grader itself is
    an `internal_error` grade. Raises SandboxRefused when no sandbox can be made and the
    options do not allow running without one. `spare`: a CPU grading runs in it if it fits
    (`spare.used` then says so; the caller discards one left unused)."""
    options = options or GradeOptions()
    device = resolve_device(options.device)
    source = source.removeprefix("\ufeff")  # an editor's byte-order mark: Python reads past it
    if spare is not None and not spare.fits(options):
        spare = None
    try:  # the child's text within its share of the result, after escaping (judge/budget.py)
        return budget.fit(_grade(source, checkpoint, options, device, spare))
    except SandboxRefused:
        raise
    except Exception as exc:  # a bug of ours must still give the student an answer
        log.exception("grading failed")
        why = f"The grader failed while grading this submission ({type(exc).__name__}: {exc})."
        result = GradeResult.internal_error(
            checkpoint.id, why, describe_device(device), versions(device)
        )
        result.messages.insert(0, rubric.headline(result, device))
        return budget.fit(result)


@dataclass
class _Grading:
    """One grading under way: what its steps share."""

    source: str  # the program the sandbox runs, regenerated from the checked tree
    checkpoint: Checkpoint
    options: GradeOptions
    device: str
    sandboxed: bool
    seed: int
    kernels: frozenset[str]  # the file's Triton kernels, by name
    root: Path
    paths: job.Paths
    stages: dict[str, float]
    later: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)  # an early replay
    kcheck: kernel_check.KernelCheck | None = None
    lines: list[int] = field(default_factory=list)  # the program's line -> the file's line


@dataclass
class _Ran:
    """What the child's run gave, its timed rounds taken into the collector's result."""

    runs: list[PlannedRun]
    shapes: list[BenchShape]
    collector: Collector
    outcome: bwrap.RunOutcome
    replay: early.Early | None  # the Nsight replay's child, waiting for its job
    compiled: kernel_check.Outcome | None  # the compile check's answer (CPU)


def _grade(
    source: str, checkpoint: Checkpoint, options: GradeOptions, device: str, spare: Spare | None
) -> GradeResult:
    t0 = time.monotonic()
    d = checkpoint.definition
    raw = {"inline_asm_elementwise"} if d.allow_inline_asm else set()
    static = check(source, d.entry, set(d.allowed_torch_ops) | raw)
    stages = {"static": time.monotonic() - t0}
    if (refused := _refused(static, checkpoint, device)) is not None:
        return refused

    sandboxed = not options.unsafe_no_sandbox
    if sandboxed and (why := bwrap.probe()) is not None:
        raise SandboxRefused(
            f"cannot grade safely: {why}. Install bubblewrap (apt-get install bubblewrap), or "
            "pass --unsafe-no-sandbox to run the submission unconfined on this machine."
        )
    # problem.py's own sandboxed process (warm if this worker has one for this version)
    checkpoint = problem.attach(checkpoint, device, sandboxed, options.limits)
    seed = options.seed if options.seed is not None else secrets.randbits(63)
    root, paths, kept = _folders(static.runnable, options, device, sandboxed, spare)
    g = _Grading(
        static.runnable,
        checkpoint,
        options,
        device,
        sandboxed,
        seed,
        frozenset(static.kernels),
        root,
        paths,
        stages,
        lines=static.lines,
    )
    try:
        ran = _run_child(g, spare)
        result, level3_reasons = _judge(g, ran)
    finally:
        _clean_up(g, spare, kept)

    _leveled(result, checkpoint, device, level3_reasons)
    stages["total"] = time.monotonic() - t0
    result.stages = {k: round(v, 3) for k, v in stages.items()}
    return result


def _run_child(g: _Grading, spare: Spare | None) -> _Ran:
    """Start the child (or take the spare's), plan and publish its job meanwhile, wait for it;
    then the compile check's answer, the parent's timed rounds and the checks kept for after."""
    job.prepare(g.paths, g.source, g.lines)
    if g.device == "cpu":  # Triton's compiler, for a GPU, in a sandbox of its own
        g.kcheck = kernel_check.KernelCheck(g.source, g.root, g.options, g.sandboxed)
    collector = Collector(
        [],
        g.checkpoint.definition.tolerances,
        g.options.limits.result_bytes,
        check_on="cuda" if g.device == "cuda" and g.options.check_on_gpu else None,
    )
    collector.on_launched = g.kcheck.feed if g.kcheck is not None else None
    # The child starts (Python, torch, Triton: seconds) while the inputs are drawn here,
    # or a spare has started already; it reads nothing until job.json is published.
    if spare is not None:
        spare.reader.give(collector)
        started = early.running(spare.child)
    else:
        spec = job.child_spec(g.paths, g.checkpoint, g.device, job.child_env(g.device, g.paths))
        started = early.started(spec, g.options.limits, collector, g.sandboxed)
    t_child = time.monotonic()
    with started as child:
        replay = _start_replay(g)
        runs, shapes, rounds = _plan_and_publish(g, collector, child)
    outcome = child.wait()
    g.stages["sandbox"] = time.monotonic() - t_child  # a spare's idle wait left out
    compiled = g.kcheck.finish() if g.kcheck is not None else None
    if compiled is not None:
        g.stages["compile_wait"] = time.monotonic() - t_child - g.stages["sandbox"]
    _take_turns(collector, rounds)
    if collector.check_on is not None:
        t = time.monotonic()
        collector.finish()
        g.stages["checks_after"] = time.monotonic() - t
    g.stages.update({f"child_{k}": v for k, v in collector.result.phases.items()})
    return _Ran(runs, shapes, collector, outcome, replay, compiled)


def _start_replay(g: _Grading) -> early.Early | None:
    """On a GPU, the Nsight replay's child too, to wait for the configs the benchmark picks."""
    o = g.options
    if g.device == "cuda" and o.benchmark and o.profile and o.nsight_early:
        return gpu_stage.start_replay(g.paths, g.checkpoint, o, g.later)
    return None


def _plan_and_publish(
    g: _Grading, collector: Collector, child: early.Early
) -> tuple[list[PlannedRun], list[BenchShape], turns.Turns | None]:
    """The runs and benchmark shapes planned here, the job written and published to the
    waiting child; with fresh inputs per round, the parent's side of the timed rounds."""
    t = time.monotonic()
    runs = plan_runs(g.checkpoint, g.device, g.seed)
    shapes = (
        benchmark.plan(g.checkpoint, g.seed, g.device, g.options.rounds)
        if g.device == "cuda" and g.options.benchmark
        else []
    )
    g.stages["inputs"] = time.monotonic() - t
    collector.expect(runs, {s.id: s.references for s in shapes})
    flush = gpu_stage.flush_bytes() if shapes else 0
    rounds = None
    if any(s.seeds is not None for s in shapes):  # fresh inputs: baselines timed here
        tolerances = g.checkpoint.definition.tolerances
        rounds = turns.Turns(g.checkpoint, shapes, tolerances, flush, g.seed)
        rounds.control = child.control
        collector.turns = rounds
    job.write(
        g.paths,
        g.source,
        g.checkpoint,
        g.device,
        runs,
        shapes,
        max_configs=g.options.max_configs,
        flush_bytes=flush,
    )
    child.publish()
    return runs, shapes, rounds


def _judge(g: _Grading, ran: _Ran) -> tuple[GradeResult, list[str] | None]:
    """The verdict from what the child gave; on a GPU, for a correct run, the GPU stage and
    the reasons level 3 is not given (None: no GPU stage)."""
    d = g.checkpoint.definition
    declared: dict[str, str] = {str(k): v for k, v in d.hints.items()}
    hints = Hints(declared, poison_nan=d.poison != d.poison)  # NaN: itself unequal
    ev = evaluate(
        ran.runs,
        ran.collector.result,
        ran.outcome,
        g.options.show_hidden,
        g.device == "cpu",
        hints,
    )
    if ran.compiled is not None:
        ev.verdict = kernel_check.apply(ev.verdict, ev.messages, ran.compiled)
    bf16_cases = any(c.dtype == "bfloat16" for c in g.checkpoint.definition.interpreter_cases)
    if g.device == "cpu" and bf16_cases and not interpreter_checks_bf16():
        ev.messages.append(BF16_GPU_ONLY)
    result = _result(g.checkpoint, ev, ran.outcome, g.options, g.device, g.sandboxed, g.paths.cap)
    if not ran.shapes or result.verdict is not Verdict.CORRECT:
        return result, None
    stage = gpu_stage.Stage(
        result=result,
        collected=ran.collector.result,
        shapes=ran.shapes,
        checkpoint=g.checkpoint,
        options=g.options,
        paths=g.paths,
        source=g.source,
        stages=g.stages,
        replay=ran.replay,
        kernels=g.kernels,
    )
    return result, gpu_stage.finish(stage)


def _clean_up(g: _Grading, spare: Spare | None, kept: Path | None) -> None:
    g.later.close()  # a replay child never given its job is killed here
    if g.kcheck is not None:
        g.kcheck.close()
    if spare is not None:  # exited already, unless something failed before it was given
        spare.child.kill()  # its job (then it would wait in a deleted folder for ever)
    with contextlib.suppress(OSError):
        job.keep_cache(g.paths)  # a capped copy of a kept cache goes back (links left out)
    job.remove_root(g.root)
    if kept is not None:
        job.trim_kept_cache(kept)


def _refused(static: StaticReport, checkpoint: Checkpoint, device: str) -> GradeResult | None:
    """The static check's answer, when it refuses the file before anything runs."""
    if static.syntax_error:
        return _level0(checkpoint, Verdict.COMPILE_ERROR, device, [static.syntax_error])
    if static.forbidden:
        return _level0(checkpoint, Verdict.FORBIDDEN, device, static.forbidden)
    if static.problems:
        verdict = Verdict.FORBIDDEN if static.no_kernel else Verdict.COMPILE_ERROR
        return _level0(checkpoint, verdict, device, static.problems)
    return None


def _folders(
    source: str, options: GradeOptions, device: str, sandboxed: bool, spare: Spare | None
) -> tuple[Path, job.Paths, Path | None]:
    """(the grading's root, its folders, the Triton cache kept for this source or None)."""
    kept = (
        job.source_cache(options.cache_dir, source, device)
        if options.cache_dir is not None and device == "cuda"
        else None
    )
    if spare is not None:  # CPU only (fits): its folders, its waiting child
        spare.used = True
        return spare.root, spare.paths, kept
    root = job.new_root(options.work_dir)
    cap = folder_cap(options)  # a kept cache is then copied into the capped one and back
    paths = job.Paths(
        root / "job", root / "out", sandboxed, None if cap else kept, cap, kept if cap else None
    )
    return root, paths, kept


def _take_turns(collector: Collector, rounds: turns.Turns | None) -> None:
    """The timed rounds the parent took part in (turns.py), into what the child's frames gave."""
    if rounds is None:
        return
    collector.result.bench_times.update(rounds.bench_times())
    collector.result.bench_checks.extend(rounds.checks)
    if rounds.failed:  # the grader's part: no level 3, and no blame
        why = f"the grader's own timing of the baselines failed ({rounds.failed})"
        collector.result.bench_error = {"message": why}


def _result(
    checkpoint: Checkpoint,
    ev: Evaluation,
    outcome: bwrap.RunOutcome,
    options: GradeOptions,
    device: str,
    sandboxed: bool,
    cap: int | None,
) -> GradeResult:
    # the server's folders left out of what a student sees (a warning's file:line)
    output = server_paths_hidden(outcome.output)
    kept = cap_json(output, budget.STDOUT_BYTES - 120)  # counted after escaping
    dropped = outcome.output_total > options.limits.output_bytes or kept != output
    return GradeResult(
        checkpoint=checkpoint.id,
        verdict=ev.verdict,
        level=0,
        device=describe_device(device),
        cases=ev.cases,
        messages=ev.messages,
        configs=ev.configs,
        stdout=kept
        + (f"\n… ({outcome.output_total} bytes in all, the rest dropped)" if dropped else ""),
        sandbox="bubblewrap" if sandboxed else "NONE (--unsafe-no-sandbox)",
        limits=cgroup.describe(outcome.memory_counted_by, cap),
        versions=versions(device),
    )


def _leveled(
    result: GradeResult, checkpoint: Checkpoint, device: str, level3_reasons: list[str] | None
) -> None:
    """The level, the headline, and what the level needs next."""
    result.level = rubric.level(result, level3_reasons)
    result.messages.insert(0, rubric.headline(result, device))
    if result.verdict is Verdict.CORRECT:
        if device == "cpu":
            result.messages.append(rubric.cpu_ceiling_message(checkpoint))
        elif level3_reasons:
            result.messages.extend(level3_reasons)
        elif level3_reasons is not None:
            result.messages.append(rubric.level3_message(checkpoint))
