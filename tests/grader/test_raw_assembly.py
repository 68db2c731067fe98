"""Issue 29: raw assembly is refused in a kernel unless the checkpoint allows it; eviction hints
stay allowed (the flush defeats them: timing.flush_l2)."""

from __future__ import annotations

from grader import checkpoints
from grader.judge.static import check

HEAD = "import torch\nimport triton\nimport triton.language as tl\n"
ASM = """
@triton.jit
def _k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i, mask=i < n)
    t = tl.inline_asm_elementwise(
        "mov.u64 $0, %globaltimer;", "=l", [], dtype=tl.int64, is_pure=False, pack=1
    )
    tl.store(y_ptr + i, x + t.to(tl.float32) * 0, mask=i < n)
"""
LAUNCH = """
def softmax_triton(x):
    y = torch.empty_like(x)
    _k[(1,)](x, y, x.numel(), BLOCK=triton.next_power_of_2(x.numel()))
    return y
"""


def test_inline_asm_is_refused_with_its_line_and_why() -> None:
    report = check(HEAD + ASM + LAUNCH, "softmax_triton")
    text = " ".join(report.forbidden)
    assert "line 9:" in text and "tl.inline_asm_elementwise runs any PTX" in text, text
    assert "allow_inline_asm" in text


def test_importing_it_by_name_is_refused_too() -> None:
    source = HEAD + "from triton.language import inline_asm_elementwise\n" + LAUNCH
    text = " ".join(check(source, "softmax_triton").forbidden)
    assert "runs any PTX" in text, text


def test_the_hardware_timer_of_extra_cuda_is_not_reachable() -> None:
    source = HEAD + ASM.replace(
        """tl.inline_asm_elementwise(
        "mov.u64 $0, %globaltimer;", "=l", [], dtype=tl.int64, is_pure=False, pack=1
    )""",
        "tl.extra.cuda.globaltimer()",
    )
    assert check(source + LAUNCH, "softmax_triton").forbidden


def test_a_checkpoint_may_allow_it() -> None:
    report = check(HEAD + ASM + LAUNCH, "softmax_triton", {"inline_asm_elementwise"})
    assert report.ok, report.forbidden
    assert not any(c.definition.allow_inline_asm for c in checkpoints.builtins().values())


def test_eviction_hints_stay_allowed() -> None:
    source = HEAD + ASM.replace(
        """tl.inline_asm_elementwise(
        "mov.u64 $0, %globaltimer;", "=l", [], dtype=tl.int64, is_pure=False, pack=1
    )""",
        "tl.load(x_ptr + i, mask=i < n, eviction_policy='evict_last')",
    ).replace(
        "tl.store(y_ptr + i, x + t.to(tl.float32) * 0, mask=i < n)",
        "tl.store(y_ptr + i, x + t, mask=i < n, eviction_policy='evict_first')",
    )
    report = check(source + LAUNCH, "softmax_triton")
    assert report.ok, report.forbidden
