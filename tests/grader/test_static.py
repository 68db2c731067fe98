"""Static checks: fast answers, in plain words, before anything runs."""

import pytest

from grader.judge.static import check

GOOD = """
import torch
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, n, B: tl.constexpr):
    pass

def softmax_triton(x):
    return x

if __name__ == "__main__":
    import time, os   # never runs in the grader: not checked
    x = torch.randn(4, 4, device="cuda")
"""


def test_a_well_formed_file_passes() -> None:
    report = check(GOOD, "softmax_triton")
    assert report.ok, report


def test_syntax_error_names_the_line() -> None:
    report = check("def softmax_triton(:\n  pass\n", "softmax_triton")
    assert report.syntax_error is not None
    assert "line 1" in report.syntax_error


def test_missing_entry_is_reported() -> None:
    report = check(GOOD.replace("def softmax_triton", "def softmax"), "softmax_triton")
    assert any("softmax_triton" in p for p in report.problems)
    assert not report.no_kernel  # a missing entry alone is not forbidden: compile_error


def test_no_triton_kernel_is_reported() -> None:
    report = check("import torch\ndef softmax_triton(x):\n    return x\n", "softmax_triton")
    assert any("triton.jit" in p for p in report.problems)
    assert report.no_kernel  # the typed reason the verdict is forbidden


def test_the_verdict_of_a_refused_file_comes_from_the_typed_reason() -> None:
    from grader import checkpoints, grade

    ck = checkpoints.get("c3a-softmax")
    no_entry = grade(GOOD.replace("def softmax_triton", "def softmax"), ck)
    no_kernel = grade("import torch\ndef softmax_triton(x):\n    return x\n", ck)
    assert no_entry.verdict.value == "compile_error"
    assert no_kernel.verdict.value == "forbidden"


@pytest.mark.parametrize(
    "snippet",
    [
        "import os",
        "import subprocess",
        "from socket import socket",
        "import ctypes",
        "import importlib",
        "import numpy",
        "import gc",
        "import threading",
        "import multiprocessing",
        "import sys",
        "x = eval('1')",
        "exec('x = 1')",
        "m = __import__('os')",
        "f = open('/etc/passwd')",
        "t = torch._C",
        "t = torch.utils._python_dispatch",
        "f = torch.compile",
        "import torch._dynamo",
        "from torch.utils import cpp_extension",
        "from torch import compile as tc",  # found in a review: names of a from-import
        "from torch import _dynamo",
        "from torch import _C",
        "k = (1).__class__.__subclasses__()",
        "g = softmax_triton.__globals__",
        "from . import x",
    ],
)
def test_escape_hatches_are_forbidden(snippet: str) -> None:
    report = check(GOOD + "\n" + snippet + "\n", "softmax_triton")
    assert report.forbidden, snippet


# --- the program the sandbox runs: regenerated from the checked tree --------------------------

KERNEL_WITH_TRICKS = '''
import torch
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, n):
    """A docstring whose lines look like code:
def k(x_ptr, n):
    import os
    os.system("id")
    """
    pass  # a comment\u2028import os\x0cos.system("id")
    s = "if __name__ == '__main__': a line\u2028def k(x_ptr, n): import os"

def softmax_triton(x):
    """Quote: if __name__ == "__main__": run()"""
    return x
'''


