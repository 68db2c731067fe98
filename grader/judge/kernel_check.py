"""The compile check of a CPU precheck: each kernel the submission launched is compiled by
Triton's real compiler, with the specialization of that launch, for one GPU (sm_90), so that
what the interpreter runs but a GPU would refuse (a kernel reading a non-constexpr global, a
construct the code generator lacks, a wrong type) is `compile_error` with Triton's message.

- `restricted_module` cuts out of the checked source (static.py's `runnable`) only what a
  kernel can reach: the imports (but torch's), the module-level constants and the kernel defs,
  each at its own line (Triton's messages then point at the submission's lines), decorators
  left out (autotune configs and heuristics were applied at the launch), every kernel made a
  `triton.jit` at the end. All of it has passed the allowlist.
- The child's launch counter (harness/guards.py) reports each launch's specialization in the
  result frames (`launched`); they are untrusted: capped, each field validated, and only
  kernels of the restricted module are compiled. A lie gains nothing: this can only lower a
  grade, and the GPU stage compiles for real.
- The compile runs in a sandboxed process of its own (harness/compile_kernels.py), never in
  the grader's: started with the child (its Triton start overlaps the run) and fed the
  specializations as the frames arrive. Results are cached by (module text, specialization,
  Triton version, target) in KGRADE_HOME, so grading the same source again starts nothing.
- If the check cannot run (no sandbox, a timeout, an error of ours) the grade says so and the
  student is not failed for it.
"""

from __future__ import annotations

import ast
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
from grader.judge.defines import Defines
from grader.models import Verdict
from grader.options import GradeOptions
from grader.sandbox import bwrap, early, job
from grader.sandbox.harness import wire
from grader.text import untrusted

TARGET = ("cuda", 90, 32)  # sm_90 (the H200): backend, compute capability, warp size
TARGET_NAME = f"sm_{TARGET[1]}"
MAX_LAUNCHED = 64  # specializations checked per grading; the rest are left out
CACHE_FILE = "kernel_compile.json"
CACHE_ENTRIES = 512  # module texts kept, the most recent
EXTRA_SECONDS = 60.0  # the process's limit: the child's, and this much after it
_TYPE = re.compile(
    r"\*?k?(?:i1|u1|i8|i16|i32|i64|u8|u16|u32|u64|fp8e4nv|fp8e5|fp8e4b15|fp8e4b8|fp8e5b16|"
    r"fp16|bf16|fp32|fp64)|constexpr"
)
_DTYPES = {
    "int1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "fp8e4nv", "fp8e5", "fp8e4b15", "fp8e4b8", "fp8e5b16", "fp16", "bf16", "fp32", "fp64",
}  # fmt: skip
FIELDS = {"kernel", "signature", "constexprs", "num_warps", "num_stages"}


@dataclasses.dataclass
class Restricted:
    text: str
    params: dict[str, list[str]]  # kernel (def name) -> its parameters, in order


def _torch_import(node: ast.Import | ast.ImportFrom) -> bool:
    names = (
        [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
    )
    return any(n == "torch" or n.startswith("torch.") for n in names)


def restricted_module(runnable: str) -> Restricted | None:
    """The module the compile process imports, or None where it cannot be made."""
    try:
        tree = ast.parse(runnable)
        checker = Defines(tree, tree.body)
    except (SyntaxError, ValueError, RecursionError):
        return None
    lines = runnable.splitlines()
    out: list[str] = [""] * len(lines)
    kernels = {fn.name: fn for fn in checker.kernels.values()}
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    tail = ["import triton as __kgrade_triton__"]
    aliases: list[str] = []

    def put(at: int, text: str) -> None:
        out[at - 1] = f"{out[at - 1]}; {text}" if out[at - 1] else text

    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom) and not _torch_import(node):
            put(node.lineno, ast.unparse(node))
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if names and len(names) == len(targets) and set(names) <= checker.constants:
                put(node.lineno, f"{' = '.join(names)} = {ast.unparse(node.value)}")
            elif isinstance(node, ast.Assign) and checker._is_jit_expr(node.value, defs):
                inner: ast.expr = node.value
                while isinstance(inner, ast.Call) and inner.args:
                    inner = inner.args[0]
                if isinstance(inner, ast.Name) and names:
                    aliases += [f"{n} = {inner.id}" for n in names]
        elif isinstance(node, ast.FunctionDef) and kernels.get(node.name) is node:
            end = node.end_lineno or node.lineno
            out[node.lineno - 1 : end] = lines[node.lineno - 1 : end]
            tail.append(f"{node.name} = __kgrade_triton__.jit({node.name})")
    params = {
        name: [a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]]
        for name, fn in kernels.items()
    }
    return Restricted("\n".join([*out, *tail, *aliases]) + "\n", params)


