"""A sandboxed child started before its job exists.

A child spends seconds starting Python, torch and Triton before it can do anything, and none of
that depends on the job. So the parent starts it first and writes the job meanwhile; the child
waits for its job file, which the parent publishes whole (a rename, `job.py`), then calls
`publish()`. The child's time limit counts from that moment, not from its start.

Two children are started this way in a GPU grading: the grading's own (while the parent draws
the inputs), and the Nsight replay's under `ncu` (while the grading's child runs: it waits, with
no CUDA context, until the benchmark has said which configs to replay).
"""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Callable, Iterator
from typing import IO

from grader.sandbox import bwrap

Reader = Callable[[IO[bytes]], None]  # consumes the child's result pipe (a collect.Collector)


class LateReader:
    """A result-pipe reader named only once the child's job is known (a spare child's, started
    before its grading): reads nothing until `give()`."""

    def __init__(self) -> None:
        self._ready = threading.Event()
        self._read: Reader | None = None

    def give(self, read: Reader) -> None:
        self._read = read
        self._ready.set()

    def __call__(self, fp: IO[bytes]) -> None:
        self._ready.wait()
        assert self._read is not None
        self._read(fp)


def _drain(fp: IO[bytes]) -> None:
    while fp.read(1 << 20):
        pass


class Early:
    """A child running in the background from construction on."""

    def __init__(
        self, spec: bwrap.Spec, limits: bwrap.Limits, reader: Reader, sandboxed: bool
    ) -> None:
        self.reader = reader
        self.published = threading.Event()
        self._abort = threading.Event()
        self._failed: list[BaseException] = []
        self._outcome: bwrap.RunOutcome | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._thread = threading.Thread(
            target=self._run, args=(spec, limits, sandboxed), name="kgrade-child", daemon=True
        )
        self._thread.start()

    def _run(self, spec: bwrap.Spec, limits: bwrap.Limits, sandboxed: bool) -> None:
        try:
            self._outcome = bwrap.run(
                spec,
                limits,
                self.reader,
                sandboxed=sandboxed,
                clock_from=self.published,
                abort=self._abort,
                on_start=self._started,
            )
        except BaseException as exc:  # re-raised in the grading's thread by wait()
            self._failed.append(exc)

    def _started(self, proc: subprocess.Popen[bytes]) -> None:
        self._proc = proc

    def control(self) -> IO[bytes] | None:
        """The pipe to its stdin (a GPU grading's child, which takes turns with the parent
        while timed: turns.py); None before it has started or where it has none."""
        return self._proc.stdin if self._proc is not None else None

    def publish(self) -> None:
        """Its job file is there: its time limit starts now."""
        self.published.set()

    def wait(self) -> bwrap.RunOutcome:
        """Its outcome, once it has exited (a failure to run it is raised here)."""
        self._thread.join()
        if self._failed:
            raise self._failed[0]
        assert self._outcome is not None
        return self._outcome

    def kill(self) -> None:
        self._abort.set()
        if isinstance(self.reader, LateReader):
            self.reader.give(_drain)  # else its reader would wait for a job that never comes
        self._thread.join()

    def alive(self) -> bool:
        """Its process is running (or still being started). The thread alone would not say:
        a child that died before its job leaves the thread waiting on the reader."""
        if not self._thread.is_alive() or self._abort.is_set():
            return False
        return self._proc is None or self._proc.poll() is None


@contextlib.contextmanager
def started(
    spec: bwrap.Spec, limits: bwrap.Limits, reader: Reader, sandboxed: bool
) -> Iterator[Early]:
    """The child runs for the body of the `with` (see `running`)."""
    with running(Early(spec, limits, reader, sandboxed)) as child:
        yield child


@contextlib.contextmanager
def running(child: Early) -> Iterator[Early]:
    """On leaving, a child whose job was published is waited for (`wait()` then gives its
    outcome), and one whose job never was is killed; if anything fails first, even during
    that wait, the child is killed."""
    try:
        yield child
        if child.published.is_set():
            child._thread.join()
        else:
            child.kill()
    except BaseException:
        child.kill()
        raise
