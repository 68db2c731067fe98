"""The program that runs inside the sandbox: import the submission, call its entry on the
inputs the parent prepared, send the outputs back. It decides nothing.

Usage (the parent builds this command): python -I child.py JOB_JSON RESULT_FD
"""

from __future__ import annotations

import json
import os
import random
import select
import sys
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent.parent))  # after the stdlib

import torch
from harness import (
    fenced,
    guards,
    interp_args,
    interp_bf16,
    interp_libdevice,
    interp_names,
    interp_order,
    timing,
    wire,
)
from harness.module_state import MAX_DEPTH, MAX_STATE, OVERFLOW, state_changed, state_print

MAX_MESSAGE = 2000
# The program run is the one the parent regenerated from the checked tree; this maps each of
# its lines to the line of the student's file (submission.lines.json), for messages.
LINES: list[int] = []
# the submission's module and its state right after import: every call must leave it so
STATE: dict[str, Any] = {}


def _load_lines(submission: str | None) -> None:
    if submission is None:
        return
    try:
        mapped = json.loads(Path(submission).with_suffix(".lines.json").read_text())
    except (OSError, ValueError):
        return
    if isinstance(mapped, list) and all(type(n) is int for n in mapped):
        LINES[:] = mapped


def source_line(n: int | None) -> int | None:
    """The student's line of the program's line `n`."""
    if n is not None and 1 <= n <= len(LINES) and LINES[n - 1]:
        return LINES[n - 1]
    return n


def describe(exc: BaseException, submission: str) -> dict[str, Any]:
    """A short, student-facing description: type, message, and the submission's own lines."""
    kind = type(exc).__name__
    if (gpu_only := interp_libdevice.gpu_only(exc)) is not None:  # not an error: left to the GPU
        message = f"{interp_libdevice.label(gpu_only)} cannot run under Triton's interpreter"
        return {"kind": "GpuOnly", "compile": False, "gpu_only": gpu_only, "message": message}
    lines = [
        f"line {source_line(fr.lineno)}: {fr.line}"
        for fr in traceback.extract_tb(exc.__traceback__)
        if fr.filename == submission
    ]
    message = f"{kind}: {exc}".strip()
    if lines:
        message += "\n  at " + "\n  at ".join(lines[-3:])
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 20] + "\n  … (trimmed)"
    # Under the interpreter, Triton's front end raises plain exceptions from triton/language:
    # those are what the compiler would have refused, so they count as compile errors too.
    in_frontend = False
    link: BaseException | None = exc
    while link is not None and not in_frontend:
        frames = traceback.extract_tb(link.__traceback__)
        in_frontend = bool(frames) and any(
            part in frames[-1].filename for part in ("/triton/language/", "/triton/compiler/")
        )
        link = link.__cause__ or link.__context__
    compile_like = (
        "CompilationError" in kind or kind in {"SyntaxError", "IndentationError"} or in_frontend
    )
    return {"kind": kind, "compile": compile_like, "message": message}


def _sample(result: torch.Tensor, positions: torch.Tensor) -> torch.Tensor | None:
    """The output at the parent's sample positions; None (send it whole) if it cannot be."""
    if result.numel() <= int(positions.max()):
        return None
    return result.flatten()[positions.to(result.device)]


def _phase(out: Any, name: str, since: float) -> float:
    """Tell the parent how long a phase took (it shows it, it judges nothing by it)."""
    now = time.monotonic()
    wire.write_frame(out, {"type": "phase", "name": name, "seconds": now - since})
    return now


