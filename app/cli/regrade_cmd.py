"""`kgrade regrade` (instructors, against the server): grade again with the checkpoint's
current version, in the background, keeping every earlier result:

    kgrade regrade --submission ID
    kgrade regrade --checkpoint C [--student NAME]
    kgrade regrade --status RID        (its progress)

What the installed version already graded is left out unless `--force`d (refused, saying
so, when that leaves nothing); the override in force on each submission is carried to its
new result unless `--clear-overrides`.

`--wait` follows it until every submission has its new result. `kgrade results ID` lists a
submission's results, newest first, each with the version that graded it."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from app.cli.client_cmd import override_line
from app.cli.common import UsageError
from app.cli.server import call, poll


def _line(r: dict[str, Any]) -> str:
    what = {
        "submission": f"submission {r['target']}",
        "student": f"{r['target']}'s submissions to {r['checkpoint']}",
        "checkpoint": f"all of {r['checkpoint']}",
    }[r["scope"]]
    kept = "" if r.get("carry_overrides", True) else ", overrides cleared"
    return (
        f"regrade {r['id']} of {what} with version {r['version'][:12]}{kept}: "
        f"{r['done']}/{r['total']} done ({r['status']})"
    )


def cmd_regrade(args: argparse.Namespace) -> int:
    if args.status is not None:
        path = f"/api/regrades/{args.status}"
        r = poll(path) if args.wait else call("GET", path).json()
    else:
        if args.student and not args.checkpoint:
            raise UsageError("--student needs --checkpoint: which checkpoint's submissions?")
        if args.submission is None and not args.checkpoint:
            raise UsageError("kgrade regrade --submission ID | --checkpoint C [--student NAME]")
        body = {"submission": args.submission, "checkpoint": args.checkpoint}
        body |= {"student": args.student} if args.student else {}
        body |= {"force": args.force, "clear_overrides": args.clear_overrides}
        r = call("POST", "/api/regrades", json=body).json()
    while args.wait and r["status"] != "done":
        if not args.json:
            print("\r" + _line(r).ljust(72), end="", file=sys.stderr, flush=True)
        time.sleep(1.0)
        r = poll(r["url"])  # a refused connection (the API restarting) is tried again
    if args.wait and not args.json:
        print(file=sys.stderr)
    print(json.dumps(r, indent=2) if args.json else _line(r))
    return 0


def cmd_results(args: argparse.Namespace) -> int:
    rows = call("GET", f"/api/submissions/{args.id}/results").json()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for g in rows:
        version = g["checkpoint_version"][:12] if g["checkpoint_version"] else "before versions"
        how = f"regrade {g['regrade']}" if g["regrade"] else "first grading"
        mark = "  (current)" if g["current"] else ""
        speed = f"{g['speedup']:.2f}×" if g["speedup"] else "-"
        print(
            f"{g['created_at'][:19]}  version {version:<15} {how:<14} {g['verdict'] or '-':<14} "
            f"level {g['level']}  {speed}{mark}"
        )
        for o in g["overrides"]:
            print("    " + override_line(o, g["graded_level"]).split("; its report")[0])
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "regrade",
        help="grade again with the checkpoint's current version, keeping earlier results "
        "(instructors): --submission ID, or --checkpoint C [--student NAME]",
    )
    p.add_argument("--submission", type=int, metavar="ID")
    p.add_argument("--checkpoint", "-c")
    p.add_argument("--student", help="with --checkpoint: one student's submissions")
    p.add_argument("--status", type=int, metavar="REGRADE_ID", help="a regrade's progress")
    p.add_argument(
        "--force", action="store_true", help="also what the installed version already graded"
    )
    p.add_argument(
        "--clear-overrides",
        action="store_true",
        help="the new results start without the instructors' overrides (carried by default)",
    )
    p.add_argument("--wait", action="store_true", help="follow it until it is done")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_regrade)
    p = sub.add_parser("results", help="a submission's results, newest first, with versions")
    p.add_argument("id", type=int)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_results)
