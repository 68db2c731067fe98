"""`grade()`: one submission against one checkpoint, from source text to a GradeResult.

Stages: static checks (parent) → inputs and references from a secret seed (parent) → the
submission in the sandbox (child) → comparison and verdict (parent) → rubric level.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import platform
import secrets
import time
from pathlib import Path

import torch

from grader.checkpoints import Checkpoint
from grader.gpu import benchmark, gpu_stage, turns
from grader.judge import kernel_check, rubric
from grader.judge.evaluate import Collector, Evaluation, evaluate
from grader.judge.static import StaticReport, check
from grader.models import GradeResult, Verdict
from grader.options import GradeOptions
from grader.plan.runs import PlannedRun
from grader.plan.shapes import BenchShape
from grader.sandbox import bwrap, cgroup, early, folders, job
from grader.sandbox.harness import interp_bf16

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
            inputs = checkpoint.make_inputs(case, gen)
            reference = benchmark.reference_on(checkpoint, inputs, device)
            sample = None
            if reference.numel() > FULL_CHECK_ELEMENTS:
                sample = torch.randint(0, reference.numel(), (SAMPLE_ELEMENTS,), generator=gen)
            runs.append(PlannedRun(len(runs), case, draw, inputs, reference, sample))
    return runs


def write_profile_job(
    paths: job.Paths,
    source: str,
    checkpoint: Checkpoint,
    shapes: list[BenchShape],
    options: GradeOptions,
    impls: list[str],
    with_submission: bool,
    force_configs: dict[str, str],
    shape_id: int | None = None,
) -> job.Paths:
    """The Nsight replay's job: in this grading's folders, or, for the baselines alone, in
    folders of their own with a Triton cache no submission has written to. `shape_id`: the
    shape to profile (default: the last timed, whose autotuner picks `force_configs` are)."""
    profiled = [s for s in shapes if s.id == shape_id] or shapes[-1:]
    if profiled and profiled[0] is not shapes[-1]:
        force_configs = {}  # the picks named are the last shape's: this one tunes again
    if not with_submission:
        own = paths.job.parent / "baselines"
        paths = job.Paths(own / "job", own / "out", paths.sandboxed, cap=paths.cap)
    job.write(
        paths,
        source,
        checkpoint,
        "cuda",
        [],
        profiled,
        max_configs=options.max_configs,
        profile_impls=impls,
        with_submission=with_submission,
        force_configs=force_configs if with_submission else None,
        job_file=job.PROFILE_JOB_FILE,
    )
    return paths


def folder_cap(options: GradeOptions) -> int | None:
    """The size of the child's /cache and /out, where they can be capped here (folders.py)."""
    return options.limits.folder_bytes if folders.can_cap() else None


def child_env(device: str, paths: job.Paths) -> dict[str, str]:
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
        "TRITON_CACHE_DIR": f"{paths.cache_inside}/triton",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "USER": "nobody",
    }
    if device == "cpu":
        env["TRITON_INTERPRET"] = "1"
        env["CUDA_VISIBLE_DEVICES"] = ""
    elif "CUDA_VISIBLE_DEVICES" in os.environ:
        env["CUDA_VISIBLE_DEVICES"] = os.environ["CUDA_VISIBLE_DEVICES"]
    return env


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
            spec = job.child_spec(self.paths, None, "cpu", child_env("cpu", self.paths))
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
    if spare is not None and not spare.fits(options):
        spare = None
    try:
        return _grade(source, checkpoint, options, device, spare)
    except SandboxRefused:
        raise
    except Exception as exc:  # a bug of ours must still give the student an answer
        log.exception("grading failed")
        return _level0(
            checkpoint,
            Verdict.INTERNAL_ERROR,
            device,
            [f"The grader failed while grading this submission ({type(exc).__name__}: {exc})."],
        )


