"""The compile check of a CPU precheck: each kernel the submission launched is compiled by
Triton's real compiler, with the specialization of that launch, for one GPU (sm_90), so that
what the interpreter runs but a GPU would refuse (a kernel reading a non-constexpr global, a
construct the code generator lacks, a wrong type) is `compile_error` with Triton's message.

- `kernel_source.restricted_module` regenerates from the checked program's AST only what a
  kernel can reach (imports but torch's, module-level constants, kernel defs), with a map from
  its lines to the program's, so Triton's messages name the submission's lines.
- The child's launch counter (harness/guards.py) reports each launch's specialization, under
  every autotune config, in the result frames (`launched`); they are untrusted: each field
  validated, and only kernels of the restricted module are compiled.
- The compile runs in a sandboxed process of its own (harness/compile_kernels.py), never in
  the grader's: started with the child (its Triton start overlaps the run) and fed the
  specializations as the frames arrive. Results are cached by (module text, specialization,
  Triton version, target) in KGRADE_HOME, so grading the same source again starts nothing.
- It fails closed: `correct` needs every launched specialization compiled and accepted. A check
  that cannot judge says why and the grade is not `correct` (`apply`): past GRACE_SECONDS after
  the child's end, a time limit; more than MAX_LAUNCHED distinct specializations, or a launch
  the child could not describe, forbidden; the compile process's memory, a memory limit; a
  sandbox that cannot start, an internal error (the service retries those: nothing a submission
  does leads there); anything else of the check's own, a runtime error that says it is not the
  student's compile error.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

from grader import cachefile
from grader.judge import kernel_source
from grader.judge.kernel_source import CannotCut, Restricted, validate
from grader.models import Verdict
from grader.options import GradeOptions
from grader.sandbox import bwrap, early, job
from grader.sandbox.harness import wire
from grader.text import untrusted

TARGET = ("cuda", 90, 32)  # sm_90 (the H200): backend, compute capability, warp size
TARGET_NAME = f"sm_{TARGET[1]}"
# Distinct specializations compiled per grading; more is refused (`overflow`). The course's lab
# file under all its 20 autotune configs launches 52 (the references 4 to 9); each costs a front
# end (0.1-0.8 s here, on 2 cores shared by 7 test runs) unless it differs only in num_warps.
MAX_LAUNCHED = 128
MAX_REPORTED = 4 * MAX_LAUNCHED  # items read of the child's reports, in all
# Seconds the check may run on after the child's run has ended (see docs/SUBMISSIONS.md): at
# most GRACE_SECONDS in all, and at most STALL_SECONDS with no specialization finished. The
# references' and the lab file's checks ended within 0.9 s of their child here (2 cores shared
# by 7 test runs), their slowest single specialization (a first cubin) 1.9 s; an honest softmax
# whose row sums are a tl.dot on a (16, 4096) fp32 tile needs 33 s for that one cubin on an
# idle 2-core machine (LLVM IR 12 s, PTX 5 s, ptxas 15 s), and outlasted 60 s and then 90 s
# on one specialization in CI (2 cores shared by two test runs and their sandboxes). A stall
# is judged per specialization, so that many honest ones (an autotuner's) are not refused for
# their number, and one the compiler cannot finish is stopped in STALL_SECONDS.
GRACE_SECONDS = 300.0
STALL_SECONDS = 150.0
CACHE_FILE = "kernel_compile.json"
CACHE_ENTRIES = 512  # module texts kept, the most recent
# Why the check could not judge -> the verdict a `correct` grade becomes, and the sentence.
UNJUDGED: dict[str, tuple[Verdict, str]] = {
    "time": (Verdict.TIME_LIMIT, "Triton's compiler ran past the compile check's limit"),
    "memory": (Verdict.MEMORY_LIMIT, "Triton's compiler ran out of memory on your kernels"),
    "overflow": (Verdict.FORBIDDEN, "your entry launched too many distinct specializations"),
    "unreadable": (Verdict.FORBIDDEN, "a launch the compile check cannot describe"),
    "nesting": (Verdict.FORBIDDEN, "your kernels cannot be cut out of the file"),
    "ours": (Verdict.RUNTIME_ERROR, "the compile check itself failed"),
    "env": (Verdict.INTERNAL_ERROR, "the compile check could not be started on this worker"),
}
DECIDED = {"overflow", "unreadable", "nesting"}  # known before the process has answered
_ADVICE = {
    "time": "A kernel that takes this long to compile (a huge tile, a long tl.static_range "
    "unrolled) is refused: without its compile check the grade cannot be correct.",
    "overflow": f"The grader compiles each distinct specialization (kernel, argument types, "
    f"constexprs, num_warps, num_stages) and checks at most {MAX_LAUNCHED}: prune your "
    "autotune configs or specialize less.",
    "unreadable": "Kernels take tensors, numbers, dtypes (tl or torch, as a tl.constexpr), "
    "strings and other kernels, and are defined at module level.",
    "ours": "This is not a compile error found in your kernel; but a grade is correct only once "
    "every kernel it launched has compiled. If your file is ordinary Triton, tell your "
    "instructor: it is then a limit of the grader.",
}


def _key(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:32]


def _checker_digest() -> str:
    """The compile process's own code: a cached answer holds only for the check that gave it
    (an entry from before a rule was added, the launch-time limits, would pass what the rule
    refuses)."""
    return hashlib.sha256((job.HARNESS_DIR / "compile_kernels.py").read_bytes()).hexdigest()[:16]


@dataclasses.dataclass
class Outcome:
    failures: list[str] = dataclasses.field(default_factory=list)  # Triton's messages
    # why the check could not judge, first cause first: (UNJUDGED's kind, what happened)
    unjudged: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    compiled: int = 0  # specializations compiled by the process
    cached: int = 0  # found in the cache
    started: bool = False  # a compile process ran
    slowest: float = 0.0  # seconds, the slowest specialization the process compiled

    @property
    def note(self) -> str | None:
        return self.unjudged[0][1] if self.unjudged else None


def _describe_spec(spec: dict[str, Any]) -> str:
    consts = ", ".join(f"{k}={v!r}" for k, v in spec["constexprs"].items())
    return untrusted(f"{spec['kernel']}({consts}, num_warps={spec['num_warps']})", 300)


class KernelCheck:
    """One grading's compile check. `feed()` from the Collector's thread, `finish()` once
    the child has exited, `close()` always."""

    def __init__(self, runnable: str, root: Path, options: GradeOptions, sandboxed: bool) -> None:
        import triton

        self.options, self.sandboxed = options, sandboxed
        self.folder, self.cache = root / "compile", root / "compile-cache"
        self.lock = threading.Lock()
        self.seen: dict[str, dict[str, Any]] = {}  # key -> spec, every valid one reported
        self.sent: set[str] = set()
        self.results: dict[str, dict[str, Any]] = {}
        self.refused: list[str] = []  # launches Triton would refuse to specialize
        self.unjudged: dict[str, str] = {}  # UNJUDGED's kind -> the first thing said of it
        self.reported = 0
        self.n = 0
        self.current: str | None = None  # the key being compiled
        self.progress_at = time.monotonic()  # when the last specialization started or ended
        self.child: early.Early | None = None
        self.done = threading.Event()
        self.module: Restricted | None = None
        try:
            self.module = kernel_source.restricted_module(runnable)
        except CannotCut as exc:
            self._unjudge("nesting" if exc.own else "ours", str(exc))
        self.cache_file = options.cache_dir / CACHE_FILE if options.cache_dir else None
        self.module_key = (
            _key(self.module.text, self.module.lines, triton.__version__, TARGET, _checker_digest())
            if self.module
            else None
        )
        entries = cachefile.load(self.cache_file)
        entry = entries.get(self.module_key or "")
        self.known: dict[str, Any] = entry["results"] if isinstance(entry, dict) else {}
        if self.module is not None and not isinstance(entry, dict):  # Triton starts now
            self._start_safely()

    def _unjudge(self, kind: str, why: str) -> None:
        self.unjudged.setdefault(kind, why)

    # --- the process -------------------------------------------------------------------------
    def _start_safely(self) -> None:
        try:
            self._start()
        except Exception as exc:  # no sandbox, no folder: the check is not made
            self._unjudge("env", f"it could not be started ({type(exc).__name__}: {exc})")

    def _start(self) -> None:
        assert self.module is not None
        self.folder.mkdir(mode=0o755)
        self.folder.chmod(0o755)
        for name, text in (
            ("kernels.py", self.module.text),
            ("lines.json", json.dumps({str(k): v for k, v in self.module.lines.items()})),
        ):
            (self.folder / name).write_text(text)
            (self.folder / name).chmod(0o644)
        job._private_to_child(self.cache, self.sandboxed)
        inside = "/job" if self.sandboxed else str(self.folder)
        harness = "/kgrade/harness" if self.sandboxed else str(job.HARNESS_DIR)
        cache = "/cache" if self.sandboxed else str(self.cache)
        env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": "/tmp",
            "LANG": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1",
            "TRITON_CACHE_DIR": f"{cache}/triton",
            "TRITON_DEFAULT_FP_FUSION": "1",
            "CUDA_VISIBLE_DEVICES": "",
            "OMP_NUM_THREADS": "1",
            "USER": "nobody",
        }
        script = f"{harness}/compile_kernels.py"
        target = ":".join(map(str, TARGET))
        argv = [sys.executable, "-I", "-B", script, inside, "{RESULT_FD}", target]
        mounts = [
            bwrap.Mount(self.folder, "/job"),
            bwrap.Mount(self.cache, "/cache", writable=True),
            bwrap.Mount(job.HARNESS_DIR, "/kgrade/harness"),
        ]
        spec = bwrap.Spec(argv=argv, env=env, mounts=mounts)
        limits = dataclasses.replace(
            self.options.limits, wall_seconds=self.options.limits.wall_seconds + GRACE_SECONDS
        )  # the process's own limit, beyond _wait's
        self.child = early.Early(spec, limits, self._read, self.sandboxed)
        self.child.publish()  # its limit counts from its start

    def _read(self, fp: IO[bytes]) -> None:
        def no_payload(header: dict[str, Any], size: int) -> bool:
            if size:
                raise wire.WireError("a compile frame carries no payload")
            return True

        for header, _ in wire.read_frames(fp, 4 << 20, no_payload):
            kind = header.get("type")
            if kind == "start" and header.get("key") in self.sent:
                self.current = str(header["key"])
                self.progress_at = time.monotonic()
            elif kind == "compiled" and header.get("key") in self.sent:
                ok = header.get("ok")
                message = untrusted(header.get("message", ""), 4000, lines=True)
                seconds = header.get("seconds")
                with self.lock:
                    self.results[str(header["key"])] = {
                        "ok": ok if isinstance(ok, bool) else None,
                        "message": message,
                        "seconds": seconds if isinstance(seconds, int | float) else 0.0,
                    }
                    self.current = None
                    self.progress_at = time.monotonic()
            elif kind == "module_error":
                said = untrusted(header.get("message", ""), 600)
                self._unjudge("ours", f"Triton could not load the kernels cut out of it ({said})")
            elif kind == "done":
                self.done.set()

    def _send(self, specs: list[tuple[str, dict[str, Any]]]) -> None:
        part = self.folder / f"launch-{self.n}.json.part"
        part.write_text(json.dumps([{"key": k, **s} for k, s in specs]))
        part.chmod(0o644)
        os.replace(part, self.folder / f"launch-{self.n}.json")
        self.n += 1
        self.sent.update(k for k, _ in specs)

    # --- the grading's side --------------------------------------------------------------------
    def feed(self, launched: Any) -> None:
        """Specializations from a result frame (the child's words: validated here). Called on
        the Collector's thread: nothing raised here may stop the child's stream."""
        try:
            self._feed(launched)
        except Exception as exc:  # a bug of ours: the check is then not made
            self._unjudge("ours", f"an error of the check itself ({type(exc).__name__}: {exc})")

    def _take(self, item: Any) -> tuple[str, dict[str, Any]] | None:
        """One reported item: a new specialization to compile, or None (kept as a problem)."""
        assert self.module is not None
        said = kernel_source.problem(item)
        if said is not None:
            kind, detail = said
            if kind == "refused":
                if len(self.refused) < 8 and detail not in self.refused:
                    self.refused.append(detail)
            else:
                self._unjudge(kind, detail)
            return None
        spec = validate(item, self.module.params)
        if spec is None:
            name = item.get("kernel") if isinstance(item, dict) else None
            what = f"of {untrusted(name, 80)}" if isinstance(name, str) else "reported"
            self._unjudge("unreadable", f"a launch {what} that the check cannot read")
            return None
        key = _key(spec)
        if key in self.seen:
            return None
        if len(self.seen) >= MAX_LAUNCHED:
            self._unjudge("overflow", f"more than {MAX_LAUNCHED} distinct specializations")
            return None
        self.seen[key] = spec
        return (key, spec) if key not in self.known else None

    def _feed(self, launched: Any) -> None:
        if self.module is None or launched is None:
            return
        if not isinstance(launched, list):
            self._unjudge("unreadable", "the child's report of its launches is not a list")
            return
        new: list[tuple[str, dict[str, Any]]] = []
        with self.lock:
            for item in launched:
                self.reported += 1
                if self.reported > MAX_REPORTED:
                    self._unjudge("overflow", f"more than {MAX_REPORTED} launches reported")
                    break
                if (taken := self._take(item)) is not None:
                    new.append(taken)
            if new and self.child is not None and not self.done.is_set():
                with contextlib.suppress(OSError):
                    self._send(new)

    def finish(self) -> Outcome:
        """Once the child has exited: the rest compiled (a late process, if the cache had an
        entry for this module but not every specialization), within GRACE_SECONDS; the cache
        updated when every answer came."""
        outcome = Outcome(cached=sum(k in self.known for k in self.seen))
        missing = [
            (k, s) for k, s in self.seen.items() if k not in self.known and k not in self.sent
        ]
        try:
            if missing and self.child is None and self.module is not None:
                self._start()
            if missing and self.child is not None:
                self._send(missing)
            if self.child is not None and self.unjudged.keys() & DECIDED:
                self.child.kill()  # the grade cannot be correct: no use waiting for it
            elif self.child is not None:
                outcome.started = True
                (self.folder / "end.json").write_text("{}")
                (self.folder / "end.json").chmod(0o644)
                self._wait(self.child)
        except Exception as exc:  # no sandbox, a folder gone, an error of ours: judge nothing
            self._unjudge("env", f"it could not be run ({type(exc).__name__}: {exc})")
        results = {k: self.known[k] for k in self.seen if k in self.known} | self.results
        outcome.compiled = len(self.results)
        outcome.slowest = max((r.get("seconds", 0.0) for r in self.results.values()), default=0)
        for key in self.seen:
            r = results.get(key)
            if r is None:
                self._unjudge("ours", "not every kernel was compiled")
            elif r.get("ok") is None:
                self._unjudge("ours", f"an error of the check itself ({r.get('message', '')})")
            elif r["ok"] is False:
                outcome.failures.append(str(r.get("message", "")))
        outcome.failures += self.refused
        order = list(UNJUDGED)
        outcome.unjudged = sorted(self.unjudged.items(), key=lambda kv: order.index(kv[0]))
        if not self.unjudged:
            self._store({k: r for k, r in self.results.items() if r.get("ok") is not None})
        return outcome

    def _wait(self, child: early.Early) -> None:
        """The process's answers, for at most GRACE_SECONDS more and at most STALL_SECONDS
        with no specialization finished; then it is killed."""
        end = time.monotonic() + GRACE_SECONDS
        with self.lock:  # a stall counts from the child's end at the earliest
            self.progress_at = time.monotonic()
        while not self.done.is_set():
            now = time.monotonic()
            stalled_at = self.progress_at + STALL_SECONDS
            if now >= min(end, stalled_at):
                at = self.seen.get(self.current or "")
                where = f", still on {_describe_spec(at)}" if at is not None else ""
                answered = sum(k in self.results for k in self.sent)
                why = (
                    f"{GRACE_SECONDS:.0f} s after your run ended"
                    if now >= end
                    else f"after {STALL_SECONDS:.0f} s on one specialization"
                )
                self._unjudge(
                    "time",
                    f"it had not finished {why} ({answered} of {len(self.sent)} "
                    f"specializations compiled{where})",
                )
                child.kill()
                break
            self.done.wait(min(end, stalled_at) - now)
        run = child.wait()
        if run.memory_exceeded:
            self._unjudge("memory", "its process ran out of memory")
        elif run.timed_out:
            self._unjudge("time", "its process ran out of time")
        elif not self.done.is_set():
            self._unjudge("ours", f"its process ended early ({run.reader_error or run.returncode})")

    def _store(self, fresh: dict[str, dict[str, Any]]) -> None:
        if self.cache_file is None or self.module_key is None:
            return
        with contextlib.suppress(OSError):
            entries = cachefile.load(self.cache_file)
            entry = entries.get(self.module_key)
            old = entry.get("results", {}) if isinstance(entry, dict) else {}
            entries[self.module_key] = {"t": time.time(), "results": {**old, **fresh}}
            if len(entries) > CACHE_ENTRIES:
                newest = sorted(entries, key=lambda k: entries[k].get("t", 0), reverse=True)
                entries = {k: entries[k] for k in newest[:CACHE_ENTRIES]}
            cachefile.store(self.cache_file, entries)

    def close(self) -> None:
        if self.child is not None:
            self.child.kill()


_JUDGED = {Verdict.CORRECT, Verdict.UNCHECKED, Verdict.WRONG_ANSWER, Verdict.RUNTIME_ERROR}


def apply(verdict: Verdict, messages: list[str], outcome: Outcome) -> Verdict:
    """The grade after the compile check: a kernel Triton refused is `compile_error` (what a
    GPU would say first), whatever its outputs were under the interpreter; a check that could
    not judge makes a `correct` grade what UNJUDGED says, and says why."""
    if outcome.failures and verdict in _JUDGED:
        first = re.sub(r"\n(?=\S)", "\n  ", outcome.failures[0])
        messages.insert(
            0,
            f"Error while compiling your kernel for a GPU ({TARGET_NAME}, Triton's compiler): "
            f"{first}\nThe CPU check runs kernels under Triton's interpreter, which accepts "
            "some code the compiler refuses; on a GPU this kernel would not compile.",
        )
        return Verdict.COMPILE_ERROR
    if not outcome.unjudged:
        return verdict
    kind, why = outcome.unjudged[0]
    becomes, lead = UNJUDGED[kind]
    text = f"Your kernels' compile check for a GPU ({TARGET_NAME}) could not judge them: {lead}: "
    text += f"{why}. " + _ADVICE.get(kind, "")
    if verdict in {Verdict.CORRECT, Verdict.UNCHECKED}:
        messages.insert(0, text.strip())
        return becomes
    messages.append(text.strip())
    return verdict
