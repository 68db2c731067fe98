"""A checkpoint's `problem.py`, called from the trusted side but run in a sandbox of its own.

`problem.py` is an admin's code: it draws the inputs, computes the references, counts the
bytes and FLOPs and defines the baselines. No process that holds the service's secrets
imports it (the API, the workers): each checkpoint version gets one warm sandboxed process
(`harness/problem_server.py` under bubblewrap: no network, no host files but the OS, Python,
the harness and this one file, read-only; a private /tmp; `nobody`), apart from any
submission's, and `Problem` is its proxy: the functions the grader calls on a checkpoint,
answered with tensors and numbers in the wire format (no pickle), as a submission's are.

A process is kept per (problem.py's path and content, GPU or not, sandboxed or not), so a
precheck worker starts it once per checkpoint version and every later grading finds it warm;
one whose problem.py changed is replaced, and at most MAX_WARM are kept (the least recently
used is stopped). `attach` gives a grading's checkpoint its proxy; a checkpoint used without
one gets the default (sandboxed; on the GPU where there is one).
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import hashlib
import os
import queue
import subprocess
import sys
import threading
import time
from collections import Counter, OrderedDict
from pathlib import Path
from typing import IO, Any

import torch

from grader import authoring, checkpoints
from grader.checkpoints import Arg, Checkpoint, CheckpointError, Declared
from grader.models import CaseSpec
from grader.plan import inputs as plan_inputs
from grader.sandbox import bwrap
from grader.sandbox.harness import wire
from grader.text import untrusted

HARNESS_DIR = Path(__file__).resolve().parent / "harness"
INPUTS_PY = Path(plan_inputs.__file__).resolve()
MAX_WARM = 4
MAX_AGE = 3600.0  # then it is started again (its CPU-time limit counts from its start)
START_SECONDS = 180.0  # Python and torch starting, problem.py imported (on a busy host)
REQUEST_SECONDS = 600.0  # one answer (a float64 reference of a large case on the CPU)


class ProblemError(CheckpointError):
    """problem.py raised, returned something it may not, or its process failed."""


class Problem:
    """The proxy of one warm sandboxed process running one problem.py."""

    def __init__(self, problem_py: Path, gpu: bool, sandboxed: bool, limits: bwrap.Limits) -> None:
        self.problem_py = problem_py
        self.gpu, self.sandboxed = gpu, sandboxed
        self.born = time.monotonic()
        self._lock = threading.Lock()
        self._answers: queue.Queue[tuple[dict[str, Any], bytes | bytearray] | None] = queue.Queue()
        self._proc: subprocess.Popen[bytes] | None = None
        self._started = threading.Event()
        self._abort = threading.Event()
        self._never = threading.Event()  # its wall clock never runs: each request has its own
        self._declared: Declared | None = None
        self.asked: Counter[str] = Counter()  # requests made, by op (what a grading costs)
        self._load_error: CheckpointError | None = None
        self.outcome: bwrap.RunOutcome | None = None
        self._limits = dataclasses.replace(limits, wall_seconds=MAX_AGE)
        self._thread = threading.Thread(target=self._run, name="kgrade-problem", daemon=True)
        self._thread.start()

    # --- the process -----------------------------------------------------------------------------
    def _spec(self) -> bwrap.Spec:
        inside = self.sandboxed
        harness = "/kgrade/harness" if inside else str(HARNESS_DIR)
        problem = "/kgrade/checkpoint/problem.py" if inside else str(self.problem_py)
        inputs_py = "/kgrade/lib/inputs.py" if inside else str(INPUTS_PY)
        argv = [sys.executable, "-I", "-B", f"{harness}/problem_server.py", problem]
        threads = str(plan_inputs.usable_cpus())
        env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": "/tmp",
            "LANG": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1",
            "TRITON_CACHE_DIR": "/tmp/triton",
            "TORCHINDUCTOR_CACHE_DIR": "/tmp/inductor",
            "OMP_NUM_THREADS": threads,
            "USER": "nobody",
            "CUDA_VISIBLE_DEVICES": "",
        }
        if self.gpu:
            env.pop("CUDA_VISIBLE_DEVICES")
            if "CUDA_VISIBLE_DEVICES" in os.environ:
                env["CUDA_VISIBLE_DEVICES"] = os.environ["CUDA_VISIBLE_DEVICES"]
        mounts = [
            bwrap.Mount(HARNESS_DIR, "/kgrade/harness"),
            bwrap.Mount(self.problem_py, "/kgrade/checkpoint/problem.py"),
            bwrap.Mount(INPUTS_PY, "/kgrade/lib/inputs.py"),
        ]
        return bwrap.Spec(
            argv=[*argv, "{RESULT_FD}", inputs_py],
            env=env,
            mounts=mounts if inside else [],
            gpu=self.gpu,
            control=True,
        )

    def _run(self) -> None:
        try:
            self.outcome = bwrap.run(
                self._spec(),
                self._limits,
                self._read,
                sandboxed=self.sandboxed,
                clock_from=self._never,
                abort=self._abort,
                on_start=self._on_start,
            )
        except Exception as exc:  # it could not be started: every request is told so
            self._load_error = ProblemError(f"its sandbox could not be started: {exc}")
        finally:
            self._started.set()
            self._answers.put(None)

    def _on_start(self, proc: subprocess.Popen[bytes]) -> None:
        self._proc = proc
        self._started.set()

    def _read(self, fp: IO[bytes]) -> None:
        cap = self._limits.result_bytes

        def within(header: dict[str, Any], size: int) -> bool:
            if size > cap:
                raise wire.WireError("an answer exceeds the result size limit")
            return True

        for frame in wire.read_frames(fp, 1 << 62, within):
            self._answers.put(frame)
        self._answers.put(None)

    def alive(self) -> bool:
        return (
            self._thread.is_alive()
            and not self._abort.is_set()
            and time.monotonic() - self.born < MAX_AGE
        )

    def close(self) -> None:
        self._abort.set()
        self._thread.join(timeout=30)

    # --- requests --------------------------------------------------------------------------------
    def _next(self, timeout: float) -> tuple[dict[str, Any], bytes | bytearray]:
        try:
            frame = self._answers.get(timeout=timeout)
        except queue.Empty:
            self.close()
            raise ProblemError(f"problem.py gave no answer within {timeout:.0f} s") from None
        if frame is None:
            self._answers.put(None)  # every later request sees it too
            raise ProblemError(f"problem.py's process ended{self._why_ended()}")
        return frame

    def _why_ended(self) -> str:
        self._thread.join(timeout=5)
        o = self.outcome
        if self._load_error:
            return f": {self._load_error}"
        if o is None:
            return ""
        if o.memory_exceeded:
            return " (it used more memory than its limit)"
        if o.reader_error:
            return f" ({o.reader_error})"
        tail = o.output.strip().splitlines()[-1:] if o.output else []
        return f" (exit {o.returncode}{': ' + tail[0][:300] if tail else ''})"

    def _answer(self, timeout: float) -> tuple[Any, list[torch.Tensor]]:
        header, _ = self._next(timeout)
        if header.get("load") is True:  # problem.py raised while it was imported
            line = header.get("line")
            what = untrusted(str(header.get("error", "")))[:2000]
            raise authoring.AuthoringError(
                "problem.py",
                f"does not load: it raised {what}",
                line if isinstance(line, int) and not isinstance(line, bool) else None,
            )
        if header.get("ok") is not True:
            raise ProblemError(untrusted(str(header.get("error", "problem.py failed"))[:2000]))
        count = header.get("n", 0)
        if not isinstance(count, int) or not 0 <= count <= 4096:
            raise ProblemError("problem.py's process sent a malformed answer")
        tensors = []
        for _ in range(count):
            h, payload = self._next(timeout)
            try:
                tensors.append(wire.decode_tensor(h.get("tensor"), payload))
            except wire.WireError as exc:
                raise ProblemError(f"problem.py's process sent a malformed tensor: {exc}") from exc
        return header.get("result"), tensors

    def declared(self) -> Declared:
        """What problem.py defines (its functions, its baselines' names and kinds), as its
        process reported after importing it; ProblemError if it does not load."""
        with self._lock:
            if self._declared is None and self._load_error is None:
                try:
                    result, _ = self._answer(START_SECONDS)
                    self._declared = _as_declared(result)
                except CheckpointError as exc:
                    self._load_error = exc
            if self._load_error is not None:
                raise self._load_error
            assert self._declared is not None
            return self._declared

    def call(
        self, op: str, tensors: list[torch.Tensor] | None = None, **fields: Any
    ) -> tuple[Any, list[torch.Tensor]]:
        """One request and its answer."""
        self.declared()
        tensors = tensors or []
        with self._lock:
            self.asked[op] += 1
            fp = self._proc.stdin if self._proc is not None else None
            if fp is None:
                raise ProblemError("problem.py's process is not running")
            try:
                wire.write_frame(fp, {"op": op, "n": len(tensors), **fields})
                for t in tensors:
                    wire.write_frame(fp, {"tensor": wire.tensor_meta(t)}, wire.tensor_bytes(t))
            except (BrokenPipeError, OSError) as exc:
                raise ProblemError(
                    f"problem.py's process stopped listening{self._why_ended()}"
                ) from exc
            return self._answer(REQUEST_SECONDS)

    # --- what Checkpoint asks (grader/checkpoints.py's ProblemCode) ------------------------------
    def make_inputs(self, case: CaseSpec, gen: torch.Generator) -> list[Arg]:
        fields = {"case": case.model_dump(), "device": gen.device.type}
        result, tensors = self.call("make_inputs", [gen.get_state()], **fields)
        if not tensors or not isinstance(result, dict) or not isinstance(result.get("args"), list):
            raise ProblemError("problem.py's process sent a malformed answer")
        gen.set_state(tensors.pop())
        return _args(result["args"], tensors, self.gpu)

    def draw(
        self, case: CaseSpec, gen: torch.Generator, device: str, counts: tuple[str, ...] = ()
    ) -> tuple[list[Arg], torch.Tensor, dict[str, int | None]]:
        """make_inputs, the reference (computed on `device`, returned on the CPU) and the
        counts named (minimal_bytes, flops: None where problem.py defines none) in one
        request: the inputs cross the pipe once instead of once per question."""
        fields = {
            "case": case.model_dump(),
            "device": gen.device.type,
            "reference_on": device,
            "counts": list(counts),
        }
        result, tensors = self.call("draw", [gen.get_state()], **fields)
        if len(tensors) < 2 or not isinstance(result, dict):
            raise ProblemError("problem.py's process sent a malformed answer")
        gen.set_state(tensors.pop())
        reference = tensors.pop()
        got = result.get("counts")
        if not isinstance(result.get("args"), list) or not isinstance(got, dict):
            raise ProblemError("problem.py's process sent a malformed answer")
        counted: dict[str, int | None] = {}
        for name in counts:
            value = got.get(name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise ProblemError(f"problem.py's {name} did not return an integer")
            counted[name] = value
        return _args(result["args"], tensors, self.gpu), reference, counted

    def reference(self, inputs: list[Arg]) -> torch.Tensor:
        specs, tensors = _specs(inputs)
        _, got = self.call("reference", tensors, args=specs)
        if len(got) != 1:
            raise ProblemError("problem.py's reference gave no tensor")
        on = next((a.device for a in inputs if isinstance(a, torch.Tensor) and a.is_cuda), None)
        return got[0].to(on) if on is not None else got[0]

    def count(self, fn: str, inputs: list[Arg], output: torch.Tensor) -> int | None:
        specs, tensors = _specs([*inputs, output])
        result, _ = self.call("count", tensors, fn=fn, args=specs)
        if result is not None and (isinstance(result, bool) or not isinstance(result, int)):
            raise ProblemError(f"problem.py's {fn} did not return an integer")
        return result

    def shortcuts(self, inputs: list[Arg]) -> dict[str, torch.Tensor]:
        """problem.py's SHORTCUTS (the approximate answers its tolerance must refuse), each
        computed there on `inputs`: {name: output}."""
        specs, tensors = _specs(inputs)
        result, got = self.call("shortcuts", tensors, args=specs)
        if not isinstance(result, list) or len(result) != len(got):
            raise ProblemError("problem.py's process sent a malformed answer")
        return {str(name): t for name, t in zip(result, got, strict=True)}

    # --- a GPU grading's baselines, run and timed in this process (gpu/turns.py, compiled.py) --
    def warm_baselines(
        self,
        case: CaseSpec,
        seed: int,
        names: list[str],
        warmup: int,
        flush_bytes: int,
        family: dict[str, Any] | None = None,
        device: str = "cuda",
    ) -> None:
        """Each baseline run `warmup` times on the fresh inputs of `seed` (of `family`)."""
        fields: dict[str, Any] = {"names": names, **_draw(case, seed, family, device)}
        self.call("warm", warmup=warmup, flush_bytes=flush_bytes, **fields)

    def time_baselines(
        self,
        case: CaseSpec,
        seed: int,
        names: list[str],
        family: dict[str, Any] | None = None,
        device: str = "cuda",
    ) -> dict[str, tuple[float, float]]:
        """One timed call of each baseline, in the order given, on the fresh inputs of `seed`
        (the child's round is not running meanwhile: the two take turns): {name: (µs to the end
        event, µs to a device-wide synchronize)}."""
        result, _ = self.call("time", names=names, **_draw(case, seed, family, device))
        if not isinstance(result, dict):
            raise ProblemError("problem.py's process sent a malformed answer")
        out = {}
        for name in names:
            pair = result.get(name)
            if not isinstance(pair, list) or len(pair) != 2:
                raise ProblemError(f"no time for the baseline {name!r}")
            out[name] = (_number(pair[0]), _number(pair[1]))
        return out

    def round_reference(
        self,
        case: CaseSpec,
        seed: int,
        at: torch.Tensor | None,
        family: dict[str, Any] | None = None,
        device: str = "cuda",
    ) -> torch.Tensor:
        """The reference of the fresh inputs of `seed`, at the positions `at` (all if None);
        the process keeps the whole one until the next round's (`held_reference`)."""
        sent = [at.to("cpu")] if at is not None else []
        _, got = self.call("round_reference", sent, **_draw(case, seed, family, device))
        if len(got) != 1:
            raise ProblemError("problem.py's reference gave no tensor")
        return got[0]

    def held_reference(self) -> torch.Tensor:
        _, got = self.call("held_reference")
        if len(got) != 1:
            raise ProblemError("problem.py's process kept no reference")
        return got[0]

    def compiled_times(
        self, target: str, sets: list[list[Arg]], flush_bytes: int, rounds: int, warmup: int
    ) -> list[float]:
        """`torch.compile` of the baseline `target`, timed `rounds` calls over the input sets."""
        specs: list[list[dict[str, Any]]] = []
        tensors: list[torch.Tensor] = []
        for args in sets:
            s, t = _specs(args)
            for spec in s:
                if "tensor" in spec:
                    spec["tensor"] += len(tensors)
                    spec["cuda"] = True
            specs.append(s)
            tensors += t
        fields: dict[str, Any] = {"target": target, "sets": specs, "flush_bytes": flush_bytes}
        result, _ = self.call("compiled_times", tensors, rounds=rounds, warmup=warmup, **fields)
        if not isinstance(result, list) or len(result) != rounds:
            raise ProblemError("problem.py's process sent a malformed answer")
        return [_number(t) for t in result]


