"""`kgrade`: the command line. `kgrade grade FILE --checkpoint ID` grades exactly as the
service does; `kgrade checkpoints` lists what can be graded.

Usage errors print one line on stderr and exit 2; a grade, whatever its level, exits 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from app.settings import get_settings

MAX_SOURCE_BYTES = 256 * 1024


class UsageError(Exception):
    pass


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kgrade", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    g = sub.add_parser("grade", help="grade a Triton kernel file locally")
    g.add_argument("file")
    g.add_argument("--checkpoint", "-c", required=True, help="checkpoint id (see `checkpoints`)")
    g.add_argument("--json", action="store_true", help="print one JSON object")
    g.add_argument(
        "--device",
        choices=["auto", "cpu", "cuda"],
        default="auto",
        help="cpu: Triton interpreter; cuda: the GPU (default: cuda when present)",
    )
    g.add_argument("--time-limit", type=float, default=None, help="seconds (default per device)")
    g.add_argument(
        "--explanation", metavar="FILE", help="why your kernel wins (Markdown); checked for level 3"
    )
    g.add_argument(
        "--report-dir", metavar="DIR", help="keep the Nsight Compute .ncu-rep of your kernel here"
    )
    g.add_argument("--no-profile", action="store_true", help="skip Nsight Compute (no level 3)")
    g.add_argument(
        "--unsafe-no-sandbox",
        action="store_true",
        help="run the submission WITHOUT bubblewrap (only for code you trust)",
    )
    g.set_defaults(func=cmd_grade)

    c = sub.add_parser("checkpoints", help="list the checkpoints that can be graded")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_checkpoints)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except UsageError as exc:
        print(f"kgrade: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("kgrade: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
