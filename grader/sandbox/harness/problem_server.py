"""A checkpoint's `problem.py`, run in a sandbox of its own: the only process that imports it.

The trusted parent (`grader/sandbox/problem.py`) asks and this answers, one request at a time:
requests come on stdin, answers go to the result pipe, both in the wire format (JSON headers,
raw tensor bytes: no pickle). It holds no database, secret, network or host file: bubblewrap
gives it the OS, Python, this harness and the problem file read-only, and a private /tmp.

Usage (the parent builds this command):
    python -I problem_server.py PROBLEM_PY RESULT_FD INPUTS_PY
(INPUTS_PY: grader/plan/inputs.py, mounted read-only: `from grader import randn`).
"""

from __future__ import annotations

import importlib.util
import os
import sys
import traceback
import types
from pathlib import Path
from typing import IO, Any

sys.path.append(str(Path(__file__).resolve().parent.parent))  # after the stdlib

import torch
from harness import wire

MAX_MESSAGE = 2000
STREAM_LIMIT = 1 << 62  # the parent is trusted; each request is its own


def _grader_shim(inputs_py: Path) -> None:
    """`from grader import randn` (what a problem.py draws its inputs with) without grader:
    the one stdlib-and-torch module it comes from, mounted beside this harness."""
    if not inputs_py.exists():
        return
    spec = importlib.util.spec_from_file_location("kgrade_inputs", inputs_py)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shim = types.ModuleType("grader")
    shim.randn = module.randn  # type: ignore[attr-defined]
    shim.usable_cpus = module.usable_cpus  # type: ignore[attr-defined]
    sys.modules["grader"] = shim


def _raised(exc: BaseException, problem: str) -> tuple[str, int | None]:
    """What it raised, and its deepest line in problem.py."""
    lines = [fr.lineno for fr in traceback.extract_tb(exc.__traceback__) if fr.filename == problem]
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return what[:MAX_MESSAGE], lines[-1] if lines else None


def _describe_error(exc: BaseException, problem: str) -> str:
    what, line = _raised(exc, problem)
    return what + (f" (problem.py, line {line})" if line else "")


def _load(problem: str) -> Any:
    spec = importlib.util.spec_from_file_location("kgrade_problem", problem)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _declared(module: Any) -> dict[str, Any]:
    """What the problem defines, as data: its functions and its baselines' names and kinds."""
    table = getattr(module, "BASELINES", {})
    baselines: dict[str, str] = {}
    if isinstance(table, dict):
        for name, value in table.items():
            if isinstance(name, str):
                kind = value if isinstance(value, str) else "callable" if callable(value) else ""
                baselines[name] = kind[:200]
    names = ("make_inputs", "reference", "minimal_bytes", "flops")
    return {
        "functions": [n for n in names if callable(getattr(module, n, None))],
        "baselines": baselines,
    }