def _state_refusals() -> list[str]:
    """After a call: what it left different in the module's state, or that the state could not
    be read whole (then no call passes)."""
    if not STATE:
        return []
    changed = state_changed(STATE["print"], STATE["module"])
    kept = (
        [
            f"a change to module-level state between calls ({', '.join(sorted(changed)[:3])}): "
            "host code keeps no state (docs/SUBMISSIONS.md)"
        ]
        if changed
        else []
    )
    if OVERFLOW in STATE["print"]:
        kept.append(
            "the module-level state is too large to check that calls keep none ("
            + ", ".join(STATE["print"][OVERFLOW])
            + f": at most {MAX_STATE} objects, {MAX_DEPTH} levels deep, tensors of 64 MiB): "
            "keep module-level data small and flat, and build the rest in the entry"
        )
    return kept


class ImportLaunch(RuntimeError):
    """A kernel launched while the submission was being imported."""


WAIT_LIMIT = 7200.0  # seconds; a spare retires after one hour (grader.pipeline.Spare)


def _reader_gone(result_fd: int) -> bool:
    """The parent's end of the result pipe is closed: the parent is gone (a pipe's write end
    polls POLLERR then)."""
    p = select.poll()
    p.register(result_fd, select.POLLOUT)
    return any(ev & select.POLLERR for _, ev in p.poll(0))


def wait_for_job(path: Path, result_fd: int) -> dict[str, Any] | None:
    """The parent starts this process while it still draws the inputs (or, a spare, before its
    grading exists); it publishes job.json whole (a rename) once they are written (and kills
    this process if it cannot). Polls every 5 ms for 2 s, then every 50 ms: a spare may wait
    for minutes, and its CPU time counts against its limit. None (give up) when the parent's
    end of the result pipe is closed, the job folder has been deleted, or after WAIT_LIMIT: a
    parent that is gone without killing this process leaves nothing waiting. (Killed while
    bubblewrap starts, a parent can leave bubblewrap's inner process orphaned and alive.)"""
    waited = time.monotonic()
    while not path.exists():
        idle = time.monotonic() - waited
        if _reader_gone(result_fd) or (
            idle > 2 and (os.stat(path.parent).st_nlink == 0 or idle > WAIT_LIMIT)
        ):
            return None
        time.sleep(0.005 if idle < 2 else 0.05)
    job: dict[str, Any] = json.loads(path.read_text())
    return job


def main() -> int:
    started = time.monotonic()
    out = os.fdopen(int(sys.argv[2]), "wb")
    torch.manual_seed(0)  # the submission's own randomness is not the parent's secret seed

    counter, forcer = guards.LaunchCounter(), guards.ConfigForcer()
    guards.install(counter, forcer)
    interp_bf16.install()  # under the interpreter only: bf16 computed as on a GPU
    interp_libdevice.install()  # under the interpreter only: libdevice computed with numpy
    interp_order.install()  # under the interpreter only: a grid's programs in a drawn order
    interp_args.install()  # under the interpreter only: scalar arguments typed as on a GPU
    with guards.TorchGuard(set(), 0.0):  # first entry imports torch machinery: do it now
        torch.empty(1).add(1)
    waiting = time.monotonic()
    job = wait_for_job(Path(sys.argv[1]), out.fileno())
    if job is None:
        return 0
    started += _phase(out, "wait", waiting) - waiting  # "start" leaves the wait out
    submission = job["submission"]
    _load_lines(submission)

    with open(job["inputs"], "rb") as fp:
        inputs = wire.read_tensors(fp, max_total=1 << 40)

    import importlib.util

    entry: Any = None  # a job without a submission profiles the baselines alone
    try:
        if submission is not None:
            spec = importlib.util.spec_from_file_location("submission", submission)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules["submission"] = module
            spec.loader.exec_module(module)
            # under the interpreter: `from triton.language import load` called by its name
            interp_names.install(module)
            entry = getattr(module, job["entry"])
            if counter.launches:  # a launch at import: Triton's interpreter fills the module
                raise ImportLaunch(  # with its own globals then, before the file's own
                    "the file launched a kernel while being imported: launch kernels from "
                    "the entry only"
                )
    except BaseException as exc:  # the submission may raise anything, SystemExit included
        wire.write_frame(out, {"type": "error", "stage": "import", **describe(exc, submission)})
        return 0
    wire.write_frame(out, {"type": "ready"})
    if submission is not None:
        STATE["module"] = module
        STATE["print"] = state_print(module)
        counter.remember(module)
        forcer.watch(module)
    mark = _phase(out, "start", started)

    if not job.get("profile"):
        run_cases(job, out, entry, inputs, counter, forcer, submission)
    if job["runs"] and not job.get("profile"):
        mark = _phase(out, "cases", mark)
    if job.get("bench") or job.get("profile"):
        gpu_stage(job, out, entry, inputs, counter, forcer, submission)
        _phase(out, "bench" if job.get("bench") else "profile", mark)
    wire.write_frame(out, {"type": "done"})
    out.close()
    return 0