def test_the_program_run_is_regenerated_from_the_checked_tree() -> None:
    import ast

    report = check(KERNEL_WITH_TRICKS, "softmax_triton")
    assert report.ok, report
    run = report.runnable
    assert "import os" not in run.replace('"', "").split("s = ")[0]
    live = [ln for ln in run.splitlines() if not ln.strip().startswith("s =")]
    assert "os.system" not in "".join(live)
    # one line model: what splitlines() sees is what the tokenizer sees
    assert run.splitlines() == run.split("\n")[:-1]
    assert not any(c in run for c in "\u2028\u2029\x0c\x0b\x85\r")
    # the only lines that begin with `def` are real definitions
    tree = ast.parse(run)
    defs = {n.lineno for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    starts = {i for i, ln in enumerate(run.splitlines(), 1) if ln.lstrip().startswith("def ")}
    assert starts == defs
    # no docstring is left
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        assert not (isinstance(fn.body[0], ast.Expr) and isinstance(fn.body[0].value, ast.Constant))


def test_the_program_keeps_the_files_line_numbers() -> None:
    report = check(GOOD, "softmax_triton")
    source = GOOD.splitlines()
    for i, text in enumerate(report.runnable.splitlines(), 1):
        if text.strip():
            assert report.source_line(i) == i
            assert source[i - 1].strip().startswith(text.strip()[:6])


def test_a_statement_that_grows_shifts_the_next_and_the_map_says_where_they_came_from() -> None:
    src = GOOD.replace("    return x", "    y = x; return y")
    report = check(src, "softmax_triton")
    assert report.ok, report
    lines = report.runnable.splitlines()
    ret = next(i for i, ln in enumerate(lines, 1) if ln.strip() == "return y")
    orig = next(i for i, ln in enumerate(src.splitlines(), 1) if "return y" in ln)
    assert ret == orig + 1 and report.source_line(ret) == orig


def test_a_refused_file_gets_no_program() -> None:
    report = check(GOOD.replace("return x", "return open('x')"), "softmax_triton")
    assert report.forbidden and report.runnable == ""


# --- the parent is never the weak point -----------------------------------------------------


def test_the_worst_refusal_of_a_256_kib_file_stays_small() -> None:
    import json

    from grader import checkpoints
    from grader.pipeline import _refused

    line = "v = open(__file__).read().__class__\n"
    src = GOOD + line * (256 * 1024 // len(line))
    report = check(src, "softmax_triton")
    assert report.forbidden and len(report.forbidden) <= 21
    assert "more refusals" in report.forbidden[-1]
    refused = _refused(report, checkpoints.get("c3a-softmax"), "cpu")
    assert refused is not None and len(refused.model_dump_json()) < 64 * 1024
    assert len(json.dumps(report.forbidden)) < 64 * 1024


@pytest.mark.parametrize(
    "expr",
    [
        "+".join(["1"] * 400),
        "x" + ".a" * 1200,
        "-" * 150 + "1",
        "f" + "(1)" * 300,
        "x" + "[0]" * 500,
        "[" * 150 + "]" * 150,
        "not " * 300 + "x",
        "lambda: " * 200 + "1",
    ],
    ids=["sum", "attributes", "unary", "calls", "subscripts", "lists", "not", "lambdas"],
)
def test_deep_expressions_are_refused_never_an_internal_error(expr: str) -> None:
    for where in (f"C = {expr}\n", f"def softmax_triton(x):\n    return {expr}\n"):
        report = check(GOOD.replace("def softmax_triton", "def _old") + where, "softmax_triton")
        assert report.syntax_error or report.forbidden, report
        if report.forbidden:
            assert all(len(m) < 500 for m in report.forbidden)


def test_generated_inputs_never_raise() -> None:
    """Random short programs out of a grammar of hostile pieces: check() always answers."""
    import random

    pieces = [
        "np = None\n",
        "del np\n",
        "global _k\n",
        "if False:\n    open = 1\n",
        "_k = triton.jit(_k if 1 else _k)\n",
        "for _k in (): pass\n",
        "x = [1]\n",
        "def f(a, b={}):\n    b[a] = 1\n",
        "@triton.jit\ndef _k(x):\n    tl.reduce(x, 0, x)\n",
        "s = '\u2028def _k(x):'\n",
        "y = (lambda: 1)()\n",
        "class A: pass\n",
        "import functools\n",
        "@functools.wraps\ndef g(): pass\n",
        "x = " + "(" * 50 + ")" * 50,
        "z = 1 +\n",
        "\x0c\n",
        "if __name__ == '__main__':\n    pass\n",
        "nonlocal q\n",
        "def h():\n    yield 1\n",
        "C = tl.constexpr(4)\nD = C.value\n",
    ]
    rng = random.Random(28)
    for _ in range(300):
        src = "import torch\nimport triton\nimport triton.language as tl\n" + "".join(
            rng.choice(pieces) for _ in range(rng.randint(1, 8))
        )
        report = check(src, "softmax_triton")
        assert report.syntax_error is not None or report.forbidden or report.problems or report.ok
        if report.ok:
            import ast

            ast.parse(report.runnable)


# --- one binding per kernel; names filled in; no state between calls ------------------------
