"""`kgrade explain RESULT.json EXPLANATION.md [--json]`: re-check an explanation against a
stored grading — the JSON of `kgrade grade --json`, or a submission or result from the API —
without a GPU: the reading sentence by sentence (which number, which quantity, whose, which
case, and the check) and the level it would give. The result page's re-check is the same
function (grader/judge/recheck.py)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from app.cli.common import UsageError, read_source

MAX_RESULT_BYTES = 32 * 1024 * 1024


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "explain",
        help="re-check an explanation against a stored grading (no GPU): the reading and the "
        "level it would give",
    )
    p.add_argument("result", help="a grading's JSON (kgrade grade --json, or the API's)")
    p.add_argument("explanation", help="the explanation (Markdown), with or without a claims block")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_explain)


def load_result(path: Path) -> Any:
    from grader import GradeResult

    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    if path.stat().st_size > MAX_RESULT_BYTES:
        raise UsageError(f"{path} is larger than 32 MiB: not a grading's JSON")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError(f"{path} is not JSON: {exc}") from exc
    if isinstance(data, dict) and isinstance(data.get("result"), dict):
        data = data["result"]  # a submission or a result of the API; a recorded grading
    if not isinstance(data, dict) or "verdict" not in data:
        raise UsageError(f"{path} holds no grading (no 'verdict'): use kgrade grade --json")
    try:
        return GradeResult.model_validate(data)
    except ValueError as exc:
        first = str(exc).splitlines()[:3]
        raise UsageError(f"{path} is not a grading kgrade reads: {' '.join(first)}") from exc


def cmd_explain(args: argparse.Namespace) -> int:
    from app.checkpoints import registry
    from app.settings import get_settings
    from grader import checkpoints
    from grader.judge import recheck

    result = load_result(Path(args.result))
    text = read_source(Path(args.explanation))
    if result.citable is None:
        raise UsageError(
            f"{args.result} has no measurements to check against (a profiled GPU grading has)"
        )
    try:
        checkpoint = registry.get(result.checkpoint, get_settings().all_checkpoint_dirs)
    except checkpoints.CheckpointError as exc:
        raise UsageError(str(exc)) from exc
    r = recheck.recheck(result, text, checkpoint.definition.rubric)
    print(json.dumps(r.as_json(), indent=2, ensure_ascii=False) if args.json else recheck.render(r))
    return 0
