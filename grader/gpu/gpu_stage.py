"""After a correct GPU run: judge the benchmark, collect Nsight evidence, check the
explanation, and say whether level 3 is earned (and if not, exactly why)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

import torch

from grader import cachefile
from grader.checkpoints import Checkpoint
from grader.gpu import benchmark, calibrate, compiled, gpus, nsight, roofline
from grader.judge import explanation, facts
from grader.judge import rubric as rubric_words
from grader.judge.collect import Collected, Collector
from grader.models import BenchmarkResult, GradeResult, KernelMetrics, ProfileResult, Verdict
from grader.options import GradeOptions
from grader.plan.shapes import FULL_CHECKS, BenchShape
from grader.sandbox import bwrap, early, job
from grader.sandbox.job import Paths


@dataclass
class Stage:
    """A correct GPU grading going on to its GPU stage: what it was graded with and where (the
    one context its steps share, in place of callbacks into the pipeline)."""

    result: GradeResult
    collected: Collected
    shapes: list[BenchShape]
    checkpoint: Checkpoint
    options: GradeOptions
    paths: Paths  # the grading's folders
    source: str  # the runnable source the grading ran
    stages: dict[str, float]
    replay: early.Early | None = None  # the Nsight replay's child, started with the grading's
    kernels: frozenset[str] = frozenset()  # the file's Triton kernels, by name

    def profile_job(self, impls: list[str], with_submission: bool, shape_id: int) -> Paths:
        """The Nsight replay's job for one shape (`job.write_profile`)."""
        return job.write_profile(
            self.paths,
            self.source,
            self.checkpoint,
            self.shapes,
            self.options.max_configs,
            impls,
            with_submission,
            self.collected.tuned,
            shape_id,
        )


def flush_bytes() -> int:
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    reported = getattr(props, "L2_cache_size", None)
    return 2 * gpus.l2_bytes(torch.cuda.get_device_name(), reported)


def finish(stage: Stage) -> list[str]:
    """Fill the result's benchmark, profile and explanation; return the reasons level 3 is
    not given (empty: level 3). May turn the verdict to wrong_answer if timed calls were
    wrong."""
    collected = stage.collected
    if collected.bench_error:
        return [f"The benchmark failed: {collected.bench_error.get('message')}"]
    if not _timed_calls_right(stage.result, collected, stage.shapes):
        return ["wrong while being timed"]
    bench, reasons = _judge_benchmark(stage)
    profiles, why = _profiles(stage, bench)
    reasons += why
    stage.result.citable = facts.build(bench, profiles, torch.cuda.get_device_name())
    stage.result.level3_blockers = list(reasons)  # kept for `kgrade explain` (judge/recheck)
    return reasons + _explanation(stage)


def _judge_benchmark(stage: Stage) -> tuple[BenchmarkResult, list[str]]:
    """The child's times and the parent's judged against this GPU's ceilings (memory; for a
    compute-bound checkpoint the tensor cores' too) and the baselines (the torch.compile one
    timed here), and the reasons they give against level 3."""
    checkpoint, options, result = stage.checkpoint, stage.options, stage.result
    d = checkpoint.definition
    t = time.monotonic()
    cal = calibrate.get(options.cache_dir)
    stage.stages["calibrate"] = time.monotonic() - t
    t = time.monotonic()
    try:
        apart = compiled.times(checkpoint, stage.shapes, flush_bytes(), options.cache_dir)
    except Exception as exc:  # the worker's own toolchain: reported, never the student's fault
        apart = {}
        result.messages.append(
            f"The torch.compile baseline could not be measured on this worker "
            f"({type(exc).__name__}: {str(exc)[:200]}); it is left out of the comparison."
        )
    stage.stages["compile_baseline"] = time.monotonic() - t
    peaks = _compute_peaks(checkpoint, options, stage.stages)
    name = torch.cuda.get_device_name()
    times = stage.collected.bench_times
    bench = benchmark.judge(stage.shapes, times, cal, name, d.rubric.baseline, apart, peaks)
    result.benchmark = bench
    reasons = []
    if bench.gpu_model not in d.target_gpus:
        reasons.append(
            f"This GPU ({name}, '{bench.gpu_model}') is not one of the checkpoint's target GPUs "
            f"({', '.join(d.target_gpus)})."
        )
    result.messages.extend(
        roofline.summary(s.name, s.roofline, d.rubric.baseline) for s in bench.shapes if s.roofline
    )
    return bench, reasons + bench.flags + speedup_reasons(bench, checkpoint)


