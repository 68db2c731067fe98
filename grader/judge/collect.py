"""The parent's reader of the child's result pipe: each frame's header checked against the run
it answers before a byte of its payload is read, text made safe where it enters, outputs
compared with references the child never saw (on the GPU once the child has exited, with
KGRADE_CHECK_ON_GPU), timed rounds handed to turns.py. What it collects, `evaluate.py` turns
into a verdict."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import torch

from grader.judge.compare import Comparison, compare, compare_sampled
from grader.models import Tolerance
from grader.plan.runs import PlannedRun
from grader.sandbox.harness import wire
from grader.sandbox.harness.wire import TURN_KINDS
from grader.text import clean, untrusted


class Rounds(Protocol):
    """The timed rounds' frames go to what takes the turns with the child (grader.gpu.turns)."""

    def expected(self, kind: str, header: dict[str, Any]) -> tuple[torch.dtype, list[int]] | None:
        """The dtype and shape of a frame's payload, known before a byte of it is read."""

    def frame(self, kind: str, header: dict[str, Any], payload: bytes | bytearray) -> None:
        """One timed round's frame."""


PENDING = Comparison(False, None, "not compared yet")  # a deferred check, until finish()


@dataclass
class Record:
    """One call of the entry: a run with one autotune config."""

    run: PlannedRun
    config: str | None
    launches: int = 0
    forbidden: list[str] = field(default_factory=list)
    comparison: Comparison | None = None
    error: dict[str, Any] | None = None


@dataclass
class Collected:
    ready: bool = False
    done: bool = False
    import_error: dict[str, Any] | None = None
    records: list[Record] = field(default_factory=list)
    # GPU benchmark: raw times per shape, checks of the timed calls' outputs, an error.
    bench_times: dict[int, dict[str, dict[str, list[float]]]] = field(default_factory=dict)
    bench_checks: list[tuple[int, int, Comparison]] = field(default_factory=list)
    bench_error: dict[str, Any] | None = None
    # Seconds per phase as the child measured them: diagnostics only, never judged.
    phases: dict[str, float] = field(default_factory=dict)
    # Kernel name -> the config its autotuner picked for the last benchmark shape (what the
    # Nsight replay runs), and the configs the replay ran: what the child says, shown as such.
    tuned: dict[str, str] = field(default_factory=dict)
    profiled: list[str] = field(default_factory=list)


def _config_label(header: dict[str, Any]) -> str | None:
    used = header.get("used")
    if not isinstance(used, list) or not used:
        return None
    return "; ".join(untrusted(u, 300) for u in list(dict.fromkeys(map(str, used)))[:16])


MAX_MESSAGE = 4000


def _message(text: Any) -> str:
    """A message from the child (an exception's text): its lines stay, each indented under the
    grader's sentence it ends up in, so none of them can pass for a line of the grader's."""
    return re.sub(r"\n(?=\S)", "\n  ", untrusted(text, MAX_MESSAGE, lines=True))


