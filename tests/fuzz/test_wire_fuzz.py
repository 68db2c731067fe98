"""The wire format across the trust boundary, fuzzed (hypothesis): whatever bytes a sandboxed
child writes (random, truncated, oversized, well-framed garbage) the parent's reader ends with a
frame list or a clean error, the evaluation still gives a verdict, and nothing hangs.

KGRADE_SOAK=1 runs many more examples.
"""

from __future__ import annotations

import contextlib
import io
import os
import struct
import threading
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader import checkpoints
from grader.judge.evaluate import Collector, evaluate
from grader.models import Verdict
from grader.pipeline import plan_runs
from grader.sandbox.bwrap import RunOutcome
from grader.sandbox.harness import wire

SOAK = os.environ.get("KGRADE_SOAK") == "1"
FUZZ = settings(
    max_examples=3000 if SOAK else 150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LIMIT = 1 << 26  # the result stream's size limit
CHECKPOINT = checkpoints.get("c3a-vector-add")
RUNS = plan_runs(CHECKPOINT, "cpu", seed=1)
KINDS = ["ready", "done", "error", "result", "run_error", "bad_output"]
KINDS += ["bench", "bench_output", "bench_bad_output", "bench_error", "nonsense"]

json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)
meta = st.fixed_dictionaries(
    {},
    optional={
        "dtype": st.sampled_from([*wire.DTYPES, "object", ""]) | json_value,
        "shape": st.lists(st.integers(-2, 1 << 40), max_size=3) | json_value,
    },
)
header = st.fixed_dictionaries(
    {"type": st.sampled_from(KINDS)},
    optional={
        "run": st.sampled_from([r.id for r in RUNS]) | json_value,
        "tensor": meta | json_value,
        "shape": st.just(0) | json_value,
        "round": st.integers(-3, 3) | json_value,
        "times": st.dictionaries(st.sampled_from(["submission", "torch"]), json_value),
        "synced": st.dictionaries(st.sampled_from(["submission", "torch"]), json_value),
        "launches": json_value,
        "forbidden": json_value,
        "used": json_value,
        "sampled": st.booleans(),
        "full": json_value,
        "message": json_value,
    },
)


@st.composite
def frame(draw: st.DrawFn) -> tuple[dict[str, Any], bytes]:
    h = draw(header)
    if draw(st.booleans()):  # a payload that fits the run's reference: reaches the comparison
        ref = RUNS[draw(st.integers(0, len(RUNS) - 1))].reference
        h["tensor"] = wire.tensor_meta(ref)
        return h, wire.tensor_bytes(ref + draw(st.sampled_from([0.0, 1.0, float("nan")])))
    return h, draw(st.binary(max_size=64))


def _stream(frames: list[tuple[dict[str, Any], bytes]]) -> bytes:
    buf = io.BytesIO()
    for h, p in frames:
        wire.write_frame(buf, h, p)
    return buf.getvalue()


def _consume(data: bytes) -> tuple[Collector, str | None]:
    """What the sandbox's reader thread does: run the collector, any error stops the child."""
    c = Collector(RUNS, CHECKPOINT.definition.tolerances, LIMIT, {0: [RUNS[0].reference]})
    try:
        c(io.BytesIO(data))
    except Exception as exc:
        return c, f"{type(exc).__name__}: {exc}"
    return c, None


def _verdict(c: Collector, error: str | None) -> Verdict:
    outcome = RunOutcome(returncode=0, reader_error=error)
    return evaluate(RUNS, c.result, outcome, show_hidden=False).verdict


@FUZZ
@given(st.binary(max_size=4096))
def test_random_bytes_are_frames_or_a_wire_error(data: bytes) -> None:
    try:
        for h, _ in wire.read_frames(io.BytesIO(data), LIMIT):
            assert isinstance(h, dict)
    except wire.WireError:
        pass


@FUZZ
@given(st.lists(frame(), max_size=6), st.data())
def test_framed_garbage_truncated_or_not_gives_a_verdict(frames, data) -> None:  # type: ignore[no-untyped-def]
    raw = _stream(frames)
    if raw and data.draw(st.booleans()):
        raw = raw[: data.draw(st.integers(0, len(raw) - 1))]
    c, error = _consume(raw)
    verdict = _verdict(c, error)
    assert isinstance(verdict, Verdict)
    if error is not None:  # refused: never graded correct
        assert verdict is not Verdict.CORRECT