def _draw(case: CaseSpec, seed: int, family: dict[str, Any] | None, device: str) -> dict[str, Any]:
    """A timed round's inputs, as the child draws them: case, seed, input family, device."""
    return {"case": case.model_dump(), "seed": seed, "family": family, "device": device}


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProblemError("problem.py's process sent a malformed answer")
    return float(value)


def on_gpu(checkpoint: Checkpoint) -> Problem:
    """The checkpoint's process with the GPU: the one attached to a GPU grading, else the
    default (sandboxed) one."""
    code = checkpoint.code
    if isinstance(code, Problem) and code.gpu:
        return code
    return of(checkpoint, gpu=True)


def _as_declared(result: Any) -> Declared:
    if not isinstance(result, dict):
        raise ProblemError("problem.py's process sent a malformed answer")
    functions = result.get("functions")
    baselines = result.get("baselines")
    if not isinstance(functions, list) or not isinstance(baselines, dict):
        raise ProblemError("problem.py's process sent a malformed answer")
    return Declared(
        frozenset(str(f) for f in functions),
        {str(k): str(v) for k, v in baselines.items()},
    )


def _specs(args: list[Arg]) -> tuple[list[dict[str, Any]], list[torch.Tensor]]:
    specs: list[dict[str, Any]] = []
    tensors: list[torch.Tensor] = []
    for a in args:
        if isinstance(a, torch.Tensor):
            specs.append({"tensor": len(tensors), "cuda": a.is_cuda})
            tensors.append(a)
        else:
            specs.append({"value": a})
    return specs, tensors