class Session:
    """The loaded problem and what it keeps between requests (a GPU round's reference)."""

    def __init__(self, module: Any, out: IO[bytes]) -> None:
        self.module = module
        self.out = out
        self.held: torch.Tensor | None = None
        self.flush: torch.Tensor | None = None
        self.compiled: dict[str, Any] = {}

    def reply(self, result: Any = None, tensors: list[torch.Tensor] | None = None) -> None:
        tensors = tensors or []
        wire.write_frame(self.out, {"ok": True, "result": result, "n": len(tensors)})
        for t in tensors:
            wire.write_frame(self.out, {"tensor": wire.tensor_meta(t)}, wire.tensor_bytes(t))

    # --- the requests --------------------------------------------------------------------------
    def make_inputs(self, req: dict[str, Any], tensors: list[torch.Tensor]) -> None:
        device = str(req.get("device", "cpu"))
        gen = torch.Generator(device=device)
        gen.set_state(tensors[0])
        case = types.SimpleNamespace(**req["case"])
        got = list(self.module.make_inputs(case, gen))
        specs, out = encode_args(got)
        self.reply({"args": specs}, [*out, gen.get_state()])

    def draw(self, req: dict[str, Any], tensors: list[torch.Tensor]) -> None:
        """A case's inputs, their reference (on the GPU when asked) and the counts asked for
        (minimal_bytes, flops) in one answer: the inputs cross the pipe once, not three times."""
        gen = torch.Generator(device=str(req.get("device", "cpu")))
        gen.set_state(tensors[0])
        got = list(self.module.make_inputs(types.SimpleNamespace(**req["case"]), gen))
        specs, out = encode_args(got)
        on = "cuda" if req.get("reference_on") == "cuda" else None
        args = [a.to(on) if on and isinstance(a, torch.Tensor) else a for a in got]
        ref = _tensor(self.module.reference(*args), "reference")
        del args
        counts: dict[str, int | None] = {}
        if req.get("counts"):
            where = next((a.device for a in got if isinstance(a, torch.Tensor)), ref.device)
            output = ref.to(where)
            for name in req["counts"]:
                fn = getattr(self.module, str(name), None)
                value = fn(got, output) if callable(fn) else None
                counts[str(name)] = None if value is None else int(value)
            del output
        self.reply({"args": specs, "counts": counts}, [*out, ref, gen.get_state()])

    def reference(self, req: dict[str, Any], tensors: list[torch.Tensor]) -> None:
        args = decode_args(req["args"], tensors)
        self.reply(None, [_tensor(self.module.reference(*args), "reference")])

    def shortcuts(self, req: dict[str, Any], tensors: list[torch.Tensor]) -> None:
        """problem.py's SHORTCUTS on these inputs (validation's tolerance rule)."""
        names, outs = [], []
        for name, fn in dict(getattr(self.module, "SHORTCUTS", {})).items():
            args = decode_args(req["args"], tensors)
            names.append(str(name))
            outs.append(_tensor(fn(*args), f"the shortcut {name!r}"))
        self.reply(names, outs)

    def count(self, req: dict[str, Any], tensors: list[torch.Tensor]) -> None:
        fn = getattr(self.module, req["fn"], None)
        args = decode_args(req["args"], tensors)
        value = fn(args[:-1], args[-1]) if callable(fn) else None
        self.reply(None if value is None else int(value))

    # --- a GPU grading's baselines, timed here (grader/gpu/turns.py, compiled.py) --------------
    def _fresh(self, req: dict[str, Any]) -> list[Any]:
        from harness.timing import fresh_inputs

        case = types.SimpleNamespace(**req["case"])
        device = "cpu" if req.get("device") == "cpu" else "cuda"
        return fresh_inputs(self.module.make_inputs, case, req["seed"], req.get("family"), device)

    def _baselines(self, names: list[str]) -> list[tuple[str, Any]]:
        table = getattr(self.module, "BASELINES", {})
        return [(n, table[n]) for n in names if callable(table.get(n))]

    def warm(self, req: dict[str, Any], tensors: list[torch.Tensor]) -> None:
        inputs = self._fresh(req)
        self.held = None
        if self.flush is None or self.flush.numel() * 4 != req["flush_bytes"]:
            device = "cpu" if req.get("device") == "cpu" else "cuda"
            self.flush = torch.empty(req["flush_bytes"] // 4, dtype=torch.float32, device=device)
        for _, fn in self._baselines(req["names"]):
            for _ in range(int(req["warmup"])):
                fn(*inputs)
        if torch.cuda.is_available():
            torch.cuda.synchronize()
        self.reply()

    def time(self, req: dict[str, Any], tensors: list[torch.Tensor]) -> None:
        """Round r's baselines on its fresh inputs, each on a copy, in the order asked."""
        from harness.timing import timed_call

        assert self.flush is not None, "warm first"
        inputs = self._fresh(req)
        times: dict[str, list[float]] = {}
        for name, fn in self._baselines(req["names"]):
            args = [a.clone() if isinstance(a, torch.Tensor) else a for a in inputs]
            elapsed, synced, _ = timed_call(fn, args, self.flush)
            times[name] = [elapsed, synced]
        self.reply(times)

    def round_reference(self, req: dict[str, Any], tensors: list[torch.Tensor]) -> None:
        """Round r's reference at the positions asked (the whole one kept until the next)."""
        ref = _tensor(self.module.reference(*self._fresh(req)), "reference")
        self.held = ref
        at = tensors[0].to(ref.device) if tensors else None
        picked = ref.reshape(-1)[at] if at is not None and ref.numel() else ref.reshape(-1)
        self.reply({"shape": list(ref.shape)}, [picked])

    def held_reference(self, req: dict[str, Any], tensors: list[torch.Tensor]) -> None:
        if self.held is None:
            raise ValueError("no reference kept")
        self.reply(None, [self.held])

    def compiled_times(self, req: dict[str, Any], tensors: list[torch.Tensor]) -> None:
        """The `torch.compile` baseline's timed calls over the given input sets."""
        from harness.timing import timed_call

        table = getattr(self.module, "BASELINES", {})
        fn = table.get(req["target"])
        if not callable(fn):
            raise ValueError(f"no baseline {req['target']!r} to compile")
        if req["target"] not in self.compiled:  # compiled once per process, in its own /tmp
            self.compiled[req["target"]] = torch.compile(fn, dynamic=False)
        compiled = self.compiled[req["target"]]
        sets = [decode_args(s, tensors) for s in req["sets"]]
        flush = torch.empty(req["flush_bytes"] // 4, dtype=torch.float32, device="cuda")
        for _ in range(int(req["warmup"])):
            compiled(*sets[0])
        rounds = int(req["rounds"])
        times = [timed_call(compiled, sets[r % len(sets)], flush)[0] for r in range(rounds)]
        del sets, flush
        torch.cuda.empty_cache()
        self.reply(times)


def _tensor(value: Any, what: str) -> torch.Tensor:
    if type(value) is not torch.Tensor:
        raise TypeError(f"{what} returned a {type(value).__name__}, not a Tensor")
    return value


def encode_args(args: list[Any]) -> tuple[list[dict[str, Any]], list[torch.Tensor]]:
    specs: list[dict[str, Any]] = []
    tensors: list[torch.Tensor] = []
    for a in args:
        if isinstance(a, torch.Tensor):
            specs.append({"tensor": len(tensors), "cuda": a.is_cuda})
            tensors.append(a)
        elif isinstance(a, bool) or not isinstance(a, int | float):
            raise TypeError(f"make_inputs returned a {type(a).__name__}")
        else:
            specs.append({"value": a})
    return specs, tensors


def decode_args(specs: list[dict[str, Any]], tensors: list[torch.Tensor]) -> list[Any]:
    return [
        (tensors[s["tensor"]].to("cuda") if s.get("cuda") else tensors[s["tensor"]])
        if "tensor" in s
        else s["value"]
        for s in specs
    ]


OPS = {
    "make_inputs": Session.make_inputs,
    "reference": Session.reference,
    "draw": Session.draw,
    "count": Session.count,
    "shortcuts": Session.shortcuts,
    "warm": Session.warm,
    "time": Session.time,
    "round_reference": Session.round_reference,
    "held_reference": Session.held_reference,
    "compiled_times": Session.compiled_times,
}


def _requests(fp: IO[bytes]) -> Any:
    """Each request's header and the tensors that follow it."""
    frames = wire.read_frames(fp, STREAM_LIMIT)
    for header, _ in frames:
        tensors = []
        for _ in range(int(header.get("n", 0))):
            h, payload = next(frames)
            tensors.append(wire.decode_tensor(h.get("tensor"), payload).clone())
        yield header, tensors


def main() -> int:
    problem, fd, inputs_py = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
    out = os.fdopen(fd, "wb")
    _grader_shim(inputs_py)
    try:
        module = _load(problem)
        declared = _declared(module)
    except BaseException as exc:  # an admin's problem.py may raise anything
        what, line = _raised(exc, problem)
        wire.write_frame(out, {"ok": False, "load": True, "error": what, "line": line})
        return 0
    wire.write_frame(out, {"ok": True, "result": declared, "n": 0})
    session = Session(module, out)
    for header, tensors in _requests(sys.stdin.buffer):
        op = OPS.get(str(header.get("op")))
        try:
            if op is None:
                raise ValueError(f"unknown request {header.get('op')!r}")
            op(session, header, tensors)
        except Exception as exc:
            wire.write_frame(out, {"ok": False, "error": _describe_error(exc, problem)})
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)
