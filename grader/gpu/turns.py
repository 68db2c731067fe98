"""The timed rounds of a GPU grading, taken in turns by the sandboxed child and the trusted
parent, on fresh inputs every round.

Round r's inputs are drawn on the GPU from a secret seed (`make_inputs` with a CUDA generator),
by the child and again, identically, by the checkpoint's own sandboxed process (problem.py's,
grader/sandbox/problem.py: apart from the submission's, and from this trusted one, which never
imports problem.py). The child times the submission; the checkpoint's process times the
baselines on the same inputs with the same `timed_call` and computes the round's reference,
so nothing of the submission's can touch them; this process drives both and judges. The
two take turns on the GPU, never at the same time: the child waits for a byte on its stdin
before each round (`g`: go; `f`: first send the whole output of the round before). Who goes
first alternates round by round (the child, then the baselines on even rounds; the other way
round on odd ones), so the pairing still cancels drift.

Every round's output is checked: the child sends it at SAMPLES positions drawn from a seed
the submission cannot read, right after the timed call, and this process compares them with
the reference of that round's inputs at those positions (from the checkpoint's process).
FULL_CHECKS whole outputs per shape are asked for too, each decided only after its round has
run (a submission cannot know which), at uniformly random rounds. An answer remembered from
an earlier round is wrong on fresh inputs; skipping the work on any round leaves a stale
output that the sampled check catches.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import IO, Any

import torch

from grader.checkpoints import Checkpoint
from grader.judge.compare import Comparison, compare
from grader.models import Tolerance
from grader.plan.shapes import FULL_CHECKS, SAMPLES, BenchShape
from grader.sandbox import problem
from grader.sandbox.harness import wire
from grader.sandbox.harness.timing import sample_positions


class Turns:
    def __init__(
        self,
        checkpoint: Checkpoint,
        shapes: list[BenchShape],
        tolerances: dict[str, Tolerance],
        flush_bytes: int,
        seed: int,
        device: str = "cuda",
    ) -> None:
        self.checkpoint = checkpoint
        self.shapes = {s.id: s for s in shapes if s.seeds is not None}
        # problem.py's own sandboxed process (on the CPU only in tests: the fake GPU stage)
        self.problem = problem.on_gpu(checkpoint) if device == "cuda" else problem.of(checkpoint)
        self.baselines = checkpoint.timed_baselines()
        self.tolerances = tolerances
        self.flush_bytes = flush_bytes
        self.device = device  # "cpu" only in tests: the GPU stage's protocol on the host clock
        self.rng = random.Random(seed ^ 0x7E57)
        self.control: Callable[[], IO[bytes] | None] = lambda: None
        self.times: dict[int, dict[str, list[float]]] = {}
        self.synced: dict[int, dict[str, list[float]]] = {}
        self.checks: list[tuple[int, int, Comparison]] = []
        self.null_gap: dict[int, list[float]] = {}  # the child's gap with nothing pending
        self._full: dict[int, int] = {}  # full outputs asked for, per shape
        self._pending: dict[int, tuple[int, torch.Tensor]] = {}  # shape -> (round, reference)
        self.failed: str | None = None  # why this process's own part failed, if it did

    @property
    def active(self) -> bool:
        return bool(self.shapes)

    # --- what the child may send ---------------------------------------------------------------
    def expected(self, kind: str, header: dict[str, Any]) -> tuple[torch.dtype, list[int]] | None:
        """The dtype and shape of a frame's payload, known before a byte of it is read."""
        s = self._shape(header)
        ref = s.references[0]
        if kind == "bench_round" and "bad" not in header:
            return ref.dtype, [SAMPLES if ref.numel() else 0]
        if kind == "bench_full":
            return ref.dtype, list(ref.shape)
        return None

    def frame(self, kind: str, header: dict[str, Any], payload: bytes | bytearray) -> None:
        try:
            self._frame(kind, header, payload)
        except wire.WireError:
            raise
        except Exception as exc:  # this process's own work failed: not the submission's doing
            self.failed = f"{type(exc).__name__}: {str(exc)[:300]}"
            raise wire.WireError("the grader's own timing failed") from exc

    def _frame(self, kind: str, header: dict[str, Any], payload: bytes | bytearray) -> None:
        s = self._shape(header)
        if kind == "bench_ready":
            self._warm(s)
            self._say(b"g")  # round 0: the child first
        elif kind == "bench_round":
            self._round(s, header, payload)
        elif kind == "bench_full":
            self._whole(s, header, payload)

    # --- rounds ----------------------------------------------------------------------------------
    def _round(self, s: BenchShape, header: dict[str, Any], payload: bytes | bytearray) -> None:
        sub, sub_synced = self.times[s.id]["submission"], self.synced[s.id]["submission"]
        r = header.get("round")
        if r != len(sub) or not isinstance(r, int) or r >= s.rounds:
            raise wire.WireError("a benchmark round out of turn")
        sub.append(float(header["time"]))
        sub_synced.append(float(header["synced"]))
        self.null_gap.setdefault(s.id, []).append(float(header.get("null_gap") or 0.0))
        numel = s.references[0].numel()
        at = sample_positions(numel, s.sample_seed + r, SAMPLES, self.device) if numel else None
        want = self.problem.round_reference(
            s.case, self._seed(s, r), at, self._family_of(s, r), self.device
        )
        if "bad" in header:
            cmp = Comparison(False, None, "the entry returned something other than a Tensor")
        else:
            got = wire.decode_tensor(header.get("tensor"), payload)
            cmp = compare(got, want, self._tolerance(want))
            if not cmp.passed:
                where = f"round {r}{self._family(s, r)}, sampled"
                cmp = Comparison(False, cmp.max_abs_err, f"{where}: {cmp.message}")
        self.checks.append((s.id, r, cmp))
        full = self._want_full(s, r)
        if full:
            self._pending[s.id] = (r, self.problem.held_reference())
        if r % 2 == 0:
            self._time_baselines(s, r)  # the child went first this round
        if r + 1 < s.rounds and (r + 1) % 2 == 1:
            self._time_baselines(s, r + 1)  # the baselines go first
        self._say(b"f" if full else b"g")

    def _whole(self, s: BenchShape, header: dict[str, Any], payload: bytes | bytearray) -> None:
        pending = self._pending.pop(s.id, None)
        if pending is None or header.get("round") != pending[0]:
            raise wire.WireError("a whole output nobody asked for")
        r, ref = pending
        got = wire.decode_tensor(header.get("tensor"), payload).to(self.device)
        cmp = compare(got, ref.to(self.device), self._tolerance(ref))
        if not cmp.passed:
            where = f"round {r}{self._family(s, r)}, whole output"
            cmp = Comparison(False, cmp.max_abs_err, f"{where}: {cmp.message}")
        self.checks.append((s.id, r, cmp))

    def _want_full(self, s: BenchShape, r: int) -> bool:
        """FULL_CHECKS rounds per shape, uniformly at random, each decided once its round ran."""
        left = FULL_CHECKS - self._full.get(s.id, 0)
        if left <= 0 or self.rng.random() >= left / (s.rounds - r):
            return False
        self._full[s.id] = self._full.get(s.id, 0) + 1
        return True

    def _time_baselines(self, s: BenchShape, r: int) -> None:
        """Round r's baselines, timed by the checkpoint's process on round r's inputs."""
        names = list(self.baselines) if r % 2 == 0 else list(reversed(self.baselines))
        timed = self.problem.time_baselines(
            s.case, self._seed(s, r), names, self._family_of(s, r), self.device
        )
        for name in names:
            elapsed, until_synced = timed[name]
            self.times[s.id][name].append(elapsed)
            self.synced[s.id][name].append(until_synced)

    def _warm(self, s: BenchShape) -> None:
        if s.id in self.times:
            raise wire.WireError("a benchmark shape started twice")
        names = ["submission", *self.baselines]
        self.times[s.id] = {n: [] for n in names}
        self.synced[s.id] = {n: [] for n in names}
        self.problem.warm_baselines(
            s.case,
            self._seed(s, -1),
            self.baselines,
            s.warmup,
            self.flush_bytes,
            self._family_of(s, -1),
            self.device,
        )

    # --- helpers ---------------------------------------------------------------------------------
    def _seed(self, s: BenchShape, r: int) -> int:
        """Round r's inputs' seed (r = -1: the warm-up's), as the child draws them."""
        assert s.seeds is not None
        return s.seeds[0] ^ 0x3A3A if r < 0 else s.seeds[r]

    def _family_of(self, s: BenchShape, r: int) -> dict[str, Any] | None:
        """Round r's input family (r = -1: the warm-up's, the first round's), as the child's."""
        return s.families[max(r, 0)] if s.families else None

    def _shape(self, header: dict[str, Any]) -> BenchShape:
        s = self.shapes.get(header.get("shape"))  # type: ignore[arg-type]
        if s is None:
            raise wire.WireError("benchmark frame for an unknown shape")
        return s

    @staticmethod
    def _family(s: BenchShape, r: int) -> str:
        """The round's input family, as a student reads it (", inputs with scale=100.0")."""
        fam = s.families[r] if r < len(s.families) else {}
        return ", inputs with " + ", ".join(f"{k}={v}" for k, v in fam.items()) if fam else ""

    def _tolerance(self, ref: torch.Tensor) -> Tolerance:
        return self.tolerances[str(ref.dtype).removeprefix("torch.")]

    def _say(self, word: bytes) -> None:
        fp = self.control()
        if fp is None:
            raise wire.WireError("the child has no control pipe")
        try:
            fp.write(word)
            fp.flush()
        except (BrokenPipeError, OSError) as exc:
            raise wire.WireError("the child stopped listening") from exc

    def bench_times(self) -> dict[int, dict[str, dict[str, list[float]]]]:
        """Per shape, the paired times of the rounds both sides timed (judge()'s input)."""
        out: dict[int, dict[str, dict[str, list[float]]]] = {}
        for sid, times in self.times.items():
            n = min(len(v) for v in times.values())
            if n:
                out[sid] = {
                    "times": {k: v[:n] for k, v in times.items()},
                    "synced": {k: v[:n] for k, v in self.synced[sid].items()},
                    "null": {"gap": self.null_gap.get(sid, [])[:n]},
                }
        return out
