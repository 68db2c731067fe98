"""`kgrade checkpoints deadline ID` against the server: show a checkpoint's deadline, or set
it (`--due`, `--opens`, `--late-until`, `--policy refuse|accept`, `--tz ZONE`; a time without
an offset is read in that zone), or `--clear` it (back to the definition's)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from app.cli.common import UsageError
from app.cli.server import call

SETTERS = ("due", "opens", "late_until", "policy", "tz")


def cmd_deadline(checkpoint_id: str, args: argparse.Namespace) -> int:
    path = f"/api/checkpoints/{checkpoint_id}/deadline"
    given = [k for k in SETTERS if getattr(args, k, None) is not None]
    if args.clear and given:
        raise UsageError("--clear takes no other option")
    if args.clear:
        out = call("DELETE", path).json()
    elif given:
        if args.due is None:
            raise UsageError("setting a deadline needs --due (e.g. --due 2026-12-08T23:59)")
        body = {"due": args.due, "opens": args.opens, "late_until": args.late_until}
        body |= {"policy": args.policy or "refuse", "timezone": args.tz or "UTC"}
        out = call("PUT", path, json=body).json()
    else:
        out = call("GET", path).json()
    print(json.dumps(out, indent=2) if args.json else describe(out))
    return 0


def describe(d: dict[str, Any]) -> str:
    """One line: 'c3a-softmax: due 2026-12-08 23:59 CET (Europe/Berlin); late work accepted
    until …' and where it comes from."""
    if d["source"] == "none":
        return f"{d['checkpoint']}: no deadline"
    shown = d["shown"]
    parts = [f"opens {shown['opens']}"] if "opens" in shown else []
    parts.append(f"due {shown['due']}")
    if d["policy"] == "accept":
        until = f" until {shown['late_until']}" if "late_until" in shown else ""
        parts.append(f"late work accepted{until} and marked late")
    else:
        parts.append("late work refused")
    by = "set by an instructor" if d["source"] == "instructor" else "from its definition"
    return f"{d['checkpoint']}: {'; '.join(parts)} ({by})"


def add_arguments(c: Any) -> None:
    g = c.add_argument_group("deadline ID (instructors, on the server)")
    g.add_argument("--due", help="due time, ISO 8601 (2026-12-08T23:59)")
    g.add_argument("--opens", help="no submission before this")
    g.add_argument("--late-until", dest="late_until", help="with --policy accept: the window")
    g.add_argument("--policy", choices=["refuse", "accept"], help="after the due time")
    g.add_argument("--tz", help="IANA zone the times are read and shown in (default UTC)")
    g.add_argument("--clear", action="store_true", help="back to the definition's deadline")
