"""Does a kernel that marks its lines `evict_last` gain anything on the next timed round through
the harness's L2 flush? (Issue 29; the GPU measurement is issue 33's: run by hand on a GPU.)

    .venv/bin/python benchmarks/evict_last_flush.py [--rounds 50] [--mb 0] [--dry-run]

A copy kernel over a buffer of half the L2 (or --mb MB) is timed with the grader's own
`timing.timed_call`, round after round on the same buffers (the best case for a kernel that
hopes its lines survive), in three variants: plain loads and stores, `evict_last` on both, and
`evict_last` with a store-only flush (`zero_`, the flush before issue 29). Printed: the median
time of each and the gain of `evict_last` over plain (plain / evict_last - 1) under each flush.
A gain near 0 under the harness's flush (read and write of 2 × L2, the persisting-L2 window
reset) and a clear one under no flush is what the flush should show.

--dry-run: on the CPU, under the Triton interpreter, a small buffer, a few rounds: the script's
own path runs end to end (the kernels compile, the output is checked, the timing call is the
CPU stand-in); the numbers mean nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DRY = "--dry-run" in sys.argv
if DRY:
    os.environ["TRITON_INTERPRET"] = "1"

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from grader.sandbox.harness import timing  # noqa: E402


@triton.jit
def _copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr, EVICT: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    if EVICT:
        v = tl.load(x_ptr + i, mask=m, eviction_policy="evict_last")
        tl.store(y_ptr + i, v * 2, mask=m, eviction_policy="evict_last")
    else:
        v = tl.load(x_ptr + i, mask=m)
        tl.store(y_ptr + i, v * 2, mask=m)


def _launch(evict: bool):  # type: ignore[no-untyped-def]
    def call(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        block = 1024
        _copy[(triton.cdiv(x.numel(), block),)](x, y, x.numel(), BLOCK=block, EVICT=evict)
        return y

    return call


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--mb", type=float, default=0.0, help="buffer size; 0: half the L2")
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    device = "cpu" if args.dry_run else "cuda"
    if device == "cuda":
        from grader.gpu import gpus

        props = torch.cuda.get_device_properties(0)
        l2 = gpus.l2_bytes(torch.cuda.get_device_name(), getattr(props, "L2_cache_size", None))
        name = torch.cuda.get_device_name()
    else:
        l2, name = 1 << 16, "CPU (dry run: the numbers mean nothing)"
        args.rounds = min(args.rounds, 3)
    nbytes = int(args.mb * 1e6) if args.mb else l2 // 2
    n = max(1024, nbytes // 8)  # x and y of fp32: half the L2 in all
    x = torch.randn(n, device=device)
    y = torch.empty_like(x)
    flush = torch.zeros(2 * l2 // 4, device=device)
    print(f"# {name}: L2 {l2 / 1e6:.1f} MB, x and y {2 * n * 4 / 1e6:.1f} MB, {args.rounds} rounds")
    results: dict[str, float] = {}
    for label, evict, flusher in [
        ("plain, harness flush", False, "harness"),
        ("evict_last, harness flush", True, "harness"),
        ("plain, store-only flush", False, "store"),
        ("evict_last, store-only flush", True, "store"),
        ("plain, no flush", False, "none"),
        ("evict_last, no flush", True, "none"),
    ]:
        fn = _launch(evict)
        fn(x, y)  # compile outside the rounds
        assert torch.equal(y, x * 2), "the copy kernel is wrong"
        times = []
        for _ in range(args.rounds):
            if flusher == "harness":
                t, _, _ = timing.timed_call(fn, [x, y], flush)
            else:
                empty = torch.zeros(0, device=device)
                if flusher == "store":
                    flush.zero_()
                t, _, _ = timing.timed_call(fn, [x, y], empty)
            times.append(t)
        results[label] = statistics.median(times)
        print(f"{label:32s} median {results[label]:9.2f} µs")
    for kind in ("harness flush", "store-only flush", "no flush"):
        gain = results[f"plain, {kind}"] / max(results[f"evict_last, {kind}"], 1e-9) - 1
        print(f"evict_last's gain under the {kind}: {100 * gain:+.1f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