def _constexpr_ok(v: Any) -> bool:
    if v is None or isinstance(v, bool | float):
        return True
    if isinstance(v, int):
        return -(2**63) <= v < 2**64
    if isinstance(v, str):
        return len(v) <= 64
    return isinstance(v, dict) and set(v) == {"dtype"} and v["dtype"] in _DTYPES


def validate(item: Any, params: dict[str, list[str]]) -> dict[str, Any] | None:
    """One reported specialization, if every field is what the child may say about a kernel
    of the restricted module; else None (ignored)."""
    if not isinstance(item, dict) or set(item) != FIELDS:
        return None
    names = params.get(item["kernel"]) if isinstance(item["kernel"], str) else None
    sig, consts = item["signature"], item["constexprs"]
    if names is None or not isinstance(sig, dict) or not isinstance(consts, dict):
        return None
    if list(sig) != names or not all(
        isinstance(t, str) and _TYPE.fullmatch(t) for t in sig.values()
    ):
        return None
    if set(consts) != {k for k, t in sig.items() if t == "constexpr"}:
        return None
    if not all(_constexpr_ok(v) for v in consts.values()):
        return None
    warps, stages = item["num_warps"], item["num_stages"]
    if (
        type(warps) is not int
        or type(stages) is not int
        or not (1 <= warps <= 64 and 0 <= stages <= 16)
    ):
        return None
    return {"kernel": item["kernel"], "signature": sig, "constexprs": consts,
            "num_warps": warps, "num_stages": stages}  # fmt: skip


def _key(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:32]


@dataclasses.dataclass
class Outcome:
    failures: list[str] = dataclasses.field(default_factory=list)  # Triton's messages
    note: str | None = None  # why the check could not be made, when it could not
    compiled: int = 0  # specializations compiled by the process
    cached: int = 0  # found in the cache
    started: bool = False  # a compile process ran


