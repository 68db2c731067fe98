"""Red-team runner for issue 28: grade every file here with the real grader on CPU.

Usage: python tests/security/redteam28/run.py --root /work/main [FILE ...]

Each file starts with `# expect: v1|v2` (hostile: anything but `correct`; honest: `correct`),
a `# ` line saying what it tries and optionally `# checkpoint: <id>` (default c3a-softmax).
`--root PATH` imports grader from that checkout. Prints one row per file: file, expected, got,
OK/HOLE, wall seconds, the first messages (one line). A hostile file is a HOLE when it gets
`correct`, `internal_error` (the trusted parent failed on it) or crashes the grader, or when its
result's JSON is over 64 KiB; an honest file is a HOLE unless it gets `correct`.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def header(path: Path) -> tuple[list[str], str, str]:
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    m = re.search(r"^# expect: ([\w|]+)", text, re.MULTILINE)
    expect = m.group(1).split("|") if m else ["?"]
    c = re.search(r"^# checkpoint: ([\w-]+)", text, re.MULTILINE)
    lines = [ln for ln in text.splitlines()[:6] if ln.startswith("# ")]
    what = next((ln[2:] for ln in lines if not ln.startswith(("# expect:", "# checkpoint:"))), "")
    return expect, c.group(1) if c else "c3a-softmax", what


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True, help="checkout to import grader from")
    ap.add_argument("--wall", type=float, default=60.0)
    ap.add_argument("files", nargs="*")
    ns = ap.parse_args()
    sys.path.insert(0, str(Path(ns.root).resolve()))
    import grader
    from grader import checkpoints, grade
    from grader.options import GradeOptions
    from grader.sandbox.bwrap import Limits

    print(f"# grader from {Path(grader.__file__).resolve().parent}", flush=True)
    files = [Path(f) for f in ns.files] or sorted(
        p for p in HERE.glob("*.py") if p.name != "run.py"
    )
    holes = 0
    for path in files:
        expect, ckpt, _ = header(path)
        source = path.read_text(encoding="utf-8", errors="surrogateescape")
        t = time.monotonic()
        try:
            r = grade(
                source,
                checkpoints.get(ckpt),
                GradeOptions(device="cpu", limits=Limits(wall_seconds=ns.wall)),
            )
            got = r.verdict.value
            msg = " | ".join(r.messages[:2] if got != "correct" else r.messages[:1])
            size = len(r.model_dump_json())
        except BaseException as exc:  # a crash of the grader itself is a finding too
            got, msg, size = "CRASH", f"{type(exc).__name__}: {str(exc)[:200]}", 0
        wall = time.monotonic() - t
        if "correct" in expect:  # honest (or a file for which a clear refusal is fine too)
            ok = got in expect
        else:  # hostile: anything but correct, and the parent must not fail on it
            ok = got not in {"correct", "CRASH", "internal_error"}
        if size > 64 * 1024:
            ok, msg = False, f"[result JSON {size} bytes] {msg}"
        holes += not ok
        one = " ".join(msg.split())[:220]
        print(
            f"{path.name:44s} {'|'.join(expect)[:34]:34s} {got:15s} "
            f"{'OK  ' if ok else 'HOLE'} {wall:6.1f}s  {one}",
            flush=True,
        )
    print(f"# {len(files)} files, {holes} holes", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
