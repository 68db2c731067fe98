"""`kgrade grade FILE --checkpoint ID`: grade locally exactly as the service does;
`kgrade checkpoints`: what can be graded."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from app.cli.common import UsageError
from app.settings import get_settings

MAX_SOURCE_BYTES = 256 * 1024


def read_source(path: Path) -> str:
    if not path.exists():
        raise UsageError(f"no such file: {path}")
    if not path.is_file():
        raise UsageError(f"not a file: {path}")
    raw = path.read_bytes()
    if len(raw) > MAX_SOURCE_BYTES:
        raise UsageError(f"{path} is {len(raw)} bytes; a submission may be at most 256 KiB")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text (byte {exc.start})") from exc


def cmd_grade(args: argparse.Namespace) -> int:
    from app import grading
    from grader import SandboxRefused, checkpoints, grade
    from grader.report import render

    settings = get_settings()
    source = read_source(Path(args.file))
    try:
        checkpoint = checkpoints.get(args.checkpoint, settings.checkpoint_dirs)
    except checkpoints.CheckpointError as exc:
        raise UsageError(str(exc)) from exc
    explanation = read_source(Path(args.explanation)) if args.explanation else None
    options = grading.options(
        settings,
        args.device,
        explanation=explanation,
        report_dir=Path(args.report_dir) if args.report_dir else None,
        time_limit=args.time_limit,
        unsafe_no_sandbox=args.unsafe_no_sandbox,
        profile=not args.no_profile,
    )
    try:
        result = grade(source, checkpoint, options)
    except SandboxRefused as exc:
        raise UsageError(str(exc)) from exc
    print(result.model_dump_json(indent=2) if args.json else render(result))
    return 0


def cmd_checkpoints(args: argparse.Namespace) -> int:
    from grader import checkpoints

    settings = get_settings()
    found = []
    folders = checkpoints.builtin_folders() + [
        p.parent for d in settings.checkpoint_dirs for p in sorted(d.glob("*/checkpoint.toml"))
    ]
    for folder in folders:
        d = checkpoints.load(folder).definition
        found.append({"id": d.id, "title": d.title, "entry": d.signature, "dtypes": d.dtypes})
    if args.json:
        print(json.dumps(found, indent=2))
    else:
        width = max(len(c["id"]) for c in found)
        for c in found:
            print(f"{c['id']:<{width}}  {c['title']}\n{'':<{width}}  {c['entry']}")
    return 0