class KernelCheck:
    """One grading's compile check. `feed()` from the Collector's thread, `finish()` once
    the child has exited, `close()` always."""

    def __init__(self, runnable: str, root: Path, options: GradeOptions, sandboxed: bool) -> None:
        import triton

        self.options, self.sandboxed = options, sandboxed
        self.folder, self.cache = root / "compile", root / "compile-cache"
        self.module = restricted_module(runnable)
        self.lock = threading.Lock()
        self.seen: dict[str, dict[str, Any]] = {}  # key -> spec, every valid one reported
        self.sent: set[str] = set()
        self.results: dict[str, dict[str, Any]] = {}
        self.reported = 0
        self.n = 0
        self.note: str | None = None
        self.child: early.Early | None = None
        self.done = False
        self.cache_file = options.cache_dir / CACHE_FILE if options.cache_dir else None
        self.module_key = (
            _key(self.module.text, triton.__version__, TARGET) if self.module else None
        )
        entries = cachefile.load(self.cache_file)
        entry = entries.get(self.module_key or "")
        self.known: dict[str, Any] = entry["results"] if isinstance(entry, dict) else {}
        if self.module is None:
            self.note = "its kernels could not be cut out of the file"
        elif not isinstance(entry, dict):  # a source not seen before: Triton starts now
            self._start_safely()

    # --- the process -------------------------------------------------------------------------
    def _start_safely(self) -> None:
        try:
            self._start()
        except Exception as exc:  # no sandbox, no folder: the check is not made
            self.note = f"it could not be started ({type(exc).__name__}: {exc})"

    def _start(self) -> None:
        assert self.module is not None
        self.folder.mkdir(mode=0o755)
        self.folder.chmod(0o755)
        (self.folder / "kernels.py").write_text(self.module.text)
        (self.folder / "kernels.py").chmod(0o644)
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
            self.options.limits, wall_seconds=self.options.limits.wall_seconds + EXTRA_SECONDS
        )
        self.child = early.Early(spec, limits, self._read, self.sandboxed)
        self.child.publish()  # its limit counts from its start

    def _read(self, fp: IO[bytes]) -> None:
        def no_payload(header: dict[str, Any], size: int) -> bool:
            if size:
                raise wire.WireError("a compile frame carries no payload")
            return True

        for header, _ in wire.read_frames(fp, 4 << 20, no_payload):
            kind = header.get("type")
            if kind == "compiled" and header.get("key") in self.sent:
                ok = header.get("ok")
                message = untrusted(header.get("message", ""), 4000, lines=True)
                with self.lock:
                    self.results[str(header["key"])] = {
                        "ok": ok if isinstance(ok, bool) else None,
                        "message": message,
                    }
            elif kind == "module_error":
                self.note = "Triton could not load its kernels: " + untrusted(
                    header.get("message", ""), 600
                )
            elif kind == "done":
                self.done = True

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
            self.note = f"an error of the check itself ({type(exc).__name__}: {exc})"

    def _feed(self, launched: Any) -> None:
        if self.module is None or not isinstance(launched, list):
            return
        new: list[tuple[str, dict[str, Any]]] = []
        with self.lock:
            for item in launched[:MAX_LAUNCHED]:
                if self.reported >= MAX_LAUNCHED:
                    break
                self.reported += 1
                spec = validate(item, self.module.params)
                if spec is None:
                    continue
                key = _key(spec)
                if key in self.seen:
                    continue
                self.seen[key] = spec
                if key not in self.known:
                    new.append((key, spec))
            if new and self.child is not None and not self.done:
                with contextlib.suppress(OSError):
                    self._send(new)

    def finish(self) -> Outcome:
        """Once the child has exited: the rest compiled (a late process, if the cache had an
        entry for this module but not every specialization), the cache updated."""
        outcome = Outcome(cached=sum(k in self.known for k in self.seen))
        missing = [
            (k, s) for k, s in self.seen.items() if k not in self.known and k not in self.sent
        ]
        try:
            if missing and self.child is None and self.module is not None and self.note is None:
                self._start()
            if missing and self.child is not None:
                self._send(missing)
            if self.child is not None:
                outcome.started = True
                (self.folder / "end.json").write_text("{}")
                (self.folder / "end.json").chmod(0o644)
                run = self.child.wait()
                if run.timed_out or run.memory_exceeded:
                    self.note = self.note or (
                        "it ran out of time" if run.timed_out else "it ran out of memory"
                    )
                elif not self.done and self.note is None:
                    self.note = f"its process ended early ({run.reader_error or run.returncode})"
        except Exception as exc:  # no sandbox, a folder gone, an error of ours: judge nothing
            self.note = f"it could not be run ({type(exc).__name__}: {exc})"
        results = {k: self.known[k] for k in self.seen if k in self.known} | self.results
        outcome.compiled = len(self.results)
        for key in self.seen:
            r = results.get(key)
            if r is None or r.get("ok") is None:
                if r is not None and self.note is None:
                    self.note = f"an error of the check itself ({r.get('message', '')[:200]})"
                elif r is None and self.note is None and self.seen:
                    self.note = "not every kernel was compiled"
            elif r["ok"] is False:
                outcome.failures.append(str(r.get("message", "")))
        outcome.note = self.note
        self._store({k: r for k, r in self.results.items() if r.get("ok") is not None})
        return outcome

    def _store(self, fresh: dict[str, dict[str, Any]]) -> None:
        if self.cache_file is None or self.module_key is None or self.note is not None:
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


def apply(verdict: Verdict, messages: list[str], outcome: Outcome) -> Verdict:
    """The grade after the compile check: a kernel Triton refused is `compile_error` (what a
    GPU would say first), whatever its outputs were under the interpreter; a check that could
    not be made is said, and judges nothing."""
    if outcome.failures and verdict in {
        Verdict.CORRECT, Verdict.WRONG_ANSWER, Verdict.RUNTIME_ERROR
    }:  # fmt: skip
        first = re.sub(r"\n(?=\S)", "\n  ", outcome.failures[0])
        messages.insert(
            0,
            f"Error while compiling your kernel for a GPU ({TARGET_NAME}, Triton's compiler): "
            f"{first}\nThe CPU check runs kernels under Triton's interpreter, which accepts "
            "some code the compiler refuses; on a GPU this kernel would not compile.",
        )
        return Verdict.COMPILE_ERROR
    if outcome.note is not None:
        messages.append(f"Your kernels' compile check for a GPU was not made: {outcome.note}.")
    return verdict