@pytest.mark.parametrize(
    "head",
    [
        struct.pack("<IQ", wire.MAX_HEADER + 1, 0),  # a header past 1 MiB
        struct.pack("<IQ", 2, (1 << 64) - 1),  # a payload of 16 EiB
        struct.pack("<IQ", (1 << 32) - 1, (1 << 64) - 1),
    ],
)
def test_oversized_lengths_are_refused_before_reading(head: bytes) -> None:
    """Refused from the 12-byte prefix alone: nothing is allocated or waited for."""
    r, w = os.pipe()
    os.write(w, head)  # and the writer stays open: reading on would block forever
    try:
        with os.fdopen(r, "rb", buffering=0) as fp, pytest.raises(wire.WireError):
            list(wire.read_frames(fp, LIMIT))
    finally:
        os.close(w)


@settings(max_examples=40 if not SOAK else 400, deadline=None)
@given(st.lists(frame(), max_size=4), st.integers(0, 64))
def test_a_stream_cut_off_by_a_dying_child_never_hangs_the_reader(frames, cut) -> None:  # type: ignore[no-untyped-def]
    raw = _stream(frames)
    raw = raw[: max(0, len(raw) - cut)]
    r, w = os.pipe()
    done: list[object] = []

    def read() -> None:
        with os.fdopen(r, "rb") as fp:
            done.append(_consume_fp(fp))

    t = threading.Thread(target=read, daemon=True)
    t.start()
    out = os.fdopen(w, "wb")  # the child writes, then dies (its end closes)
    try:
        for i in range(0, len(raw), 7):
            out.write(raw[i : i + 7])
            out.flush()
    except BrokenPipeError:
        pass  # the reader refused the stream and stopped reading: the sandbox kills the child
    finally:
        with contextlib.suppress(BrokenPipeError):
            out.close()
    t.join(timeout=20)
    assert not t.is_alive() and len(done) == 1


def _consume_fp(fp: Any) -> str | None:
    c = Collector(RUNS, CHECKPOINT.definition.tolerances, LIMIT, {0: [RUNS[0].reference]})
    try:
        c(fp)
    except Exception as exc:
        return type(exc).__name__
    return None


def test_a_correct_stream_still_reads_as_correct() -> None:
    """The harness's own frames (what a right answer sends) pass through the same path."""
    frames: list[tuple[dict[str, Any], bytes]] = [({"type": "ready"}, b"")]
    for run in RUNS:
        h = {"type": "result", "run": run.id, "tensor": wire.tensor_meta(run.reference)}
        frames.append(({**h, "launches": 1, "used": []}, wire.tensor_bytes(run.reference)))
    frames.append(({"type": "done"}, b""))
    c, error = _consume(_stream(frames))
    assert error is None and _verdict(c, None) is Verdict.CORRECT


def _outcomes(c: Collector) -> list[tuple[Any, ...]]:
    recs = [(r.run.id, r.config, r.error, r.comparison) for r in c.result.records]
    return [*recs, *c.result.bench_checks]


@FUZZ
@given(st.lists(frame(), max_size=6))
def test_checks_deferred_to_after_the_child_give_the_streamed_checks(frames) -> None:  # type: ignore[no-untyped-def]
    """check_on (the GPU worker's option, run here on the CPU): outputs kept and compared once
    the child has exited must give exactly what comparing them as they arrive gives."""
    data = _stream(frames)
    streamed, error = _consume(data)
    later = Collector(
        RUNS, CHECKPOINT.definition.tolerances, LIMIT, {0: [RUNS[0].reference]}, check_on="cpu"
    )
    try:
        later(io.BytesIO(data))
        later_error = None
    except Exception as exc:
        later_error = f"{type(exc).__name__}: {exc}"
    later.finish()
    assert later_error == error
    assert _outcomes(later) == _outcomes(streamed)
    assert _verdict(later, later_error) is _verdict(streamed, error)


@pytest.mark.parametrize(
    "h",
    [
        {"type": "result", "run": [1]},
        {"type": "run_error", "run": 0, "launches": "x"},
        {"type": "run_error", "run": 0, "forbidden": 3},
        {"type": "bench", "shape": 0, "times": {"submission": [[1]]}, "synced": {}},
        {"type": "bench_output", "shape": 0, "round": []},
    ],
)
def test_wrongly_typed_fields_are_wire_errors(h: dict[str, Any]) -> None:
    _, error = _consume(_stream([(h, b"")]))
    assert error is not None and error.startswith("WireError")
