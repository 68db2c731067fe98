"""The compile check's process, in the sandbox: Triton's real compiler builds each kernel a CPU
precheck launched, with the specialization of that launch, for one GPU target (TARGET). It
needs no GPU. Each specialization goes through Triton's front end (the code generator and the
TTIR passes: where a kernel is refused for what it is); the first of each kernel goes on to a
cubin (TTGIR, LLVM IR, PTX, then the ptxas that ships with Triton). Measured on the four
references' 26 specializations (seconds, in all): code generator 0.30, TTIR 0.08, TTGIR 0.63,
LLVM IR 1.80, PTX 0.36, cubin 1.55: the whole way for each would cost 12× the front end.

Usage (the parent builds this command): python -I compile_kernels.py FOLDER RESULT_FD TARGET
(TARGET: backend:arch:warp_size, e.g. cuda:90:32).

FOLDER holds `kernels.py`, the restricted module the parent cut out of the submission (its
imports but torch's, its module-level constants and its kernel defs, made kernels by
`triton.jit` at the end; nothing else of the file), and, as the child's launches arrive,
`launch-N.json` (N = 0, 1, …: lists of specializations the parent has validated) and last
`end.json`, each published whole (a rename). It imports the module at once (Triton's start
overlaps the child's run), then compiles each specialization as it comes and answers one
frame each: {"type": "compiled", "key", "ok", "message"}; then {"type": "done"}.

This imports neither torch nor anything of kgrade (the frame format is written here by hand:
`wire.py` needs torch, which costs most of a second to import).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import select
import struct
import sys
import time
from pathlib import Path
from typing import IO, Any

import triton
import triton.language as tl
from triton._C.libtriton import ir
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from triton.compiler.compiler import make_backend
from triton.compiler.errors import CompilationError
from triton.runtime.jit import JITFunction

MAX_MESSAGE = 2000
WAIT_LIMIT = 600.0  # seconds without a new file; the parent's limit ends it sooner


def write_frame(fp: IO[bytes], header: dict[str, Any]) -> None:
    raw = json.dumps(header).encode()
    fp.write(struct.pack("<IQ", len(raw), 0) + raw)
    fp.flush()


def _reader_gone(fd: int) -> bool:
    p = select.poll()
    p.register(fd, select.POLLOUT)
    return any(ev & select.POLLERR for _, ev in p.poll(0))


def _trim(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 20] + "\n  … (trimmed)"


def describe(exc: BaseException, module: Any, lines: list[str]) -> str:
    """Triton's own words, and the submission's lines it points at (the restricted module
    keeps each kernel at its line in the submission)."""
    chain: list[BaseException] = []
    link: BaseException | None = exc
    while link is not None and len(chain) < 16:
        chain.append(link)
        link = link.__cause__ or link.__context__
    errors = [e for e in chain if isinstance(e, CompilationError)]
    if not errors:
        return _trim(f"{type(exc).__name__}: {str(exc).strip()[-1500:]}")
    starts = {
        k.src: k.def_file_line_number
        for k in vars(module).values()
        if isinstance(k, JITFunction) and getattr(k, "src", None)
    }
    at: list[str] = []
    for err in reversed(errors):  # outermost call first, like a traceback
        lineno = getattr(err.node, "lineno", None)
        start = starts.get(err.src)
        if lineno is not None and start is not None:
            n = start + lineno - 1
            code = lines[n - 1].strip() if 0 < n <= len(lines) else ""
            if not at or at[-1] != f"line {n}: {code}":
                at.append(f"line {n}: {code}")
    inner = errors[-1]
    said = (inner.error_message or str(inner)).strip()
    message = f"{type(inner).__name__}: {said}"
    if at:
        message += "\n  at " + "\n  at ".join(at[-3:])
    return _trim(message)


def compile_one(
    module: Any, lines: list[str], spec: dict[str, Any], target: tuple[str, int, int], whole: bool
) -> dict[str, Any]:
    """`whole`: to a cubin (the first specialization of each kernel); else the front end."""
    fn = getattr(module, spec["kernel"], None)
    if not isinstance(fn, JITFunction):
        return {"ok": None, "message": f"no kernel {spec['kernel']!r}"}
    constexprs = {
        k: tl.dtype(v["dtype"]) if isinstance(v, dict) else v for k, v in spec["constexprs"].items()
    }
    try:
        src = ASTSource(fn=fn, signature=dict(spec["signature"]), constexprs=constexprs)
    except Exception as exc:  # ours, not the submission's: say so, judge nothing
        return {"ok": None, "message": f"{type(exc).__name__}: {exc}"[:300]}
    options = {"num_warps": spec["num_warps"], "num_stages": spec["num_stages"]}
    try:
        if whole:
            triton.compile(src, target=GPUTarget(*target), options=options)
        else:
            front_end(src, options, target)
    except Exception as exc:  # Triton refused it: a GPU would too
        return {"ok": False, "message": describe(exc, module, lines)}
    return {"ok": True}


def front_end(src: Any, opts: dict[str, Any], at: tuple[str, int, int]) -> None:
    """Triton's code generator and its TTIR passes, as `triton.compile` runs them: where a
    kernel is refused for what it is (a global, a construct, a type), for its specialization."""
    target = GPUTarget(*at)
    backend = make_backend(target)
    options = backend.parse_options(opts)
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    codegen = backend.get_codegen_implementation(options)
    module = src.make_ir(target, options, codegen, backend.get_module_map(), context)
    stages: dict[str, Any] = {}
    backend.add_stages(stages, options, src.language)
    stages["ttir"](module, {"hash": "0" * 64, "target": target, **options.__dict__})


def warm_up(target: tuple[str, int, int]) -> None:
    """One small kernel of ours to a cubin: Triton's compiler starts (LLVM, ptxas; 0.5-0.7 s)
    while the child still runs, not on the submission's first kernel."""
    src = ASTSource(
        fn=_warm_kernel, signature={"x_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
        constexprs={"BLOCK": 256},
    )  # fmt: skip
    triton.compile(src, target=GPUTarget(*target), options={"num_warps": 4})


@triton.jit
def _warm_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1.0, mask=offs < n)