def _args(specs: list[Any], tensors: list[torch.Tensor], gpu: bool) -> list[Arg]:
    """make_inputs' answer as arguments: each tensor where it was drawn, each number checked."""
    out: list[Arg] = []
    for s in specs:
        if not isinstance(s, dict):
            raise ProblemError("problem.py's process sent a malformed answer")
        if "tensor" in s:
            i = s["tensor"]
            if not isinstance(i, int) or not 0 <= i < len(tensors):
                raise ProblemError("problem.py's process sent a malformed answer")
            out.append(tensors[i].to("cuda") if s.get("cuda") and gpu else tensors[i])
        else:
            v = s.get("value")
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise ProblemError(f"make_inputs returned a {type(v).__name__}")
            out.append(v)
    return out


# --- the warm processes ------------------------------------------------------------------------
_lock = threading.Lock()
_warm: OrderedDict[tuple[str, str, bool, bool], Problem] = OrderedDict()


def of(
    checkpoint: Checkpoint,
    gpu: bool | None = None,
    sandboxed: bool = True,
    limits: bwrap.Limits | None = None,
) -> Problem:
    """The warm process of this checkpoint's problem.py (started if there is none)."""
    gpu = torch.cuda.is_available() if gpu is None else gpu
    path = (checkpoint.folder / "problem.py").resolve()
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise ProblemError(f"{checkpoint.id}: cannot read problem.py: {exc}") from exc
    if sandboxed and (why := bwrap.probe()) is not None:
        raise ProblemError(f"cannot run problem.py: no sandbox can be made here ({why})")
    key = (str(path), digest, gpu, sandboxed)
    stale: list[Problem] = []
    with _lock:
        found = _warm.get(key)
        if found is not None and not found.alive():
            stale.append(_warm.pop(key))
            found = None
        if found is None:
            stale += [_warm.pop(k) for k in list(_warm) if k[0] == key[0] and k[1] != digest]
            found = Problem(path, gpu, sandboxed, limits or bwrap.Limits())
            _warm[key] = found
            while len(_warm) > MAX_WARM:
                stale.append(_warm.popitem(last=False)[1])
        _warm.move_to_end(key)
    for old in stale:
        old.close()
    return found


def attach(
    checkpoint: Checkpoint, device: str, sandboxed: bool, limits: bwrap.Limits | None = None
) -> Checkpoint:
    """The checkpoint with its problem.py's warm process (on the GPU for a GPU grading)."""
    return dataclasses.replace(checkpoint, code=of(checkpoint, device == "cuda", sandboxed, limits))


def release(folder: Path) -> None:
    """Stop the processes of the problem.py in `folder` (a validation's staging copy)."""
    path = str((folder / "problem.py").resolve())
    with _lock:
        gone = [_warm.pop(k) for k in list(_warm) if k[0] == path]
    for p in gone:
        p.close()


@atexit.register
def close_all() -> None:
    with _lock:
        gone = list(_warm.values())
        _warm.clear()
    for p in gone:
        with contextlib.suppress(Exception):
            p.close()


checkpoints.connect(lambda c: of(c))
