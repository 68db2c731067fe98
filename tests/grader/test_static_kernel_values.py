"""Host Python reaching a kernel body as a value (the 2026-12-03 red team, issue 28): a module
name inside a kernel is only the base of an attribute (`m = math; m.exp(x)` would reach any
function of math under a tl name), and a module-level constant is a number, a string, a dtype
or a tuple of them — never a function (`tl.constexpr(math.exp)`, `.value` then called)."""

import pytest

from grader.judge.static import check

HEAD = "import math\nimport torch\nimport triton\nimport triton.language as tl\n"
ENTRY = "def softmax_triton(x):\n    return x\n"


def _kernel(body: str, before: str = "") -> str:
    return HEAD + before + "@triton.jit\ndef k(x_ptr, n, B: tl.constexpr):\n" + body + ENTRY


@pytest.mark.parametrize(
    ("before", "body"),
    [
        ("", "    m = math\n    y = m.exp(1.0)\n"),
        ("", "    lang = tl\n    y = lang.arange(0, B)\n"),
        ("", "    y = (math, 1)[1]\n"),
        ("HOST_EXP = tl.constexpr(math.exp)\n", "    y = HOST_EXP.value(1.0)\n"),
        ("F = math.exp\n", "    y = F(1.0)\n"),
        ("G = (math.sqrt, 2)\n", "    y = G[0](2.0)\n"),
    ],
)
def test_host_python_reaches_no_kernel_as_a_value(before: str, body: str) -> None:
    report = check(_kernel(body, before), "softmax_triton")
    assert report.forbidden, "refused"


@pytest.mark.parametrize(
    ("before", "body"),
    [
        ("SCALE = math.pi\n", "    y = SCALE * 2.0\n"),
        ("LOG2E = tl.constexpr(1.0 / math.log(2.0))\n", "    y = LOG2E * 1.0\n"),
        ("DT = tl.float16\n", "    y = tl.zeros((B,), dtype=DT)\n"),
        ("NEG = -math.inf\n", "    y = tl.full((B,), NEG, tl.float32)\n"),
        ("", "    y = tl.exp(tl.zeros((B,), tl.float32)) * math.pi\n"),
    ],
)
def test_numbers_dtypes_and_module_attributes_stay_usable(before: str, body: str) -> None:
    report = check(_kernel(body, before), "softmax_triton")
    assert report.ok, report.forbidden