def _compute_peaks(
    checkpoint: Checkpoint, options: GradeOptions, stages: dict[str, float]
) -> dict[str, float]:
    """The calibrated tensor-core ceilings of the benchmark's dtypes, for a checkpoint that
    declares its FLOPs; none for a memory-bound one."""
    if not checkpoint.compute_bound:
        return {}
    t = time.monotonic()
    dtypes = [c.dtype for c in checkpoint.definition.benchmark_shapes]
    peaks = roofline.ceilings(options.cache_dir, dtypes)
    stages["calibrate_compute"] = time.monotonic() - t
    return peaks


def _profiles(stage: Stage, bench: BenchmarkResult) -> tuple[list[ProfileResult], list[str]]:
    """Nsight on each profile shape (the first in the replay started early), and what its
    evidence says against level 3."""
    options, result = stage.options, stage.result
    if not options.profile:
        if options.explanation is None:  # without one, the missing explanation is the reason
            return [], []
        return [], ["Nsight Compute profiling was turned off: level 3 needs its evidence."]
    t = time.monotonic()
    profiles, reasons = [], []
    for i, shape in enumerate(profile_shapes(stage.shapes, stage.checkpoint)):
        report = "submission-full.ncu-rep" if i == 0 else f"submission-{shape.id}.ncu-rep"
        p = run_profile(shape, stage, stage.replay if i == 0 else None, report)
        profiles.append(p)
        allowed = stage.checkpoint.definition.allowed_torch_ops
        reasons.extend(_evidence(p, bench, result, stage.kernels, allowed))
        launches = [r.launches for r in stage.collected.records if r.error is None]
        if why := nsight.kernel_count_disagrees(p, stage.kernels, launches):
            reasons.append(why)
    stage.stages["nsight"] = time.monotonic() - t
    result.profile = profiles[0] if profiles else None
    result.extra_profiles = profiles[1:]
    return profiles, reasons


def _explanation(stage: Stage) -> list[str]:
    """The explanation's claims checked against the grading's facts."""
    given = stage.options.explanation
    if given is None:
        return ["No explanation was given (--explanation FILE): level 3 needs one."]
    check = explanation.check(given, stage.checkpoint.definition.rubric, stage.result.citable)
    stage.result.explanation = check
    return list(check.messages)


def _timed_calls_right(result: GradeResult, collected: Collected, shapes: list[BenchShape]) -> bool:
    """Every checked timed call right and all of them back; else the verdict turns to
    wrong_answer, with the first wrong call named."""
    bad = [(s, r, c) for s, r, c in collected.bench_checks if not c.passed]
    # fresh inputs (turns.py): every round sampled, and FULL_CHECKS whole outputs
    expected = sum(len(s.verify) if s.seeds is None else s.rounds + FULL_CHECKS for s in shapes)
    if not bad and len(collected.bench_checks) >= expected:
        return True
    result.verdict = Verdict.WRONG_ANSWER
    if bad:
        s, r, c = bad[0]
        name = next((x.case.name for x in shapes if x.id == s), str(s))
        result.messages.append(
            f"Correct when checked, but wrong while being timed ({len(bad)} of "
            f"{len(collected.bench_checks)} checked timed calls; first: shape "
            f"'{name}', call {r + 1}: {c.message}). Does it cache answers "
            "or skip work after the first calls?"
        )
    else:
        result.messages.append("The outputs of the timed calls did not all come back.")
    return False


def speedup_reasons(bench: BenchmarkResult, checkpoint: Checkpoint) -> list[str]:
    """Why the speed earns no level 3: none measured, or not shown to beat the rubric's
    baseline. A rubric with `level3 = "explained_gap"` asks for no win: losing to the
    baseline (a GEMM against cuBLAS) costs nothing, the explanation of the gap is the work."""
    rubric = checkpoint.definition.rubric
    if rubric.level3 == "explained_gap":
        return []
    gm = bench.geomean.get(rubric.baseline)
    if gm is None:
        return [f"No speedup over the '{rubric.baseline}' baseline was measured."]
    if gm.low <= rubric.min_speedup_lower_bound:
        return [rubric_words.not_shown(rubric, gm, len(bench.shapes))]
    return []


