"""`grade()`: one submission against one checkpoint, from source text to a GradeResult.

Stages: static checks (parent) → inputs and references from a secret seed (parent) → the
submission in the sandbox (child) → comparison and verdict (parent) → rubric level.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import platform
import secrets
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch

from grader import rubric, sandbox
from grader.checkpoints import Checkpoint
from grader.evaluate import Collector, PlannedRun, evaluate
from grader.harness import wire
from grader.models import GradeResult, Verdict
from grader.static import check

log = logging.getLogger(__name__)
HARNESS_DIR = Path(__file__).resolve().parent / "harness"


class SandboxRefused(RuntimeError):
    """No sandbox can be made here and the caller did not allow grading without one."""


@dataclass(frozen=True)
class GradeOptions:
    device: str = "auto"  # "cpu" (Triton interpreter), "cuda", or "auto"
    limits: sandbox.Limits = field(default_factory=sandbox.Limits)
    unsafe_no_sandbox: bool = False
    seed: int | None = None  # None: a fresh secret seed per grading
    work_dir: Path | None = None
    max_configs: int = 64
    show_hidden: bool = True


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


def versions() -> dict[str, str]:
    import triton

    out = {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "triton": triton.__version__,
    }
    if torch.cuda.is_available():
        out["gpu"] = torch.cuda.get_device_name()
        out["cuda"] = str(torch.version.cuda)
    return out


def _run_seed(seed: int, case: str, draw: int) -> int:
    digest = hashlib.sha256(f"{seed}:{case}:{draw}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def plan_runs(checkpoint: Checkpoint, device: str, seed: int) -> list[PlannedRun]:
    """Draw every case's inputs from the secret seed and compute the references here."""
    d = checkpoint.definition
    cases = d.interpreter_cases if device == "cpu" else (d.gpu_cases or d.interpreter_cases)
    runs: list[PlannedRun] = []
    for case in cases:
        for draw in range(d.draws_per_case):
            gen = torch.Generator().manual_seed(_run_seed(seed, case.name, draw))
            inputs = checkpoint.make_inputs(case, gen)
            reference = checkpoint.reference(inputs)
            runs.append(PlannedRun(len(runs), case, draw, inputs, reference))
    return runs


def _child_env(device: str) -> dict[str, str]:
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
        "TRITON_CACHE_DIR": "/tmp/triton",
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
        versions=versions(),
    )
    result.messages.insert(0, rubric.headline(result, device))
    return result


def grade(source: str, checkpoint: Checkpoint, options: GradeOptions | None = None) -> GradeResult:
    """Grade `source`. Always returns a result; an unexpected failure of the grader itself is
    an `internal_error` grade. Raises SandboxRefused when no sandbox can be made and the
    options do not allow running without one."""
    options = options or GradeOptions()
    device = resolve_device(options.device)
    try:
        return _grade(source, checkpoint, options, device)
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


def _grade(source: str, checkpoint: Checkpoint, options: GradeOptions, device: str) -> GradeResult:
    stages: dict[str, float] = {}
    t0 = time.monotonic()
    entry = checkpoint.definition.entry

    static = check(source, entry)
    stages["static"] = time.monotonic() - t0
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

    sandboxed = not options.unsafe_no_sandbox
    if sandboxed and (why := sandbox.probe()) is not None:
        raise SandboxRefused(
            f"cannot grade safely: {why}. Install bubblewrap (apt-get install bubblewrap), or "
            "pass --unsafe-no-sandbox to run the submission unconfined on this machine."
        )

    seed = options.seed if options.seed is not None else secrets.randbits(63)
    t1 = time.monotonic()
    runs = plan_runs(checkpoint, device, seed)
    stages["inputs"] = time.monotonic() - t1

    job = Path(tempfile.mkdtemp(prefix="kgrade-job-", dir=options.work_dir))
    try:
        collector = Collector(runs, checkpoint.definition.tolerances, options.limits.result_bytes)
        outcome = _run_child(job, source, runs, checkpoint, device, options, collector, sandboxed)
    finally:
        shutil.rmtree(job, ignore_errors=True)
    stages["sandbox"] = outcome.wall

    ev = evaluate(runs, collector.result, outcome, options.show_hidden)
    result = GradeResult(
        checkpoint=checkpoint.id,
        verdict=ev.verdict,
        level=0,
        device=describe_device(device),
        cases=ev.cases,
        messages=ev.messages,
        configs=ev.configs,
        stdout=outcome.output
        + (
            f"\n… ({outcome.output_total} bytes in all, the rest dropped)"
            if outcome.output_total > len(outcome.output.encode())
            else ""
        ),
        sandbox="bubblewrap" if sandboxed else "NONE (--unsafe-no-sandbox)",
        versions=versions(),
    )
    result.level = rubric.level(result, gpu_evidence=None)
    result.messages.insert(0, rubric.headline(result, device))
    if device == "cpu" and result.verdict is Verdict.CORRECT:
        result.messages.append(rubric.cpu_ceiling_message(checkpoint))
    stages["total"] = time.monotonic() - t0
    result.stages = {k: round(v, 3) for k, v in stages.items()}
    return result


def _run_child(
    job: Path,
    source: str,
    runs: list[PlannedRun],
    checkpoint: Checkpoint,
    device: str,
    options: GradeOptions,
    collector: Collector,
    sandboxed: bool,
) -> sandbox.RunOutcome:
    job.chmod(0o755)
    inside = "/job" if sandboxed else str(job)
    harness = "/kgrade/harness" if sandboxed else str(HARNESS_DIR)
    (job / "submission.py").write_text(source)
    with open(job / "inputs.bin", "wb") as fp:
        arg_specs: list[list[dict[str, int | float]]] = []
        n = 0
        for r in runs:
            specs: list[dict[str, int | float]] = []
            for a in r.inputs:
                if isinstance(a, torch.Tensor):
                    wire.write_tensors(fp, [a])
                    specs.append({"tensor": n})
                    n += 1
                else:
                    specs.append({"value": a})
            arg_specs.append(specs)
    d = checkpoint.definition
    spec_json = {
        "entry": d.entry,
        "submission": f"{inside}/submission.py",
        "inputs": f"{inside}/inputs.bin",
        "device": device,
        "allowed_ops": d.allowed_torch_ops,
        "poison": d.poison,
        "max_configs": options.max_configs,
        "runs": [{"id": r.id, "args": a} for r, a in zip(runs, arg_specs, strict=True)],
    }
    (job / "job.json").write_text(json.dumps(spec_json))
    for f in job.iterdir():
        f.chmod(0o644)
    spec = sandbox.Spec(
        argv=[
            sys.executable,
            "-I",
            "-B",
            f"{harness}/child.py",
            f"{inside}/job.json",
            "{RESULT_FD}",
        ],
        env=_child_env(device),
        mounts=[sandbox.Mount(job, "/job"), sandbox.Mount(HARNESS_DIR, "/kgrade/harness")],
        gpu=device == "cuda",
    )
    return sandbox.run(spec, options.limits, collector, sandboxed=sandboxed)