def main() -> int:
    folder = Path(sys.argv[1])
    out = os.fdopen(int(sys.argv[2]), "wb")
    backend, arch, warp = sys.argv[3].split(":")
    target = (backend, int(arch), int(warp))
    started = time.monotonic()
    try:
        path = folder / "kernels.py"
        spec = importlib.util.spec_from_file_location("kernels", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        lines = path.read_text().splitlines()
    except BaseException as exc:
        write_frame(out, {"type": "module_error", "message": _trim(f"{type(exc).__name__}: {exc}")})
        return 0
    write_frame(out, {"type": "ready", "seconds": time.monotonic() - started})
    n, idle = 0, time.monotonic()
    chosen: set[str] = set()  # kernels whose first specialization goes on to a cubin
    later: list[dict[str, Any]] = []  # those, their front end passed: compiled when idle
    warm = False
    while True:
        part = folder / f"launch-{n}.json"
        if part.exists():  # the front end first, for every specialization, as they come
            for s in json.loads(part.read_text()):
                t = time.monotonic()
                answer = compile_one(module, lines, s, target, whole=False)
                if answer["ok"] and s["kernel"] not in chosen:
                    chosen.add(s["kernel"])
                    later.append(s)
                    continue
                answer |= {"key": s["key"], "seconds": time.monotonic() - t}
                write_frame(out, {"type": "compiled"} | answer)
            n, idle = n + 1, time.monotonic()
        elif not warm:
            warm = True
            with contextlib.suppress(Exception):  # a failure here judges nothing
                warm_up(target)
        elif later:  # the whole way for the first of each kernel, while the child runs
            s = later.pop(0)
            t = time.monotonic()
            answer = compile_one(module, lines, s, target, whole=True)
            answer |= {"key": s["key"], "seconds": time.monotonic() - t}
            write_frame(out, {"type": "compiled"} | answer)
        elif (folder / "end.json").exists() and not (folder / f"launch-{n}.json").exists():
            break
        elif _reader_gone(out.fileno()) or time.monotonic() - idle > WAIT_LIMIT:
            return 0
        else:
            time.sleep(0.01)
    write_frame(out, {"type": "done"})
    out.close()
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)