def run_cases(
    job: dict[str, Any],
    out: Any,
    entry: Any,
    inputs: list[torch.Tensor],
    counter: guards.LaunchCounter,
    forcer: guards.ConfigForcer,
    submission: str,
) -> None:
    """Every run under every autotune config, config by config, the runs of each config in an
    order drawn here (the submission cannot see it): a config's call no longer follows the
    previous config's call on the same inputs, so handing back the output an earlier config
    computed is wrong unless the submission guesses which run comes (two draws per case share
    a shape: about one chance in two per case)."""
    device = job["device"]
    runs = job["runs"]
    # one copy on the device per run; each call gets a fresh device-side clone of it
    pristine = {
        run["id"]: [
            inputs[a["tensor"]].to(device) if "tensor" in a else a["value"] for a in run["args"]
        ]
        for run in runs
    }
    totals = {run["id"]: 1 for run in runs}  # a run's pruned configs, once its first call ran
    index, order = 0, random.SystemRandom()
    while index < min(max(totals.values(), default=0), job["max_configs"]):
        todo = [run for run in runs if index < totals[run["id"]]]
        order.shuffle(todo)
        for run in todo:
            if not _one_call(
                job,
                out,
                entry,
                inputs,
                run,
                pristine[run["id"]],
                index,
                counter,
                forcer,
                submission,
            ):
                totals[run["id"]] = 0  # an error: no more configs for this run
            elif index == 0:  # past the cap its first call is refused: no use running more
                totals[run["id"]] = forcer.count if forcer.count <= job["max_configs"] else 0
        index += 1


def _one_call(
    job: dict[str, Any],
    out: Any,
    entry: Any,
    inputs: list[torch.Tensor],
    run: dict[str, Any],
    pristine: list[Any],
    index: int,
    counter: guards.LaunchCounter,
    forcer: guards.ConfigForcer,
    submission: str,
) -> bool:
    """One call of the entry, under config `index`; its frame sent. False: it raised."""
    device = job["device"]
    forcer.reset(index)
    counter.launches, counter.refused, counter.touched, counter.raised = 0, [], set(), []
    # under the interpreter, the parent compiles what every config launched
    counter.record = device == "cpu"
    # on a GPU, at fresh addresses exactly as a timed call's (timing.place); on the CPU at the
    # end of a protected page (fenced.py), where nothing is timed
    if device == "cpu":
        args = [fenced.clone(a) if isinstance(a, torch.Tensor) else a for a in pristine]
    else:
        args = timing.place(pristine)
    guard = guards.TorchGuard(
        set(job["allowed_ops"]),
        job["poison"],
        device == "cpu",
        inputs=args,
        launched=counter.touched,
    )
    header: dict[str, Any] = {"run": run["id"], "config_index": index}
    try:
        with guard:
            result = entry(*args)
        if device == "cuda":
            torch.cuda.synchronize()
    except BaseException as exc:
        header.update(type="run_error", **describe(exc, submission))
        header.update(configs=list(forcer.seen.values()), used=forcer.used)
        header.update(forbidden=guard.forbidden + counter.refused)
        header.update(launched=counter.take())
        wire.write_frame(out, header)
        return False
    kept = _state_refusals()
    if forcer.count > job["max_configs"]:  # the configs past the cap would go unchecked
        what = f"{forcer.count} autotune configs after pruning"
        if len(forcer.sizes) > 1:  # a GPU tunes each autotuned launch on its own
            sizes = " × ".join(map(str, forcer.sizes))
            what = f"{forcer.count} combinations of autotune configs ({sizes}, one per launch)"
        kept.append(
            f"{what}, more than the {job['max_configs']} a grading runs and checks: prune "
            "them (fewer configs, or early_config_prune)"
        )
    if counter.raised:  # the entry caught a failed launch and went on
        kept.append(f"a launch raised ({counter.raised[0]}) and your entry caught it and went on")
    header.update(
        configs=list(forcer.seen.values()),
        used=forcer.used,
        launches=counter.launches,
        forbidden=guard.forbidden + counter.refused + kept,
        launched=counter.take(),
    )
    if type(result) is not torch.Tensor:
        header.update(type="bad_output", message=f"returned {type(result).__name__}")
        wire.write_frame(out, header)
    elif (
        index > 0
        and "sample" in run
        and (picked := _sample(result, inputs[run["sample"]])) is not None
    ):
        header.update(type="result", sampled=True, full=wire.tensor_meta(result))
        header["tensor"] = wire.tensor_meta(picked)
        wire.write_frame(out, header, wire.tensor_bytes(picked))
    else:
        header.update(type="result", tensor=wire.tensor_meta(result))
        wire.write_frame(out, header, wire.tensor_bytes(result))
    return True


