"""`kgrade grade FILE --checkpoint ID`: grade locally exactly as the service does (local
grading: no server, no database)."""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli.common import UsageError, read_source
from app.settings import get_settings


def cmd_grade(args: argparse.Namespace) -> int:
    from app import grading
    from app.checkpoints import registry
    from grader import SandboxRefused, checkpoints, grade, render_report

    settings = get_settings()
    source = read_source(Path(args.file))
    try:
        checkpoint = registry.get(args.checkpoint, settings.all_checkpoint_dirs)
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
    print(result.model_dump_json(indent=2) if args.json else render_report(result))
    return 0
