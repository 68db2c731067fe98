"""Limits that count everything (issue 17): the writable folders are size-capped, memory is
counted by a cgroup (shared memory and tmpfs pages included), the parent reads no forged
payload, and `--device auto` without a GPU gets the CPU's time limit.

Hostile children are plain Python run through `bwrap.run` (a submission may not import os),
with small limits: nothing here allocates more than a few hundred MiB.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import struct
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest
import torch

from grader.judge.collect import Collector
from grader.models import CaseSpec, Tolerance
from grader.plan.runs import PlannedRun
from grader.sandbox import bwrap, cgroup, folders, job
from grader.sandbox.bwrap import Limits, Mount, RunOutcome, Spec
from grader.sandbox.harness import wire

pytestmark = pytest.mark.skipif(bwrap.probe() is not None, reason=str(bwrap.probe()))
MiB = 1 << 20


def inside(code: str, limits: Limits, mounts: list[Mount] | None = None) -> RunOutcome:
    spec = Spec(
        argv=[sys.executable, "-I", "-c", code],
        env={"PATH": "/usr/bin:/bin", "HOME": "/tmp"},
        mounts=mounts or [],
    )
    return bwrap.run(spec, limits, lambda fp: fp.read())


# --- 1. /cache and /out: size-capped tmpfs -------------------------------------------------

WRITE_1_5_GIB = (
    "import errno, sys\n"
    "for folder in ('/cache', '/out'):\n"
    "    chunk = b'x' * (8 << 20)\n"
    "    try:\n"
    "        with open(folder + '/big', 'wb') as fp:\n"
    "            for _ in range(192):\n"  # 1.5 GiB
    "                fp.write(chunk); fp.flush()\n"
    "        print('WROTE', folder)\n"
    "    except OSError as exc:\n"
    "        print(folder, 'ENOSPC' if exc.errno == errno.ENOSPC else exc)\n"
)

needs_caps = pytest.mark.skipif(not folders.can_cap(), reason="no tmpfs mount here (not root)")


@needs_caps
def test_cache_and_out_are_size_capped(tmp_path: Path) -> None:
    paths = job.Paths(tmp_path / "job", tmp_path / "out", True, cap=32 * MiB)
    try:
        job.prepare(paths, None)
        spec = job.child_spec(paths, None, "cpu", {"PATH": "/usr/bin:/bin"})
        spec = Spec([sys.executable, "-I", "-c", WRITE_1_5_GIB], spec.env, spec.mounts)
        out = bwrap.run(spec, Limits(wall_seconds=30), lambda fp: fp.read())
        assert out.output.split("\n")[:2] == ["/cache ENOSPC", "/out ENOSPC"], out.output
        for folder in (paths.cache, paths.out):  # the host never held more than the cap
            assert (folder / "big").stat().st_size <= 32 * MiB
        assert (paths.out / "big").exists()  # and the parent reads what the child wrote
    finally:
        job.remove_root(tmp_path)
    assert not folders.mounts_under(tmp_path)


@needs_caps
def test_a_kept_cache_is_copied_in_and_back_without_links(tmp_path: Path) -> None:
    kept = tmp_path / "kept"
    (kept / "triton" / "g1").mkdir(parents=True)
    (kept / "triton" / "g1" / "k.json").write_text("old")
    secret = tmp_path / "secret"
    secret.write_text("host secret")
    root = tmp_path / "root"
    paths = job.Paths(root / "job", root / "out", True, cap=32 * MiB, seed_cache=kept)
    try:
        job.prepare(paths, "print(1)")
        assert (paths.cache / "triton" / "g1" / "k.json").read_text() == "old"
        assert os.path.ismount(paths.cache)
        code = (
            "import os\n"
            "print(open('/cache/triton/g1/k.json').read())\n"
            "os.makedirs('/cache/triton/g2'); open('/cache/triton/g2/k.so', 'w').write('new')\n"
            f"os.symlink({str(secret)!r}, '/cache/triton/g2/link')\n"
        )
        spec = job.child_spec(paths, None, "cpu", {"PATH": "/usr/bin:/bin"})
        spec = Spec([sys.executable, "-I", "-c", code], spec.env, spec.mounts)
        out = bwrap.run(spec, Limits(wall_seconds=30), lambda fp: fp.read())
        assert out.returncode == 0 and "old" in out.output, out.output
        job.keep_cache(paths)
    finally:
        job.remove_root(root)
    assert (kept / "triton" / "g2" / "k.so").read_text() == "new"
    assert (kept / "triton" / "g1" / "k.json").read_text() == "old"
    assert not (kept / "triton" / "g2" / "link").exists()
    assert not (kept / "triton" / "g2" / "link").is_symlink()


@needs_caps
def test_a_dead_gradings_mounts_are_removed_by_the_sweep(tmp_path: Path) -> None:
    dead = tmp_path / f"{job.JOB_PREFIX}999999999-x"
    paths = job.Paths(dead / "job", dead / "out", True, cap=1 * MiB)
    job.prepare(paths, None)
    assert folders.mounts_under(dead)
    job.sweep_orphans(tmp_path)
    assert not dead.exists() and not folders.mounts_under(dead)


# --- 2. memory counted by a cgroup ---------------------------------------------------------

needs_cgroup = pytest.mark.skipif(cgroup.hierarchy() is None, reason="no memory cgroup here")

# Several files, each under RLIMIT_FSIZE: 512 MiB held in all, none of it in any process's RSS.
MEMFD_HOG = (
    "import os\n"
    "fds = [os.memfd_create(f'hog{i}') for i in range(4)]\n"
    "chunk = b'x' * (8 << 20)\n"
    "for fd in fds:\n"
    "    for i in range(16):\n"
    "        os.write(fd, chunk)\n"
    "print('HELD', sum(os.fstat(fd).st_size for fd in fds) >> 20, 'MiB', flush=True)\n"
)
TMP_HOG = (
    "chunk = b'x' * (8 << 20)\n"
    "for n in range(4):\n"
    "    with open(f'/tmp/hog{n}', 'wb') as fp:\n"
    "        for i in range(16):\n"
    "            fp.write(chunk); fp.flush()\n"
    "print('HELD', 512, 'MiB', flush=True)\n"
)


@needs_cgroup
@pytest.mark.parametrize("code", [MEMFD_HOG, TMP_HOG], ids=["memfd", "tmpfs"])
def test_shared_memory_counts_against_the_memory_limit(code: str) -> None:
    limits = Limits(wall_seconds=30, memory_bytes=256 * MiB)
    out = inside(code, limits)
    assert "HELD" not in out.output, out.output
    assert out.memory_exceeded, out
    assert out.memory_counted_by.startswith("cgroup v"), out.memory_counted_by
    assert not _our_cgroups()


@needs_cgroup
def test_the_cgroup_is_removed_and_a_dead_gradings_is_swept() -> None:
    h = cgroup.hierarchy()
    assert h is not None
    out = inside("print('hello')", Limits(wall_seconds=30, memory_bytes=256 * MiB))
    assert out.returncode == 0 and out.memory_counted_by == f"cgroup v{h.version}"
    assert not _our_cgroups()
    stale = h.base / f"{cgroup.PREFIX}999999999-dead"
    stale.mkdir()
    cgroup.sweep(h)
    assert not stale.exists()


def test_without_a_cgroup_the_watchdog_says_what_it_misses() -> None:
    out = inside("print('hello')", Limits(wall_seconds=30, memory_cgroup=False))
    assert out.returncode == 0
    assert out.memory_counted_by == "RSS watchdog"
    assert "shared memory is not counted" in cgroup.describe(out.memory_counted_by, None)


def _our_cgroups() -> list[Path]:
    h = cgroup.hierarchy()
    if h is None:
        return []
    mine = f"{cgroup.PREFIX}{os.getpid()}-"
    # a warm problem.py process (grader/sandbox/problem.py, kept on purpose between gradings)
    # holds its own cgroup while it lives: a leftover is a cgroup no process is in
    return [p for p in h.base.iterdir() if p.name.startswith(mine) and not _alive(p)]


def _alive(group: Path) -> bool:
    for name in ("cgroup.procs", "tasks"):
        with contextlib.suppress(OSError):
            return bool((group / name).read_text().strip())
    return False


# --- 3. a forged payload announcement is refused before it is read --------------------------


def _collector() -> tuple[Collector, PlannedRun]:
    ref = torch.zeros(4, 8)
    run = PlannedRun(0, CaseSpec(name="c", shape=[4, 8]), 0, [], ref)
    tol = {"float32": Tolerance(atol=1e-5, rtol=1e-5)}
    return Collector([run], tol, 4 << 30), run


def _announce(fd: int, header: dict, plen: int, send: int) -> None:
    raw = json.dumps(header).encode()
    with os.fdopen(fd, "wb") as fp:
        fp.write(struct.pack("<IQ", len(raw), plen) + raw)
        try:
            while send > 0:
                fp.write(b"\0" * min(send, MiB))
                send -= MiB
        except BrokenPipeError:
            pass


@pytest.mark.parametrize(
    "tensor",
    [
        {"dtype": "float32", "shape": [1 << 28]},  # 1 GiB announced, 8 MiB sent
        {"dtype": "float64", "shape": [4, 8]},
        {"dtype": "float32", "shape": [8, 4]},
    ],
    ids=["oversized", "dtype", "shape"],
)
def test_a_forged_announcement_is_refused_before_its_payload(tensor: dict) -> None:
    collector, run = _collector()
    numel = 1
    for s in tensor["shape"]:
        numel *= s
    plen = numel * (8 if tensor["dtype"] == "float64" else 4)
    r, w = os.pipe()
    header = {"type": "result", "run": 0, "tensor": tensor, "launches": 1}
    writer = threading.Thread(target=_announce, args=(w, header, plen, min(plen, 8 * MiB)))
    writer.start()
    tracemalloc.start()
    try:
        with os.fdopen(r, "rb") as fp:
            if plen > 8 * MiB:  # the child sent less than it announced: a truncated stream
                with pytest.raises(wire.WireError, match="truncated"):
                    collector(fp)
            else:  # skipped in bounded chunks, the stream goes on
                collector(fp)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        writer.join()
    assert peak < 4 * MiB, peak  # not one byte of the payload was read
    (rec,) = collector.result.records  # reported as a bad output of that run
    assert rec.run is run and rec.comparison is not None and not rec.comparison.passed
    said = rec.comparison.message  # "wrong shape: expected (4, 8), got …" / "wrong dtype: …"
    assert said.startswith(("wrong shape: expected (4, 8)", "wrong dtype: expected float32")), said


def test_a_payload_on_a_frame_that_carries_none_is_refused() -> None:
    collector, _ = _collector()
    buf = io.BytesIO()
    wire.write_frame(buf, {"type": "ready"}, b"\0" * 64)
    buf.seek(0)
    with pytest.raises(wire.WireError, match="payload"):
        collector(buf)


def test_a_right_announcement_still_reads_in_chunks() -> None:
    collector, _ = _collector()
    buf = io.BytesIO()
    header = {
        "type": "result",
        "run": 0,
        "launches": 1,
        "tensor": wire.tensor_meta(torch.zeros(4, 8)),
    }
    wire.write_frame(buf, header, wire.tensor_bytes(torch.zeros(4, 8)))
    buf.seek(0)
    collector(buf)
    (rec,) = collector.result.records
    assert rec.comparison is not None and rec.comparison.passed


# --- 4. `--device auto` without a GPU: the CPU's time limit ---------------------------------


@pytest.mark.skipif(torch.cuda.is_available(), reason="a GPU is here")
def test_auto_without_a_gpu_gets_the_cpu_time_limit() -> None:
    from app import grading
    from app.settings import Settings

    s = Settings(time_limit_cpu=60, time_limit_gpu=300)
    opts = grading.options(s, "auto")
    assert opts.limits.wall_seconds == 60
    assert opts.device == "cpu"


# --- the grade says what counted its limits -------------------------------------------------


def test_a_grade_says_what_counted_its_memory_and_leaves_nothing_behind(tmp_path: Path) -> None:
    from grader import GradeOptions, checkpoints, grade
    from grader.judge.report import render

    cp = checkpoints.get("c3a-softmax")
    options = GradeOptions(device="cpu", limits=Limits(wall_seconds=60), work_dir=tmp_path)
    result = grade(cp.reference_solution.read_text(), cp, options)
    assert result.verdict.value == "correct", result.messages
    h = cgroup.hierarchy()
    if h is not None:
        assert result.limits.startswith(f"memory counted by cgroup v{h.version}")
    else:
        assert "shared memory is not counted" in result.limits
    if folders.can_cap():
        assert "/cache and /out capped at 512 MiB each" in result.limits
    assert '"limits":' in result.model_dump_json()
    assert "limits: memory counted by" in render(result)
    assert not folders.mounts_under(tmp_path) and not _our_cgroups()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(job.JOB_PREFIX)]


def test_the_report_warns_when_memory_was_counted_by_the_watchdog_only() -> None:
    from grader.judge.report import render
    from grader.models import GradeResult, Verdict

    said = cgroup.describe("RSS watchdog", None)
    result = GradeResult(checkpoint="c", verdict=Verdict.CORRECT, level=2, device="cpu")
    result.limits = said
    assert f"WARNING: limits: {said}" in render(result)
    assert "not size-capped" in said
