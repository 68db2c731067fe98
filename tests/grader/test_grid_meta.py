"""A grid function gets a read-only copy of the launch's `meta`: it may read it as Triton's
tutorials do (`meta["BLOCK"]`, `**meta`, `.get`, `.copy()`, `|`); a write of any kind is
`forbidden` with kgrade's own sentence (it was a TypeError about a mappingproxy, a
`runtime_error`), and the launch runs with the arguments checked before the grid ran."""

from __future__ import annotations

import pytest

from grader import Verdict
from tests.conftest import GradeFn

KERNEL = """import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()

    def grid(meta):
{body}

    add_kernel[grid](x, y, out, n, BLOCK=1024)
    return out
"""


def source(body: str) -> str:
    return KERNEL.format(body="\n".join(f"        {line}" for line in body.splitlines()))


READS = {
    "item": 'return (triton.cdiv(n, meta["BLOCK"]),)',
    "get": 'return (triton.cdiv(n, meta.get("BLOCK", 1024)),)',
    "copy": 'm = meta.copy()\nm["BLOCK"] = 0\nreturn (triton.cdiv(n, meta["BLOCK"]),)',
    "union": 'm = meta | {"EXTRA": 1}\nreturn (triton.cdiv(n, m["BLOCK"]),)',
    # an int argument read from meta: under the interpreter a triton.language scalar
    "int_argument": 'return (triton.cdiv(meta["n"], meta["BLOCK"]),)',
    "len_keys": "assert len(meta) >= 1 and 'BLOCK' in meta\nreturn (triton.cdiv(n, 1024),)",
}
WRITES = {
    "item": 'meta["BLOCK"] = 2048\nreturn (triton.cdiv(n, 2048),)',
    "delete": 'del meta["BLOCK"]\nreturn (triton.cdiv(n, 1024),)',
    "update": "meta.update(BLOCK=2048)\nreturn (triton.cdiv(n, 2048),)",
    "setdefault": 'meta.setdefault("EXTRA", 1)\nreturn (triton.cdiv(n, 1024),)',
    "in_place_union": 'meta |= {"BLOCK": 2048}\nreturn (triton.cdiv(n, 2048),)',
    "caught": (
        "try:\n"
        '    meta["BLOCK"] = 2048\n'
        "except Exception:\n"
        "    pass\n"
        "return (triton.cdiv(n, 1024),)"
    ),
}


@pytest.mark.parametrize("name", sorted(READS))
def test_a_grid_that_reads_its_meta_is_correct(grade_source: GradeFn, name: str) -> None:
    result = grade_source(source(READS[name]), "c3a-vector-add")
    assert result.verdict == Verdict.CORRECT, result.messages[:3]


@pytest.mark.parametrize("name", sorted(WRITES))
def test_a_grid_that_writes_its_meta_is_refused_in_kgrades_words(
    grade_source: GradeFn, name: str
) -> None:
    result = grade_source(source(WRITES[name]), "c3a-vector-add")
    assert result.verdict == Verdict.FORBIDDEN, (result.verdict, result.messages[:3])
    text = " ".join(result.messages)
    assert "wrote to its `meta`" in text, result.messages[:3]
    assert "mappingproxy" not in text