def _grade(
    source: str, checkpoint: Checkpoint, options: GradeOptions, device: str, spare: Spare | None
) -> GradeResult:
    stages: dict[str, float] = {}
    t0 = time.monotonic()
    entry = checkpoint.definition.entry

    static = check(source, entry, set(checkpoint.definition.allowed_torch_ops))
    source = static.runnable
    stages["static"] = time.monotonic() - t0
    if (refused := _refused(static, checkpoint, device)) is not None:
        return refused

    sandboxed = not options.unsafe_no_sandbox
    if sandboxed and (why := bwrap.probe()) is not None:
        raise SandboxRefused(
            f"cannot grade safely: {why}. Install bubblewrap (apt-get install bubblewrap), or "
            "pass --unsafe-no-sandbox to run the submission unconfined on this machine."
        )

    seed = options.seed if options.seed is not None else secrets.randbits(63)
    root, paths, kept = _folders(source, options, device, sandboxed, spare)

    def spec_for(at: job.Paths, prefix: list[str], mounts: list[bwrap.Mount]) -> bwrap.Spec:
        """A child under `ncu` (the Nsight replay's, the baselines'): it waits for profile.json."""
        env = child_env(device, at)
        return job.child_spec(at, checkpoint, device, env, prefix, mounts, job.PROFILE_JOB_FILE)

    later = contextlib.ExitStack()  # the Nsight replay's child, if started early
    kcheck: kernel_check.KernelCheck | None = None
    rounds: turns.Turns | None = None
    try:
        job.prepare(paths, source)
        if device == "cpu":  # Triton's compiler, for a GPU, in a sandbox of its own
            kcheck = kernel_check.KernelCheck(source, root, options, sandboxed)
        collector = Collector(
            [],
            checkpoint.definition.tolerances,
            options.limits.result_bytes,
            check_on="cuda" if device == "cuda" and options.check_on_gpu else None,
        )
        collector.on_launched = kcheck.feed if kcheck is not None else None
        # The child starts (Python, torch, Triton: seconds) while the inputs are drawn here,
        # or a spare has started already; it reads nothing until job.json is published.
        if spare is not None:
            spare.reader.give(collector)
            started = early.running(spare.child)
        else:
            spec = job.child_spec(paths, checkpoint, device, child_env(device, paths))
            started = early.started(spec, options.limits, collector, sandboxed)
        t_child = time.monotonic()
        with started as child:
            replay = None
            if device == "cuda" and options.benchmark and options.profile and options.nsight_early:
                # and the Nsight replay's, to wait for the configs the benchmark will pick
                replay = gpu_stage.start_replay(
                    paths, spec_for, options, later, checkpoint.compute_bound
                )
            t1 = time.monotonic()
            runs = plan_runs(checkpoint, device, seed)
            shapes = (
                benchmark.plan(checkpoint, seed, device, options.rounds)
                if device == "cuda" and options.benchmark
                else []
            )
            stages["inputs"] = time.monotonic() - t1
            collector.expect(runs, {s.id: s.references for s in shapes})
            flush = gpu_stage.flush_bytes() if shapes else 0
            if any(s.seeds is not None for s in shapes):  # fresh inputs: baselines timed here
                rounds = turns.Turns(
                    checkpoint, shapes, checkpoint.definition.tolerances, flush, seed
                )
                rounds.control = child.control
                collector.turns = rounds
            job.write(
                paths,
                source,
                checkpoint,
                device,
                runs,
                shapes,
                max_configs=options.max_configs,
                flush_bytes=flush,
            )
            child.publish()
        outcome = child.wait()
        stages["sandbox"] = time.monotonic() - t_child  # a spare's idle wait left out
        compiled = kcheck.finish() if kcheck is not None else None
        if compiled is not None:
            stages["compile_wait"] = time.monotonic() - t_child - stages["sandbox"]
        _take_turns(collector, rounds)
        if collector.check_on is not None:
            t = time.monotonic()
            collector.finish()
            stages["checks_after"] = time.monotonic() - t
        stages.update({f"child_{k}": v for k, v in collector.result.phases.items()})

        ev = evaluate(runs, collector.result, outcome, options.show_hidden, device == "cpu")
        if compiled is not None:
            ev.verdict = kernel_check.apply(ev.verdict, ev.messages, compiled)
        bf16_cases = any(c.dtype == "bfloat16" for c in checkpoint.definition.interpreter_cases)
        if device == "cpu" and bf16_cases and not interpreter_checks_bf16():
            ev.messages.append(BF16_GPU_ONLY)
        result = _result(checkpoint, ev, outcome, options, device, sandboxed, paths.cap)
        level3_reasons: list[str] | None = None
        if shapes and result.verdict is Verdict.CORRECT:
            level3_reasons = gpu_stage.finish(
                result,
                collector.result,
                shapes,
                checkpoint,
                options,
                stages,
                spec_for,
                lambda impls, with_submission, shape_id: write_profile_job(
                    paths,
                    source,
                    checkpoint,
                    shapes,
                    options,
                    impls,
                    with_submission,
                    collector.result.tuned,
                    shape_id,
                ),
                replay,
                kernels=frozenset(static.kernels),
            )
    finally:
        later.close()  # a replay child never given its job is killed here
        if kcheck is not None:
            kcheck.close()
        if spare is not None:  # exited already, unless something failed before it was given
            spare.child.kill()  # its job (then it would wait in a deleted folder for ever)
        with contextlib.suppress(OSError):
            job.keep_cache(paths)  # a capped copy of a kept cache goes back (links left out)
        job.remove_root(root)
        if kept is not None:
            job.trim_kept_cache(kept)

    _leveled(result, checkpoint, device, level3_reasons)
    stages["total"] = time.monotonic() - t0
    result.stages = {k: round(v, 3) for k, v in stages.items()}
    return result


def _refused(static: StaticReport, checkpoint: Checkpoint, device: str) -> GradeResult | None:
    """The static check's answer, when it refuses the file before anything runs."""
    if static.syntax_error:
        return _level0(checkpoint, Verdict.COMPILE_ERROR, device, [static.syntax_error])
    if static.forbidden:
        return _level0(checkpoint, Verdict.FORBIDDEN, device, static.forbidden)
    if static.problems:
        verdict = (
            Verdict.FORBIDDEN
            if "triton.jit" in " ".join(static.problems)
            else Verdict.COMPILE_ERROR
        )
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
    dropped = outcome.output_total > options.limits.output_bytes  # (output is escaped)
    return GradeResult(
        checkpoint=checkpoint.id,
        verdict=ev.verdict,
        level=0,
        device=describe_device(device),
        cases=ev.cases,
        messages=ev.messages,
        configs=ev.configs,
        stdout=outcome.output
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