def _evidence(
    p: ProfileResult,
    bench: BenchmarkResult,
    result: GradeResult,
    kernels: frozenset[str],
    epilogue: list[str],
) -> list[str]:
    """One profile's summary into the messages, and the reasons it is no evidence for level 3:
    none taken, kernels that do not account for the timed work, times Nsight contradicts,
    kernels that are not the submission's."""
    where = f"{p.name} ({facts.shape_text(p.shape, p.dtype)})"
    if p.error:
        return [f"No Nsight Compute evidence on {where}: {p.error}. Level 3 needs it."]
    result.messages.extend(f"Nsight Compute, {where}: {line}" for line in nsight.summary(p.totals))
    reasons = [r for r in [nsight.unaccounted(p, bench)] if r]
    if p.output_check:
        reasons.append(
            f"The profiled call on {where} is checked like a timed one, and {p.output_check}: "
            "the profile is not of the work that was timed, so it is no evidence for level 3."
        )
    reasons.extend(nsight.timing_disagrees(p, bench))
    reasons.extend(nsight.traffic_disagrees(p, bench))
    if kernels and (foreign := nsight.foreign_kernels(p, kernels, epilogue)):
        reasons.append(
            f"Nsight Compute saw your call on {where} launch kernels that are not your "
            f"Triton kernels: {', '.join(n[:80] for n in foreign[:3])}. Only your "
            "kernels (and torch's fills and copies) may do the work: no speedup is "
            "credited."
        )
    return reasons


def _replay_checked(said: Collector) -> str | None:
    """The profiled call's output against the reference: None when right, else why not."""
    checks = said.result.bench_checks
    if not checks:
        return "its output never came back"
    bad = next((c for _, _, c in checks if not c.passed), None)
    return None if bad is None else f"its output was wrong ({bad.message[:300]})"


def profile_shapes(shapes: list[BenchShape], checkpoint: Checkpoint) -> list[BenchShape]:
    """The benchmark shapes Nsight profiles (the checkpoint's `profile_shapes`; by default
    its first benchmark shape, the course's), in the checkpoint's order."""
    by_name = {s.case.name: s for s in shapes}
    wanted = checkpoint.definition.profile_cases()
    return [by_name[c.name] for c in wanted if c.name in by_name] or shapes[-1:]


def run_profile(
    shape: BenchShape,
    stage: Stage,
    replay: early.Early | None = None,
    report_name: str = "submission-full.ncu-rep",
) -> ProfileResult:
    """Nsight evidence on one profile shape: one `ncu` run over the submission's call
    (`--set full` plus our metrics) — on the course's shape, timed last, with the configs its
    autotuners picked while timed —, and the baselines' kernels from a run without any
    submission code, measured once per GPU model, versions and shape, then kept. With `replay`
    (already started, waiting for its job) the run's start is behind us; without, it starts
    here."""
    out = ProfileResult(shape=shape.case.shape, dtype=shape.case.dtype, name=shape.case.name)
    ncu = nsight.ncu_path()
    if ncu is None:
        out.error = "ncu (Nsight Compute) is not installed on this worker"
        return out
    start = time.monotonic()
    options, stages = stage.options, stage.stages
    limits = options.limits
    try:
        base, out.baselines_measured = _baseline_kernels(stage, shape, ncu)
        paths = stage.profile_job(["submission"], True, shape.id)
        t = time.monotonic()
        refs = {shape.id: shape.references[:1]}  # the replay's inputs: the shape's first set
        if replay is not None:
            assert isinstance(replay.reader, Collector)
            replay.reader.expect([], refs)
            replay.publish()
            try:
                run = replay.wait()
                assert isinstance(replay.reader, Collector)
                said = replay.reader
            except BaseException:  # a soft time limit, Ctrl-C: not left to run out its time
                replay.kill()
                raise
        else:
            said = Collector([], stage.checkpoint.definition.tolerances, limits.result_bytes, refs)
            spec = _replay_spec(paths, stage.checkpoint, ncu)
            run = bwrap.run(spec, limits, said, sandboxed=paths.sandboxed)
        stages["nsight_run"] = time.monotonic() - t  # its start and profile phases, and ncu's own
        out.configs = said.result.profiled
        said.finish()
        out.output_check = _replay_checked(said)
        stages.update({f"nsight_{k}": v for k, v in said.result.phases.items()})
        dest = (options.report_dir or paths.job.parent) / report_name
        t = time.monotonic()
        report = nsight.take_report(paths.out / "full.ncu-rep", dest, run.output)
        mine = [
            k
            for k in nsight.parse_raw_csv(nsight.import_csv(ncu, report))
            if k.impl == "submission"
        ]
        stages["nsight_import"] = time.monotonic() - t
        if not mine:
            hint = run.output.strip().splitlines()[-3:] if run.output else []
            raise nsight.ProfileError(
                "the profiler saw no kernel of yours" + (f" ({' / '.join(hint)})" if hint else "")
            )
        out.kernels = mine + base
        out.totals = nsight.totals(out.kernels)
        if options.report_dir is not None:
            out.report_file = str(dest)
    except (nsight.ProfileError, OSError) as exc:
        out.error = str(exc)
    out.seconds = round(time.monotonic() - start, 2)
    return out


