"""`kgrade`: the command line for students, instructors, admins and operators.

Usage errors print one line on stderr and exit 2; a grade, whatever its level, exits 0.
"""

from __future__ import annotations

import argparse
import os
import sys

from app.cli import (
    checkpoints_cmd,
    client_cmd,
    course_cmd,
    deadline_cmd,
    explain_cmd,
    grade_cmd,
    regrade_cmd,
    service_cmd,
    similarity_cmd,
)
from app.cli.common import UsageError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kgrade", description="Auto-grading of Triton kernels.")
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
    g.set_defaults(func=grade_cmd.cmd_grade)

    c = sub.add_parser(
        "checkpoints",
        help="list checkpoints (the server's with KGRADE_TOKEN), validate or add a folder, "
        "open or close one on the server, show or set its deadline",
    )
    c.add_argument(
        "action",
        nargs="?",
        default="list",
        choices=["list", "validate", "add", "open", "close", "deadline"],
    )
    c.add_argument(
        "folder",
        nargs="?",
        help="a checkpoint folder (validate, add); an id (open, close, deadline)",
    )
    c.add_argument("--json", action="store_true")
    c.add_argument(
        "--local",
        action="store_true",
        help="list, or add to, this machine's checkpoints, not the server's",
    )
    c.add_argument("--no-wait", action="store_true", help="add: send it to the server and return")
    deadline_cmd.add_arguments(c)
    c.set_defaults(func=checkpoints_cmd.cmd_checkpoints)

    service_cmd.add_parsers(sub)
    client_cmd.add_parsers(sub)
    course_cmd.add_parsers(sub)
    similarity_cmd.add_parsers(sub)
    regrade_cmd.add_parsers(sub)
    explain_cmd.add_parsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for stream in (sys.stdout, sys.stderr):  # text that cannot be encoded is shown, not raised
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        return int(args.func(args))
    except UsageError as exc:
        print(f"kgrade: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("kgrade: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `kgrade … | head`
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0


if __name__ == "__main__":
    sys.exit(main())