def gpu_stage(
    job: dict[str, Any],
    out: Any,
    entry: Any,
    inputs: list[torch.Tensor],
    counter: guards.LaunchCounter,
    forcer: guards.ConfigForcer,
    submission: str,
) -> None:
    """Benchmark (or profile) with the autotuner free to pick, and no guard overhead. The
    benchmark ends by saying which config each autotuner picked for the last shape; the
    Nsight replay of that shape runs those configs (`force`) rather than tuning again."""
    from harness import bench

    forcer.index = None
    counter.active = False
    spec = job.get("bench") or job["profile"]
    baselines = bench.load_baselines(spec["problem"], spec["baselines"])
    if job.get("profile"):
        forcer.labels = dict(spec.get("force") or {})
        problem = bench.load_problem(spec["problem"]) if entry is not None else None
        shape = {**spec["shapes"][0], "flush_bytes": spec["flush_bytes"]}
        timed = _forgetting(entry, forcer) if entry is not None else None
        bench.profile_replay(timed, baselines, shape, inputs, spec["impls"], out, problem)
        wire.write_frame(out, {"type": "profiled", "configs": list(dict.fromkeys(forcer.used))})
        return
    problem = bench.load_problem(spec["problem"])
    for shape in spec["shapes"]:
        try:
            if "fresh" in shape:  # the parent times the baselines, taking turns (turns.py)
                control = sys.stdin.buffer
                bench.benchmark_fresh(
                    out, control, _forgetting(entry, forcer), problem, shape, spec["flush_bytes"]
                )
            else:
                bench.benchmark(
                    out, _forgetting(entry, forcer), baselines, shape, inputs, spec["flush_bytes"]
                )
        except BaseException as exc:
            frame = {"type": "bench_error", "shape": shape["id"], **describe(exc, submission)}
            wire.write_frame(out, frame)
            return
    wire.write_frame(out, {"type": "tuned", "configs": forcer.picked()})


def _forgetting(entry: Any, forcer: guards.ConfigForcer) -> Any:
    """The entry as a timed round calls it: after every autotuner's `best_config` is forgotten,
    as before every checked call (`ConfigForcer.reset`): every call looks the same."""

    def call(*args: Any) -> Any:
        forcer.forget_best()
        return entry(*args)

    return call


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)  # skip interpreter teardown: the submission's atexit hooks get no say
