"""Commands for people, against a running server (KGRADE_URL, KGRADE_TOKEN)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from app.cli.common import read_source
from app.cli.server import call, plural, poll


def _report(sub: dict[str, Any], as_json: bool) -> None:
    from grader import GradeResult, render_report

    if as_json:
        print(json.dumps(sub["result"] if sub.get("result") else sub, indent=2))
        return
    if sub.get("late"):  # as the page marks it beside its heading
        print(f"submission {sub['id']}: late (made after the due time)")
    if sub.get("regrade"):
        print(f"submission {sub['id']}: being regraded (regrade {sub['regrade']})")
    if sub.get("result"):
        if sub.get("override"):
            print(override_line(sub["override"], sub.get("graded_level")) + "\n")
        print(render_report(GradeResult.model_validate(sub["result"])))
        if sub.get("checkpoint_version"):
            print(f"graded by version {sub['checkpoint_version'][:12]} of {sub['checkpoint']}")
    else:
        print(f"submission {sub['id']}: {sub['status']} ({sub['stage']})")


def override_line(o: dict[str, Any], graded: int | None) -> str:
    """An override as the pages say it: the level in force, who, when, why, the grader's."""
    when = o["at"][:16].replace("T", " ")
    if o.get("explanation"):
        return (
            f"Level {o['new_level']}: explanation {o['explanation']} by {o['by']} on {when} "
            f'UTC: "{o["note"]}". The level follows from this grading\'s measurements and that '
            f"word, apart from the kernel (the grader gave level {graded}); its report follows."
        )
    return (
        f'Level {o["new_level"]}, set by {o["by"]} on {when} UTC: "{o["note"]}". '
        f"The grader gave this result level {graded}; its report follows."
    )


def level_cell(r: dict[str, Any]) -> str:
    """A history line's level: the one in force, and the grader's if an instructor set it."""
    level = f"level {r['level'] if r['level'] is not None else '-'}"
    if r.get("override"):
        level += f" (set by {r['override']['by']}; graded {r.get('graded_level')})"
    return level


def cmd_submit(args: argparse.Namespace) -> int:
    body = {"checkpoint": args.checkpoint, "source": read_source(Path(args.file))}
    if args.explanation:
        body["explanation"] = read_source(Path(args.explanation))
    sub = call("POST", "/api/submissions", json=body).json()
    if not args.wait:
        print(
            json.dumps({"id": sub["id"], "status": sub["status"]})
            if args.json
            else f"submitted: id {sub['id']} ({sub['status']})"
        )
        return 0
    last = ""
    late = " · late (after the due time)" if sub.get("late") else ""
    while sub["status"] != "done":
        line = f"submission {sub['id']}: {sub['status']} · stage {sub['stage']}{late}"
        if line != last and not args.json:
            print("\r" + line.ljust(60), end="", file=sys.stderr, flush=True)
            last = line
        time.sleep(1.0)
        sub = poll(f"/api/submissions/{sub['id']}")
    if not args.json:
        print(file=sys.stderr)
    _report(sub, args.json)
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    _report(call("GET", f"/api/submissions/{args.id}").json(), args.json)
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    params = {k: v for k in ("checkpoint", "student") if (v := getattr(args, k))}
    rows = call("GET", "/api/submissions", params=params).json()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    staff = call("GET", "/api/users/me").json()["role"] in ("instructor", "admin")
    width = max([len(r["user"]) for r in rows] + [7])
    for r in rows:
        speed = f"{r['speedup']:.2f}×" if r["speedup"] else "-"
        who = f"{r['user']:<{width}}  " if staff else ""
        print(
            f"{r['id']:>6}  {r['created_at'][:19]}  {who}{r['checkpoint']:<18} {r['status']:<7} "
            f"{r['verdict'] or '-':<14} {level_cell(r)}  {speed}"
            + ("  late" if r.get("late") else "")
        )
    return 0


def _board_query(args: argparse.Namespace) -> dict[str, str]:
    fields = {"late": args.late, "gpu": getattr(args, "gpu", None)}
    fields["section"] = getattr(args, "section", None)
    return {k: v for k, v in fields.items() if v}


def cmd_leaderboard(args: argparse.Namespace) -> int:
    data = call("GET", f"/api/leaderboard/{args.checkpoint}", params=_board_query(args)).json()
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    which = "late work included" if data.get("late") == "include" else "on-time results"
    if not data["boards"]:
        print(f"{args.checkpoint}: no graded submissions ({which})")
    for model, entries in data["boards"].items():
        print(f"{args.checkpoint} on {model} ({which}):")
        for e in entries:
            speed = f"{e['speedup']:.2f}×" if e["speedup"] else "-"
            print(
                f"  {e['rank']:>3}. {e['student']:<24} level {e['level']}  {speed:>7}  "
                f"({plural(e['submissions'], 'submission')})"
            )
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """One checkpoint's grades; without a checkpoint, the course's gradebook."""
    path = f"/api/export/{args.checkpoint}.csv" if args.checkpoint else "/api/export.csv"
    sys.stdout.write(call("GET", path, params=_board_query(args)).text)
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("submit", help="submit a kernel to the server")
    p.add_argument("file")
    p.add_argument("--checkpoint", "-c", required=True)
    p.add_argument("--explanation", metavar="FILE")
    p.add_argument("--wait", action="store_true", help="follow it until it is graded")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_submit)
    p = sub.add_parser("status", help="one submission")
    p.add_argument("id", type=int)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_status)
    p = sub.add_parser("history", help="your submissions (instructors: everyone's)")
    p.add_argument("--checkpoint", "-c")
    p.add_argument("--student", help="instructors: one student's")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_history)
    p = sub.add_parser("leaderboard", help="best result per student (instructors)")
    p.add_argument("checkpoint")
    p.add_argument("--gpu", help="one GPU model's board (h200, rtx5090, cpu)")
    p.add_argument("--section", help="one section's students")
    late = "exclude (the default): each student's best on-time result"
    p.add_argument("--late", choices=["exclude", "include"], help=late)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_leaderboard)
    p = sub.add_parser(
        "export",
        help="grades as CSV (instructors): one checkpoint's, or without one the course's "
        "gradebook (every rostered student, a column per checkpoint)",
    )
    p.add_argument("checkpoint", nargs="?")
    p.add_argument("--section", help="one section's students")
    p.add_argument("--late", choices=["exclude", "include"], help=late)
    p.set_defaults(func=cmd_export)
