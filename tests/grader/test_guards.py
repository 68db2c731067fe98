"""The child's TorchGuard and fenced memory, in a fresh process under the interpreter as in the
sandbox: what the guard flags and poisons; that entering it costs no import of torch._dynamo
(1 s here, 3-4 s on the GPU host, in every grading: measured on 2026-11-30 with
benchmarks/child_start_parts.py); and that a kernel stepping one element past a tensor, or
a page before it, dies at once instead of reading whatever the heap holds there."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.grader.interpreted import run_interpreted

ROOT = Path(__file__).resolve().parents[2]
PRELUDE = """
import json, mmap, sys
sys.path.insert(0, "grader/sandbox")
import torch
from harness import fenced, guards
"""

GUARD = (
    PRELUDE
    + """
launched = set()  # storages a kernel was handed (the launch counter fills it)
guard = guards.TorchGuard({"add"}, 1e30, fence=True, launched=launched)
x = torch.arange(12.0).reshape(3, 4).t()  # not contiguous
with guard:
    e = torch.empty_like(x)
    z = torch.zeros(5, dtype=torch.float16)
    c = x.clone()
    launched.add(c.untyped_storage().data_ptr())  # as if a kernel had written c
    y = c.add(1)  # an allowed op's output, on a kernel's output
    s = torch.softmax(y, 0)
    r = torch.arange(7)
    k = torch.tensor([1.0, 2.0, 3.0])
    g = torch.ones(3)
    g.resize_(1000)  # grows: moved to fenced memory, contents kept, the rest poisoned
    q = torch.empty(0)
    q.resize_(5)
    v = e[1:]  # a view: stays in e's memory
    sp = torch.sparse_coo_tensor([[0]], [1.0], (3,))  # no storage of one piece: not fenced
plain = guards.TorchGuard(set(), 0.0)
with plain:
    p = torch.empty(1000)

def fenced_end(t):  # ends less than 16 bytes before a page boundary, starts 16-byte aligned
    end = t.untyped_storage().data_ptr() + t.untyped_storage().nbytes()
    return -end % mmap.PAGESIZE < 16 and t.data_ptr() % 16 == 0

maps = open("/proc/self/maps").read()
shared = [l for l in maps.splitlines() if " rw-s " in l and "/dev/zero" in l]
print(json.dumps({
    "dynamo": "torch._dynamo" in sys.modules,
    "forbidden": guard.forbidden,
    "poisoned": bool((e == 1e30).all()),
    "fenced": [fenced_end(t) for t in (e, z, c, y, r, k, g)],
    "view_shares": v.untyped_storage().data_ptr() == e.untyped_storage().data_ptr(),
    "strides": [list(e.stride()), list(c.stride())],
    "clone_equal": bool(torch.equal(c, x)),
    "zeros": bool((z == 0).all()),
    "values": [r.tolist(), k.tolist(), g[:3].tolist(), g.shape[0]],
    "grown_poisoned": [bool((g[3:] == 1e30).all()), bool((q == 1e30).all()), fenced_end(q)],
    "sparse": sp.layout == torch.sparse_coo,
    "plain_fenced": fenced_end(p),
    "shared_mappings": len(shared),
}))
"""
)


def test_the_guard_flags_poisons_and_fences_without_importing_dynamo() -> None:
    seen = run_interpreted(GUARD)
    assert seen["forbidden"] == [  # flagged, not crashed on: sparse has no one-piece storage
        "torch.ops.aten._softmax",
        "torch.ops.aten._sparse_coo_tensor_with_dims_and_tensors",
    ]
    assert seen["poisoned"]
    assert not seen["dynamo"], "the guard's first op imported torch._dynamo"
    assert seen["fenced"] == [True] * 7
    assert seen["view_shares"]
    assert seen["strides"] == [[1, 4], [1, 4]]
    assert seen["clone_equal"] and seen["zeros"]
    assert seen["values"] == [list(range(7)), [1.0, 2.0, 3.0], [1.0, 1.0, 1.0], 1000]
    assert seen["grown_poisoned"] == [True, True, True]
    assert seen["sparse"]
    assert not seen["plain_fenced"], "fence=False must leave allocation alone"
    assert seen["shared_mappings"] == 0, "fenced memory must be private to the process"


KERNEL = (
    PRELUDE
    + """
import triton
import triton.language as tl

@triton.jit
def read(x_ptr, out_ptr, start, n, BLOCK: tl.constexpr):
    offs = start + tl.arange(0, BLOCK)
    tl.store(out_ptr + tl.arange(0, BLOCK), tl.load(x_ptr + offs), mask=tl.arange(0, BLOCK) < n)

x = fenced.clone(torch.arange(1000, dtype=torch.float32))
assert fenced.clone(torch.ones(3)).data_ptr() % 16 == 0  # 12 bytes: still 16-byte aligned
out = torch.zeros(8)
start, n = int(sys.argv[1]), int(sys.argv[2])
read[(1,)](x, out, start, n, BLOCK=8)
print(json.dumps(out[:n].tolist()))
"""
)


def _read(start: int, n: int) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "TRITON_INTERPRET": "1", "CUDA_VISIBLE_DEVICES": ""}
    return subprocess.run(
        [sys.executable, "-c", KERNEL, str(start), str(n)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def test_reads_up_to_the_last_element_of_fenced_memory_work() -> None:
    done = _read(992, 8)  # the last 8 elements, no mask needed
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [float(v) for v in range(992, 1000)]


@pytest.mark.parametrize("start", [993, -1024], ids=["one-past-the-end", "a-page-before"])
def test_a_kernel_stepping_outside_fenced_memory_dies_of_sigsegv(start: int) -> None:
    # loads 8 elements unmasked: the first past the end, or a page (4 KiB) before the start
    done = _read(start, 1)
    assert done.returncode == -signal.SIGSEGV, (done.returncode, done.stderr[-2000:])
