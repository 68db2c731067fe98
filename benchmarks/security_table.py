"""Grade every hostile submission in tests/security/exploits once and print a Markdown table
(the one in docs/RELIABILITY.md): tests/security/exploits and the fixtures that are exploits too.

    .venv/bin/python benchmarks/security_table.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader import checkpoints, grade  # noqa: E402
from grader.options import GradeOptions  # noqa: E402
from grader.sandbox.bwrap import Limits  # noqa: E402
from tests.security.catalog import expected, exploits, what  # noqa: E402

ck = checkpoints.get("c3a-softmax")
print("| exploit | what it tries | must get | got | level | wall (s) |")
print("|---|---|---|---|---|---|")
for path in exploits():
    src = path.read_text()
    expect = expected(path)
    t = time.monotonic()
    r = grade(src, ck, GradeOptions(device="cpu", limits=Limits(wall_seconds=30)))
    ok = r.verdict.value in expect
    print(
        f"| {path.stem} | {what(path)} | {' or '.join(expect)} | "
        f"{r.verdict.value}{'' if ok else ' **UNEXPECTED**'} | {r.level} | "
        f"{time.monotonic() - t:.1f} |",
        flush=True,
    )
