"""The job folder the sandboxed child reads, and the command that runs it.

The folder is mounted read-only at /job. The parent writes the submission before the child
starts, then the inputs while it starts, and last `job.json`, whole (a rename), which the child
waits for; it never writes there again while that child runs. The Nsight replay's job,
`profile.json`, is written in the same folder once the grading's child has exited (its child,
started early under `ncu`, waits for that file; its inputs replace the grading's). Files the
child must produce (ncu reports) go to a separate folder mounted at /out, which the parent
reads without following links. /out and the Triton cache (/cache) are size-capped tmpfs mounts
on the host where the host allows (`folders.py`): a kept cache is copied in before the child
starts and back out after the grading, links left out.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from grader.checkpoints import Arg, Checkpoint
from grader.plan.runs import PlannedRun
from grader.plan.shapes import SAMPLES, BenchShape
from grader.sandbox import bwrap, folders
from grader.sandbox.harness import wire

HARNESS_DIR = Path(__file__).resolve().parent / "harness"
JOB_FILE = "job.json"
PROFILE_JOB_FILE = "profile.json"  # the Nsight replay's


JOB_PREFIX = "kgrade-job-"


def new_root(work_dir: Path | None) -> Path:
    """A fresh folder for one grading's job, named after this process (kgrade-job-PID-…).
    First the folders of processes that are gone are removed: a worker killed mid-grading
    (SIGKILL, out of memory) cleans nothing up, and a GPU grading's inputs take gigabytes."""
    sweep_orphans(work_dir)
    return Path(tempfile.mkdtemp(prefix=f"{JOB_PREFIX}{os.getpid()}-", dir=work_dir))


