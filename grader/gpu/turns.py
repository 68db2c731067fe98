"""The timed rounds of a GPU grading, taken in turns by the sandboxed child and the trusted
parent, on fresh inputs every round.

Round r's inputs are drawn on the GPU from a secret seed (`make_inputs` with a CUDA generator),
by the child and again, identically, by this process. The child times the submission; this
process times the baselines on the same inputs with the same `timed_call`, in its own process,
so nothing of the submission's can touch them. The two take turns on the GPU, never at the
same time: the child waits for a byte on its stdin before each round (`g`: go; `f`: first send
the whole output of the round before). Who goes first alternates round by round (child then
parent on even rounds, parent then child on odd ones), so the pairing still cancels drift.

Every round's output is checked: the child sends it at SAMPLES positions drawn from a seed
the submission cannot read, right after the timed call, and this process compares them with its
own reference of that round's inputs. FULL_CHECKS whole outputs per shape are asked for too,
each decided only after its round has run (a submission cannot know which), at uniformly
random rounds. An answer remembered from an earlier round is wrong on fresh inputs; skipping
the work on any round leaves a stale output that the sampled check catches.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import IO, Any

import torch

from grader.checkpoints import Arg, Checkpoint
from grader.judge.compare import Comparison, compare
from grader.models import Tolerance
from grader.plan.shapes import FULL_CHECKS, SAMPLES, BenchShape
from grader.sandbox.harness import wire
from grader.sandbox.harness.timing import fresh_inputs, sample_positions, timed_call


class Turns:
    def __init__(
        self,
        checkpoint: Checkpoint,
        shapes: list[BenchShape],
        tolerances: dict[str, Tolerance],
        flush_bytes: int,
        seed: int,
    ) -> None:
        self.checkpoint = checkpoint
        self.shapes = {s.id: s for s in shapes if s.seeds is not None}
        table = checkpoint.baselines()
        self.baselines = {
            n: table[n] for n in checkpoint.definition.baselines if callable(table.get(n))
        }
        self.tolerances = tolerances
        self.flush_bytes = flush_bytes
        self.rng = random.Random(seed ^ 0x7E57)
        self.control: Callable[[], IO[bytes] | None] = lambda: None
        self.times: dict[int, dict[str, list[float]]] = {}
        self.synced: dict[int, dict[str, list[float]]] = {}
        self.checks: list[tuple[int, int, Comparison]] = []
        self.null_gap: dict[int, list[float]] = {}  # the child's gap with nothing pending
        self._full: dict[int, int] = {}  # full outputs asked for, per shape
        self._pending: dict[int, tuple[int, torch.Tensor]] = {}  # shape -> (round, reference)
        self._drawn: tuple[tuple[int, int], list[Arg]] | None = None
        self._flush: torch.Tensor | None = None
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
        inputs = self._inputs(s, r)
        ref = self.checkpoint.reference(inputs)
        if "bad" in header:
            cmp = Comparison(False, None, "the entry returned something other than a Tensor")
        else:
            got = wire.decode_tensor(header.get("tensor"), payload).to(ref.device)
            at = sample_positions(ref.numel(), s.sample_seed + r, SAMPLES)
            want = ref.reshape(-1)[at] if ref.numel() else ref.reshape(-1)
            cmp = compare(got, want, self._tolerance(ref))
            if not cmp.passed:
                cmp = Comparison(False, cmp.max_abs_err, f"round {r}, sampled: {cmp.message}")
        self.checks.append((s.id, r, cmp))
        full = self._want_full(s, r)
        if full:
            self._pending[s.id] = (r, ref)
        if r % 2 == 0:
            self._time_baselines(s, r, inputs)  # the child went first this round
        del inputs, ref
        if r + 1 < s.rounds and (r + 1) % 2 == 1:
            self._time_baselines(s, r + 1, self._inputs(s, r + 1))  # the parent goes first
        self._say(b"f" if full else b"g")

    def _whole(self, s: BenchShape, header: dict[str, Any], payload: bytes | bytearray) -> None:
        pending = self._pending.pop(s.id, None)
        if pending is None or header.get("round") != pending[0]:
            raise wire.WireError("a whole output nobody asked for")
        r, ref = pending
        got = wire.decode_tensor(header.get("tensor"), payload).to(ref.device)
        cmp = compare(got, ref, self._tolerance(ref))
        if not cmp.passed:
            cmp = Comparison(False, cmp.max_abs_err, f"round {r}, whole output: {cmp.message}")
        self.checks.append((s.id, r, cmp))

    def _want_full(self, s: BenchShape, r: int) -> bool:
        """FULL_CHECKS rounds per shape, uniformly at random, each decided once its round ran."""
        left = FULL_CHECKS - self._full.get(s.id, 0)
        if left <= 0 or self.rng.random() >= left / (s.rounds - r):
            return False
        self._full[s.id] = self._full.get(s.id, 0) + 1
        return True

    def _time_baselines(self, s: BenchShape, r: int, inputs: list[Arg]) -> None:
        assert self._flush is not None
        names = list(self.baselines) if r % 2 == 0 else list(reversed(self.baselines))
        for name in names:
            args = [a.clone() if isinstance(a, torch.Tensor) else a for a in inputs]
            elapsed, until_synced, _ = timed_call(self.baselines[name], args, self._flush)
            self.times[s.id][name].append(elapsed)
            self.synced[s.id][name].append(until_synced)

    def _warm(self, s: BenchShape) -> None:
        if s.id in self.times:
            raise wire.WireError("a benchmark shape started twice")
        names = ["submission", *self.baselines]
        self.times[s.id] = {n: [] for n in names}
        self.synced[s.id] = {n: [] for n in names}
        if self._flush is None:
            self._flush = torch.empty(self.flush_bytes // 4, dtype=torch.float32, device="cuda")
        inputs = self._inputs(s, -1)
        for fn in self.baselines.values():
            for _ in range(s.warmup):
                fn(*inputs)
        torch.cuda.synchronize()

    # --- helpers ---------------------------------------------------------------------------------
    def _inputs(self, s: BenchShape, r: int) -> list[Arg]:
        """Round r's inputs (r = -1: the warm-up's), drawn as the child draws them."""
        key = (s.id, r)
        if self._drawn is not None and self._drawn[0] == key:
            return self._drawn[1]
        assert s.seeds is not None
        seed = s.seeds[0] ^ 0x3A3A if r < 0 else s.seeds[r]
        self._drawn = None  # free the last round's before drawing the next
        inputs = fresh_inputs(self.checkpoint.make_inputs, s.case, seed)
        self._drawn = (key, inputs)
        return inputs

    def _shape(self, header: dict[str, Any]) -> BenchShape:
        s = self.shapes.get(header.get("shape"))  # type: ignore[arg-type]
        if s is None:
            raise wire.WireError("benchmark frame for an unknown shape")
        return s

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