class Collector:
    """Consumes the child's result stream, comparing each output as it arrives; or, with
    `check_on` (a device), keeping the whole outputs and comparing them there in `finish()`,
    after the child has exited: on a GPU, nothing is being timed then, and the child never
    waits for the parent's CPU to read its outputs."""

    def __init__(
        self,
        runs: list[PlannedRun],
        tolerances: dict[str, Tolerance],
        max_bytes: int,
        bench_refs: dict[int, list[torch.Tensor]] | None = None,
        check_on: str | None = None,
    ):
        self.runs = {r.id: r for r in runs}
        self.bench_refs = bench_refs or {}
        self.tolerances = tolerances
        self.max_bytes = max_bytes
        self.check_on = check_on
        self._pending: list[tuple[torch.Tensor, torch.Tensor, Tolerance, Callable[..., None]]] = []
        self.result = Collected()
        # fresh-input rounds, taken in turns with the child (turns.py); set by the pipeline
        self.turns: Rounds | None = None
        # gets each result frame's `launched` (specializations: kernel_check.py validates them)
        self.on_launched: Callable[[Any], None] | None = None

    def expect(self, runs: list[PlannedRun], bench_refs: dict[int, list[torch.Tensor]]) -> None:
        """The runs and benchmark references, once drawn: before the child is given its job,
        so before any of its frames can name them."""
        self.runs = {r.id: r for r in runs}
        self.bench_refs = bench_refs

    def _compare(
        self, out: torch.Tensor, ref: torch.Tensor, tol: Tolerance, put: Callable[..., None]
    ) -> None:
        if self.check_on is None:
            put(compare(out, ref, tol))
        else:
            self._pending.append((out, ref, tol, put))

    def finish(self) -> None:
        """Run the deferred comparisons (call after the child has exited)."""
        pending, self._pending = self._pending, []
        for out, ref, tol, put in pending:
            device = self.check_on or "cpu"
            put(compare(out.to(device), ref.to(device), tol))

    def __call__(self, fp: Any) -> None:
        # Whatever the child says is made safe to show here, where it enters (grader/text.py).
        def check(header: dict[str, Any], size: int) -> bool:
            return self._check_announced(clean(header), size)

        for raw, payload in wire.read_frames(fp, self.max_bytes, check):
            header = clean(raw)  # every string on one line, but an exception's message
            if "message" in raw:
                header["message"] = _message(raw["message"])
            try:
                self._frame(header, payload)
            except (TypeError, ValueError, KeyError, AttributeError) as exc:
                if isinstance(exc, wire.WireError):
                    raise
                # a header field of the wrong type: the child's stream is malformed
                raise wire.WireError(f"malformed {header.get('type')!r} frame") from exc

    def _check_announced(self, header: dict[str, Any], size: int) -> bool:
        """Before a byte of a payload is read: only an output frame carries one, and only of
        exactly the expected output's dtype, shape and size (the parent's reference's). Any
        other output is recorded as a wrong output of its run and its payload skipped unread
        (within the stream's size limit), so a child cannot make the parent allocate what it
        announces; a payload on another frame stops the stream (the child is killed)."""
        kind = header.get("type")
        if kind in TURN_KINDS and self.turns is not None:
            return self._check_turn(kind, header, size)
        if kind not in {"result", "bench_output"}:
            if size:
                raise wire.WireError(f"a {kind!r} frame may carry no payload")
            return True
        ref = self._expected(kind, header)
        sample = self.runs[header["run"]].sample if kind == "result" else None
        sampled = header.get("sampled") and sample is not None
        shape = [sample.numel()] if sampled and sample is not None else list(ref.shape)
        want: dict[str, Any] = {"dtype": wire.dtype_name(ref.dtype), "shape": shape}
        numel = 1
        for n in shape:
            numel *= n
        meta = header.get("tensor")
        if meta == want and size == numel * ref.element_size():
            return True
        message = _announced_wrong(meta, want, sampled=bool(sampled))
        bad = Comparison(False, None, message, "shape")
        if kind == "result":
            rec = Record(self.runs[header["run"]], _config_label(header), comparison=bad)
            rec.launches = int(header.get("launches") or 0)
            rec.forbidden = [untrusted(f, 100) for f in (header.get("forbidden") or [])[:64]]
            self.result.records.append(rec)
        else:
            self.result.bench_checks.append((header["shape"], int(header.get("round", -1)), bad))
        return False

    def _check_turn(self, kind: str, header: dict[str, Any], size: int) -> bool:
        """A timed round's sample or whole output: exactly what turns.py expects, or the
        benchmark stops (the child waits for the parent's word after each, so a frame cannot
        just be skipped)."""
        assert self.turns is not None
        want = self.turns.expected(kind, header)
        if want is None:
            if size:
                raise wire.WireError(f"a {kind!r} frame may carry no payload")
            return True
        dtype, shape = want
        numel = 1
        for n in shape:
            numel *= n
        meta = header.get("tensor")
        itemsize = torch.empty((), dtype=dtype).element_size()
        if meta == {"dtype": wire.dtype_name(dtype), "shape": shape} and size == numel * itemsize:
            return True
        raise wire.WireError(
            f"a timed call's output was announced as {untrusted(str(meta), 120)}, expected "
            f"{wire.dtype_name(dtype)} {tuple(shape)}"
        )

    def _expected(self, kind: str, header: dict[str, Any]) -> torch.Tensor:
        if kind == "result":
            key = header.get("run")
            run = self.runs.get(key) if isinstance(key, int) else None
            if run is None:
                raise wire.WireError("result for an unknown run")
            if header.get("sampled") and run.sample is None:
                raise wire.WireError("a sampled result for a run checked whole")
            return run.reference
        shape, rnd = header.get("shape"), header.get("round")
        if not isinstance(shape, int) or shape not in self.bench_refs:
            raise wire.WireError("benchmark frame for an unknown shape")
        if not isinstance(rnd, int) or not self.bench_refs[shape]:
            raise wire.WireError("malformed benchmark output")
        refs = self.bench_refs[shape]
        return refs[rnd % len(refs)]

    def _frame(self, header: dict[str, Any], payload: bytes | bytearray) -> None:
        kind = header.get("type")
        if kind == "ready":
            self.result.ready = True
        elif kind == "done":
            self.result.done = True
        elif kind == "error":
            self.result.import_error = header
        elif kind in {"result", "run_error", "bad_output"}:
            self._record(kind, header, payload)
        elif kind in TURN_KINDS and self.turns is not None:
            self.turns.frame(kind, header, payload)
        elif kind in {"bench", "bench_output", "bench_bad_output", "bench_error"}:
            self._bench(kind, header, payload)
        elif kind == "tuned" and isinstance(header.get("configs"), dict):
            self.result.tuned = {
                untrusted(k, 100): untrusted(v, 300)
                for k, v in list(header["configs"].items())[:16]
            }
        elif kind == "profiled" and isinstance(header.get("configs"), list):
            self.result.profiled = [untrusted(c, 400) for c in header["configs"][:16]]
        elif kind == "phase" and len(self.result.phases) < 8:
            name, seconds = header.get("name"), header.get("seconds")
            if isinstance(name, str) and isinstance(seconds, int | float):
                self.result.phases[untrusted(name, 20)] = round(float(seconds), 3)

    def _bench(self, kind: str, header: dict[str, Any], payload: bytes | bytearray) -> None:
        shape = header.get("shape")
        if not isinstance(shape, int) or shape not in self.bench_refs:
            raise wire.WireError("benchmark frame for an unknown shape")
        if kind == "bench_error":
            self.result.bench_error = header
        elif kind == "bench":
            times, synced = header.get("times"), header.get("synced")
            if not isinstance(times, dict) or not isinstance(synced, dict):
                raise wire.WireError("malformed benchmark times")
            clean = {
                name: [float(v) for v in values]
                for name, values in times.items()
                if isinstance(values, list)
            }
            clean_synced = {
                name: [float(v) for v in values]
                for name, values in synced.items()
                if isinstance(values, list)
            }
            if "submission" not in clean or set(clean) != set(clean_synced):
                raise wire.WireError("malformed benchmark times")
            self.result.bench_times[shape] = {"times": clean, "synced": clean_synced}
        else:
            rnd = int(header.get("round", -1))
            refs = self.bench_refs[shape]
            if kind == "bench_bad_output":
                cmp = Comparison(
                    False, None, "the entry returned something other than a Tensor", "shape"
                )
            else:
                ref = refs[rnd % len(refs)]
                out = wire.decode_tensor(header.get("tensor"), payload)
                tol = self.tolerances[str(ref.dtype).removeprefix("torch.")]
                at = len(self.result.bench_checks)
                self.result.bench_checks.append((shape, rnd, PENDING))

                def put(c: Comparison, at: int = at, shape: int = shape, rnd: int = rnd) -> None:
                    self.result.bench_checks[at] = (shape, rnd, c)

                self._compare(out, ref, tol, put)
                return
            self.result.bench_checks.append((shape, rnd, cmp))

    def _record(self, kind: str, header: dict[str, Any], payload: bytes | bytearray) -> None:
        run = self.runs.get(header.get("run"))  # type: ignore[arg-type]
        if run is None:
            raise wire.WireError("result for an unknown run")
        rec = Record(run=run, config=_config_label(header))
        rec.launches = int(header.get("launches") or 0)
        rec.forbidden = [untrusted(f, 100) for f in (header.get("forbidden") or [])[:64]]
        if self.on_launched is not None:
            self.on_launched(header.get("launched"))
        if kind == "run_error":
            rec.error = header
        elif kind == "bad_output":
            said = untrusted(header.get("message"), 200)
            rec.comparison = Comparison(
                False, None, f"the entry must return a plain torch.Tensor; it {said}", "shape"
            )
        else:
            out = wire.decode_tensor(header.get("tensor"), payload)
            tol = self.tolerances[str(run.reference.dtype).removeprefix("torch.")]
            if header.get("sampled") and run.sample is not None:
                rec.comparison = self._sampled(header.get("full"), out, run, tol)
            else:

                def put(c: Comparison, rec: Record = rec) -> None:
                    rec.comparison = c

                self._compare(out, run.reference, tol, put)
        self.result.records.append(rec)

    def _sampled(self, full: Any, out: torch.Tensor, run: PlannedRun, tol: Tolerance) -> Comparison:
        ref = run.reference
        assert run.sample is not None
        if not isinstance(full, dict) or full.get("shape") != list(ref.shape):
            got = (
                tuple(full["shape"])
                if isinstance(full, dict) and isinstance(full.get("shape"), list)
                else untrusted(str(full), 80)
            )
            return Comparison(
                False, None, f"wrong shape: expected {tuple(ref.shape)}, got {got}", "shape"
            )
        if full.get("dtype") != str(ref.dtype).removeprefix("torch."):
            got = untrusted(full.get("dtype"), 40)
            want = str(ref.dtype).removeprefix("torch.")
            return Comparison(False, None, f"wrong dtype: expected {want}, got {got}", "shape")
        return compare_sampled(out, ref, run.sample, tol)


def _announced_wrong(meta: Any, want: dict[str, Any], sampled: bool) -> str:
    """The output's shape or dtype, as the child announced it, said plainly against the
    reference's: "wrong shape: expected (33, 37), got (37, 33)" (it used to read "the entry's
    output was announced as float32 (37, 33) (4884 bytes), expected …")."""
    expected = f"{want['dtype']} {tuple(want['shape'])}"
    if not (isinstance(meta, dict) and isinstance(meta.get("shape"), list)):
        return f"the entry's output could not be read as a tensor (expected {expected})"
    shape, dtype = tuple(meta.get("shape") or ()), untrusted(str(meta.get("dtype")), 40)
    what = f"{'the sampled elements' if sampled else 'the output'}"
    if shape != tuple(want["shape"]) and dtype != want["dtype"]:
        return f"wrong shape and dtype: expected {expected}, got {dtype} {shape} ({what})"
    if shape != tuple(want["shape"]):
        return f"wrong shape: expected {tuple(want['shape'])}, got {shape} ({what}, {dtype})"
    if dtype != want["dtype"]:
        return f"wrong dtype: expected {want['dtype']}, got {dtype} ({what}, shape {shape})"
    return f"the output's size in bytes does not match its {expected} (expected {expected})"