def sweep_orphans(work_dir: Path | None) -> list[Path]:
    """Remove the job folders, ours by uid, whose process no longer exists; returns them. A pid
    means something only in its own pid namespace: containers must not share a work_dir (each
    has its own /tmp by default)."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(work_dir or tempfile.gettempdir()))
    except OSError:
        return removed
    for entry in entries:
        pid, sep, _ = entry.name.removeprefix(JOB_PREFIX).partition("-")
        # names without a pid (before 2026-11-30) or not ours: left alone
        if not entry.name.startswith(JOB_PREFIX) or not sep or not pid.isdigit():
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or entry.stat().st_uid != os.geteuid():
                continue
        except OSError:
            continue
        if not _alive(int(pid)):
            folders.remove(Path(entry.path))  # its capped folders unmounted first
            removed.append(Path(entry.path))
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: alive
        return True
    return True


@dataclass(frozen=True)
class Paths:
    job: Path
    out: Path
    sandboxed: bool
    # A Triton cache kept between gradings of the same source text (see source_cache()); None:
    # this grading's own, removed with it.
    kept_cache: Path | None = None
    # Mount /out and the grading's own cache as tmpfs of this many bytes each (folders.py).
    cap: int | None = None
    # With `cap`: a kept cache copied into the capped one, and back by keep_cache().
    seed_cache: Path | None = None

    def inside(self, name: str) -> str:
        return f"/job/{name}" if self.sandboxed else str(self.job / name)

    @property
    def cache(self) -> Path:
        return self.kept_cache or self.job.parent / "cache"

    @property
    def cache_inside(self) -> str:
        return "/cache" if self.sandboxed else str(self.cache)

    @property
    def out_inside(self) -> str:
        return "/out" if self.sandboxed else str(self.out)

    @property
    def harness(self) -> str:
        return "/kgrade/harness" if self.sandboxed else str(HARNESS_DIR)

    @property
    def problem(self) -> str:
        return "/kgrade/checkpoint/problem.py"


class _Inputs:
    """Appends tensors to inputs.bin and returns the argument specs that point at them."""

    def __init__(self, fp: Any) -> None:
        self.fp = fp
        self.count = 0

    def add(self, args: list[Arg]) -> list[dict[str, int | float]]:
        specs: list[dict[str, int | float]] = []
        for a in args:
            if isinstance(a, torch.Tensor):
                wire.write_tensors(self.fp, [a])
                specs.append({"tensor": self.count})
                self.count += 1
            else:
                specs.append({"value": a})
        return specs


def write(
    paths: Paths,
    source: str,
    checkpoint: Checkpoint,
    device: str,
    runs: list[PlannedRun],
    shapes: list[BenchShape],
    *,
    max_configs: int,
    flush_bytes: int = 0,
    profile_impls: list[str] | None = None,
    with_submission: bool = True,
    force_configs: dict[str, str] | None = None,
    job_file: str = JOB_FILE,
) -> None:
    """Write the child's job. Without the submission (`with_submission=False`) the child
    imports nothing of the student's: the baselines' profile is measured that way, so that no
    submission can touch what other gradings will be compared with. `force_configs`: the
    Nsight replay runs, per autotuned kernel, the config its autotuners picked while timed.
    `job.json` comes last and whole (a child started early waits for it)."""
    prepare(paths, source if with_submission else None)
    d = checkpoint.definition
    with open(paths.job / "inputs.bin", "wb") as fp:
        inputs = _Inputs(fp)
        run_specs: list[dict[str, Any]] = []
        for r in runs:
            run_spec: dict[str, Any] = {"id": r.id, "args": inputs.add(r.inputs)}
            if r.sample is not None:
                run_spec["sample"] = inputs.add([r.sample])[0]["tensor"]
            run_specs.append(run_spec)
        shape_specs = [
            _shape_spec(s, inputs, profile_impls is not None, with_submission, d) for s in shapes
        ]
    spec: dict[str, Any] = {
        "entry": d.entry,
        "submission": paths.inside("submission.py") if with_submission else None,
        "inputs": paths.inside("inputs.bin"),
        "device": device,
        "allowed_ops": d.allowed_torch_ops,
        "poison": d.poison,
        "max_configs": max_configs,
        "runs": run_specs,
    }
    if shapes:
        gpu = {
            "problem": paths.problem if paths.sandboxed else str(checkpoint.folder / "problem.py"),
            "baselines": checkpoint.timed_baselines(),
            "flush_bytes": flush_bytes,
            "shapes": shape_specs,
        }
        if profile_impls is not None:
            spec["profile"] = {**gpu, "impls": profile_impls, "force": force_configs or {}}
        else:
            spec["bench"] = gpu
    (paths.job / "inputs.bin").chmod(0o644)
    _publish(paths, spec, job_file)


def _shape_spec(
    s: BenchShape, inputs: _Inputs, profile: bool, with_submission: bool, d: Any
) -> dict[str, Any]:
    """One benchmark shape in the job: for the timed rounds, or for the Nsight replay."""
    return {
        "id": s.id,
        "name": s.case.name,
        # fresh rounds draw their own inputs on the GPU: the sets go to the replay only
        "sets": [inputs.add(a) for a in s.sets] if s.seeds is None or profile else [],
        "rounds": s.rounds,
        "warmup": s.warmup,
        "verify": s.verify,
        **(
            {
                "fresh": {
                    "seeds": s.seeds,
                    "sample_seed": s.sample_seed,
                    "families": s.families,
                    "samples": SAMPLES,
                    "case": s.case.model_dump(),
                }
            }
            if s.seeds is not None
            else {}
        ),
        # the Nsight replay's submission first makes the calls a grading makes before its
        # timed ones (bench.profile_replay)
        **({"mimic": _mimic(d)} if profile and with_submission else {}),
    }


def _mimic(d: Any) -> list[dict[str, Any]]:
    """The correctness calls of a GPU grading, by case (each drawn draws_per_case times)."""
    cases = d.gpu_cases or d.interpreter_cases
    return [c.model_dump() for c in cases for _ in range(d.draws_per_case)]


def prepare(paths: Paths, source: str | None, lines: list[int] | None = None) -> None:
    """The folders the child's sandbox mounts, and the submission's file: all the child needs
    to start (it then waits for `job.json`). `source` is the program the static check
    regenerated from the checked tree (never the submission's own bytes); `lines` maps each of
    its lines to the submission's (`submission.lines.json`), for the child's messages."""
    paths.job.mkdir(parents=True, exist_ok=True)
    paths.out.mkdir(parents=True, exist_ok=True)
    fresh_cache = not os.path.ismount(paths.cache)
    if paths.cap is not None:
        for folder in (paths.out, paths.cache):
            if not folders.mount_tmpfs(folder, paths.cap):
                raise OSError(f"cannot mount a size-capped tmpfs on {folder}")
    paths.job.chmod(0o755)
    paths.out.chmod(0o777)  # ncu writes here as the sandbox's user
    _private_to_child(paths.cache, paths.sandboxed)
    if paths.seed_cache is not None and fresh_cache and paths.seed_cache.is_dir():
        owner = bwrap.NOBODY if paths.sandboxed and os.geteuid() == 0 else None
        folders.copy_plain(paths.seed_cache, paths.cache, owner)
    submission = paths.job / "submission.py"
    if source is not None and not submission.exists():  # once a grading: the replay reuses it
        submission.write_text(source, encoding="utf-8")
        submission.chmod(0o644)
        if lines is not None:
            mapped = paths.job / "submission.lines.json"
            mapped.write_text(json.dumps(lines))
            mapped.chmod(0o644)


def _publish(paths: Paths, spec: dict[str, Any], job_file: str) -> None:
    part = paths.job / f"{job_file}.part"
    part.write_text(json.dumps(spec))
    part.chmod(0o644)
    os.replace(part, paths.job / job_file)


def _private_to_child(folder: Path, sandboxed: bool) -> None:
    """A folder only the sandbox's user (and root) can read or write."""
    folder.mkdir(parents=True, exist_ok=True)
    if sandboxed and os.geteuid() == 0:
        os.chown(folder, bwrap.NOBODY, bwrap.NOBODY)
    folder.chmod(0o700)


KEPT_CACHE_LIMIT = 256 << 20


def source_cache(cache_dir: Path, source: str, device: str) -> Path:
    """Where gradings of exactly this source keep their Triton cache.

    Re-grading the same file (a new explanation, a second grading for the spread, a class
    submitting the starter) then skips compiling every autotune config again. Only the child
    writes there, and every child that mounts it runs this very source, so nothing one
    submission leaves in it can reach a different submission."""
    import triton

    gpu = torch.cuda.get_device_name() if device == "cuda" else "cpu"
    key = f"{source}\0{device}\0{gpu}\0{triton.__version__}\0{torch.__version__}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    cache_dir.mkdir(parents=True, exist_ok=True)
    (cache_dir / "triton-by-source").mkdir(mode=0o700, exist_ok=True)
    return cache_dir / "triton-by-source" / digest


def remove_root(root: Path) -> None:
    """Remove a grading's folder, its capped folders unmounted first."""
    folders.remove(root)


def keep_cache(paths: Paths) -> None:
    """Copy the grading's capped cache back to the kept one (`seed_cache`), whole, links left
    out; another worker grading the same source may replace it meanwhile (either is whole)."""
    kept = paths.seed_cache
    if kept is None or kept == paths.cache or not paths.cache.is_dir():
        return
    part = kept.with_name(f"{kept.name}.part-{os.getpid()}")
    shutil.rmtree(part, ignore_errors=True)
    try:
        folders.copy_plain(paths.cache, part)
        part.chmod(0o700)
        old = kept.with_name(f"{kept.name}.old-{os.getpid()}")
        with contextlib.suppress(FileNotFoundError):
            os.replace(kept, old)
        os.replace(part, kept)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(part, ignore_errors=True)


def trim_kept_cache(folder: Path) -> None:
    """Drop a kept cache that grew past KEPT_CACHE_LIMIT (a source that fills it on purpose)."""
    total = 0
    for root, _dirs, files in os.walk(folder):
        for f in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, f)).st_size
    if total > KEPT_CACHE_LIMIT:
        shutil.rmtree(folder, ignore_errors=True)


