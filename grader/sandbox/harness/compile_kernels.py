"""The compile check's process, in the sandbox: Triton's real compiler builds each kernel a CPU
precheck launched, with the specialization of that launch, for one GPU target (TARGET). It
needs no GPU. Each specialization goes through Triton's front end (the code generator and the
TTIR passes: where a kernel is refused for what it is); it goes on to a cubin (TTGIR, LLVM IR,
PTX, then the ptxas that ships with Triton) when it is the first with its code (kernel, argument
types, constexprs) or the first of its kernel with its num_warps and num_stages: what only the
back end or ptxas refuses (inline PTX) is found in any of them, not only in the one a decoy
launch made first. Measured on the four references' 26 specializations
(seconds, in all): code generator 0.30, TTIR 0.08, TTGIR 0.63, LLVM IR 1.80, PTX 0.36, cubin
1.55; the cubins are built while the child still runs, as they come.

Usage (the parent builds this command): python -I compile_kernels.py FOLDER RESULT_FD TARGET
(TARGET: backend:arch:warp_size, e.g. cuda:90:32).

FOLDER holds `kernels.py`, the restricted module the parent regenerated from the checked
program's AST (its imports but torch's, its module-level constants and its kernel defs, made
kernels by `triton.jit` at the end; nothing else of the file), `lines.json` (each of its lines ->
[the program's line, that statement], for messages), and, as the child's launches arrive,
`launch-N.json` (N = 0, 1, …: lists of specializations the parent has validated) and last
`end.json`, each published whole (a rename). It imports the module at once (Triton's start
overlaps the child's run), then compiles each specialization as it comes, saying
{"type": "start", "key"} before and {"type": "compiled", "key", "ok", "message", "seconds"}
after each; then {"type": "done"}.

This imports nothing of kgrade (the frame format is written here by hand), and torch only
when a launch passed a torch dtype as a constexpr (a GPU launch hands the compiler that very
object): `wire.py` needs torch, which costs most of a second to import.
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
# What a GPU checks when it loads a compiled kernel (Triton's CompiledKernel._init_handles), which
# no GPU does here: threads per block (every CUDA GPU since sm_20), and shared memory per block
# by compute capability (the opt-in maximum: sm_90 232448 bytes; the course's sm_120, 101376).
# A block's registers (a GPU's n_max_threads) are not known without loading it: the GPU stage.
MAX_THREADS = 1024
MAX_SHARED = {80: 166912, 86: 101376, 89: 101376, 90: 232448, 100: 232448, 120: 101376}
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


def describe(exc: BaseException, module: Any, lines: dict[str, list[Any]]) -> str:
    """Triton's own words, and the program's lines it points at (`lines`: the restricted
    module's line -> [the program's line, its statement])."""
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
            here = lines.get(str(start + lineno - 1)) or lines.get(str(start))
            if here is not None and (not at or at[-1] != f"line {here[0]}: {here[1]}"):
                at.append(f"line {here[0]}: {here[1]}")
    inner = errors[-1]
    said = (inner.error_message or str(inner)).strip()
    message = f"{type(inner).__name__}: {said}"
    if at:
        message += "\n  at " + "\n  at ".join(at[-3:])
    return _trim(message)


def constexpr(module: Any, v: Any) -> Any:
    """A constexpr as the parent validated it, back to what a GPU launch hands the compiler."""
    if not isinstance(v, dict):
        return v
    ((kind, value),) = v.items()
    if kind == "dtype":
        return tl.dtype(value)
    if kind == "torch_dtype":
        import torch  # only now: a second to import

        return getattr(torch, value)
    if kind == "jit":
        return getattr(module, value)
    return tuple(constexpr(module, e) for e in value)


def compile_one(
    module: Any,
    lines: dict[str, list[Any]],
    spec: dict[str, Any],
    target: tuple[str, int, int],
    whole: bool,
) -> dict[str, Any]:
    """`whole`: to a cubin (each specialization whose front end passed); else the front end."""
    fn = getattr(module, spec["kernel"], None)
    if not isinstance(fn, JITFunction):
        return {"ok": None, "message": f"no kernel {spec['kernel']!r}"}
    try:
        constexprs = {k: constexpr(module, v) for k, v in spec["constexprs"].items()}
        src = ASTSource(fn=fn, signature=dict(spec["signature"]), constexprs=constexprs)
    except Exception as exc:  # ours, not the submission's: say so, judge nothing
        return {"ok": None, "message": f"{type(exc).__name__}: {exc}"[:300]}
    options = {"num_warps": spec["num_warps"], "num_stages": spec["num_stages"]}
    options |= {k: spec[k] for k in ("num_ctas", "maxnreg") if k in spec}
    threads = int(spec["num_warps"]) * target[2]
    if threads > MAX_THREADS:
        return {
            "ok": False,
            "message": _unloadable(
                spec,
                f"{threads} threads per block "
                f"(num_warps={spec['num_warps']}), more than a GPU runs ({MAX_THREADS})",
            ),
        }
    try:
        if whole:
            built = triton.compile(src, target=GPUTarget(*target), options=options)
        else:
            front_end(src, options, target)
    except Exception as exc:  # Triton refused it: a GPU would too
        return {"ok": False, "message": describe(exc, module, lines)}
    shared = int(getattr(built.metadata, "shared", 0) or 0) if whole else 0
    limit = MAX_SHARED.get(target[1])
    if limit is not None and shared > limit:
        return {
            "ok": False,
            "message": _unloadable(
                spec,
                f"{shared} bytes of shared memory, "
                f"more than sm_{target[1]} gives a block ({limit})",
            ),
        }
    return {"ok": True}


def _unloadable(spec: dict[str, Any], why: str) -> str:
    """What a GPU says when it loads the compiled kernel (Triton's OutOfResources), said here
    where no GPU loads anything."""
    return (
        f"the kernel {spec['kernel']} compiles, but a GPU refuses to load it: it needs "
        f"{why} (Triton's OutOfResources at launch)"
    )


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
        lines = json.loads((folder / "lines.json").read_text())
    except BaseException as exc:
        write_frame(out, {"type": "module_error", "message": _trim(f"{type(exc).__name__}: {exc}")})
        return 0
    write_frame(out, {"type": "ready", "seconds": time.monotonic() - started})
    n, idle = 0, time.monotonic()
    # A specialization whose front end passed goes on to a cubin, compiled when idle, when it
    # is the first with its front end (kernel, argument types, constexprs: the code) or the
    # first of its kernel with its num_warps and num_stages (the layouts): a decoy first
    # launch cannot keep a later one from ptxas, and an autotuner's configs that differ only
    # in warps and stages cost one cubin per value, not one per product (measured: the lab
    # file's 20 configs).
    later: list[dict[str, Any]] = []
    whole: set[str] = set()  # the front ends and (kernel, warps, stages) sent to a cubin
    # The front end's answer by (kernel, signature, constexprs): the code generator and TTIR do
    # not depend on num_warps or num_stages, so an autotuner's configs that differ only there
    # are one front end (the course's lab file's 20 configs: 5 front ends per argument types).
    front: dict[str, dict[str, Any]] = {}
    warm = False
    while True:
        part = folder / f"launch-{n}.json"
        if part.exists():  # the front end first, for every specialization, as they come
            for s in json.loads(part.read_text()):
                write_frame(out, {"type": "start", "key": s["key"]})
                t = time.monotonic()
                same = json.dumps([s["kernel"], s["signature"], s["constexprs"]], sort_keys=True)
                if same not in front:
                    front[same] = compile_one(module, lines, s, target, whole=False)
                answer = dict(front[same])
                layout = json.dumps(
                    [
                        s["kernel"],
                        s["num_warps"],
                        s["num_stages"],
                        s.get("num_ctas"),
                        s.get("maxnreg"),
                    ]
                )
                if answer["ok"] and not {same, layout} <= whole:
                    whole |= {same, layout}
                    later.append(s)
                    continue
                answer |= {"key": s["key"], "seconds": time.monotonic() - t}
                write_frame(out, {"type": "compiled"} | answer)
            n, idle = n + 1, time.monotonic()
        elif not warm:
            warm = True
            with contextlib.suppress(Exception):  # a failure here judges nothing
                warm_up(target)
        elif later:  # the whole way for each, while the child runs
            s = later.pop(0)
            write_frame(out, {"type": "start", "key": s["key"]})
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