def _mounts(ncu: str) -> list[bwrap.Mount]:
    return [bwrap.Mount(Path(p), p) for p in nsight.install_dirs(ncu)]


def _ncu_spec(at: Paths, checkpoint: Checkpoint, ncu_argv: list[str]) -> bwrap.Spec:
    """A child under `ncu` (the Nsight replay's, the baselines'): it waits for profile.json."""
    env = job.child_env("cuda", at)
    return job.child_spec(
        at, checkpoint, "cuda", env, ncu_argv, _mounts(ncu_argv[0]), job.PROFILE_JOB_FILE
    )


def _replay_spec(paths: Paths, checkpoint: Checkpoint, ncu: str) -> bwrap.Spec:
    args = nsight.submission_args(f"{paths.out_inside}/full", checkpoint.compute_bound)
    argv = [ncu, *args]
    return _ncu_spec(paths, checkpoint, argv)


def start_replay(
    paths: Paths, checkpoint: Checkpoint, options: GradeOptions, stack: contextlib.ExitStack
) -> early.Early | None:
    """Start the Nsight replay's child under `ncu` now, while the grading's child runs: its
    seconds of starting Python, torch and Triton under `ncu` then overlap the grading. Until
    `profile.json` is published it only waits, with no CUDA context: nothing of it is on the
    GPU while the grading's child is timed. `stack` kills it on exit if its job never comes
    (a wrong submission, a failed benchmark)."""
    ncu = nsight.ncu_path()
    if ncu is None:
        return None
    said = Collector([], checkpoint.definition.tolerances, options.limits.result_bytes)
    spec = _replay_spec(paths, checkpoint, ncu)
    return stack.enter_context(early.started(spec, options.limits, said, paths.sandboxed))


def _baseline_key(checkpoint: Checkpoint, shape: BenchShape, ncu: str) -> str:
    import triton

    c = shape.case
    problem = hashlib.sha256((checkpoint.folder / "problem.py").read_bytes()).hexdigest()[:16]
    return (
        f"{torch.cuda.get_device_name()}|driver {calibrate.driver_version()}|"
        f"torch {torch.__version__}|triton {triton.__version__}|ncu {os.path.realpath(ncu)}|"
        f"{checkpoint.id}|problem {problem}|{c.name}|{c.shape}|{c.dtype}"
    )


def _baseline_kernels(stage: Stage, shape: BenchShape, ncu: str) -> tuple[list[KernelMetrics], str]:
    """The baselines' kernels and when they were measured ("now" or a date)."""
    checkpoint, options = stage.checkpoint, stage.options
    names = checkpoint.timed_baselines()
    if not names:
        return [], "now"
    cache = options.cache_dir / "baseline_profiles.json" if options.cache_dir else None
    key = _baseline_key(checkpoint, shape, ncu)
    known = cachefile.load(cache)
    if key in known:
        try:
            kept = [KernelMetrics.model_validate(k) for k in known[key]["kernels"]]
            return kept, str(known[key]["measured"])
        except (KeyError, TypeError, ValueError):
            pass  # an unreadable entry is measured again
    paths = stage.profile_job(names, False, shape.id)
    args = nsight.metrics_args(f"{paths.out_inside}/baselines", checkpoint.compute_bound)
    argv = [ncu, *args]
    spec = _ncu_spec(paths, checkpoint, argv)
    run = bwrap.run(spec, options.limits, bwrap.drain, sandboxed=paths.sandboxed)
    report = nsight.take_report(
        paths.out / "baselines.ncu-rep", paths.job.parent / "b.ncu-rep", run.output
    )
    kernels = [k for k in nsight.parse_raw_csv(nsight.import_csv(ncu, report)) if k.impl in names]
    if not kernels:
        raise nsight.ProfileError("the profiler saw no kernel of the baselines")
    measured = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    known = cachefile.load(cache)  # another worker may have written meanwhile
    known[key] = {"measured": measured, "kernels": [k.model_dump() for k in kernels]}
    cachefile.store(cache, known)
    return kernels, "now"