def child_spec(
    paths: Paths,
    checkpoint: Checkpoint | None,
    device: str,
    env: dict[str, str],
    prefix: list[str] | None = None,
    extra_mounts: list[bwrap.Mount] | None = None,
    job_file: str = JOB_FILE,
) -> bwrap.Spec:
    argv = [
        *(prefix or []),
        sys.executable,
        "-I",
        "-B",
        f"{paths.harness}/child.py",
        paths.inside(job_file),
        "{RESULT_FD}",
    ]
    mounts = [
        bwrap.Mount(paths.job, "/job"),
        bwrap.Mount(paths.out, "/out", writable=True),
        # The Triton cache: this grading's runs (correctness + benchmark, then the Nsight
        # replay) share it, and so do later gradings of the very same source (source_cache).
        bwrap.Mount(paths.cache, "/cache", writable=True),
        bwrap.Mount(HARNESS_DIR, "/kgrade/harness"),
        *(extra_mounts or []),
    ]
    if device == "cuda" and checkpoint is not None:  # the baselines; a CPU child never reads it
        mounts.append(bwrap.Mount(checkpoint.folder / "problem.py", paths.problem))
    # A GPU grading's child takes turns with the parent while timed (turns.py): the parent's
    # word comes on its stdin. The Nsight replay's (a profile job) does not.
    control = device == "cuda" and job_file == JOB_FILE
    return bwrap.Spec(argv=argv, env=env, mounts=mounts, gpu=device == "cuda", control=control)


def child_env(device: str, paths: Paths) -> dict[str, str]:
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


def write_profile(
    paths: Paths,
    source: str,
    checkpoint: Checkpoint,
    shapes: list[BenchShape],
    max_configs: int,
    impls: list[str],
    with_submission: bool,
    force_configs: dict[str, str],
    shape_id: int | None = None,
) -> Paths:
    """The Nsight replay's job: in this grading's folders, or, for the baselines alone, in
    folders of their own with a Triton cache no submission has written to. `shape_id`: the
    shape to profile (default: the last timed, whose autotuner picks `force_configs` are)."""
    profiled = [s for s in shapes if s.id == shape_id] or shapes[-1:]
    if profiled and profiled[0] is not shapes[-1]:
        force_configs = {}  # the picks named are the last shape's: this one tunes again
    if not with_submission:
        own = paths.job.parent / "baselines"
        paths = Paths(own / "job", own / "out", paths.sandboxed, cap=paths.cap)
    write(
        paths,
        source,
        checkpoint,
        "cuda",
        [],
        profiled,
        max_configs=max_configs,
        profile_impls=impls,
        with_submission=with_submission,
        force_configs=force_configs if with_submission else None,
        job_file=PROFILE_JOB_FILE,
    )
    return paths
