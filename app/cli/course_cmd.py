"""Instructors' and admins' commands against the server (KGRADE_URL, KGRADE_TOKEN), thin over
its API: `override ID LEVEL --note`, `explanation ID accept|refuse --note`, `evidence ID URL`
and `evidence decide EID approve|decline`, `checkpoints open|close ID`, and `checkpoints` (the
list) when a token names a server."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from app.cli.common import UsageError
from app.cli.server import call


def cmd_override(args: argparse.Namespace) -> int:
    out = call(
        "POST",
        f"/api/submissions/{args.id}/override",
        json={"level": args.level, "note": args.note},
    ).json()
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    last = out["overrides"][-1]
    print(
        f"submission {out['id']}: level {last['old_level']} → {last['new_level']} "
        f"by {last['by']} ({last['note']}); {len(out['overrides'])} override(s) kept"
    )
    return 0


def cmd_explanation(args: argparse.Namespace) -> int:
    """An instructor's word on a submission's explanation, apart from its kernel."""
    out = call(
        "POST",
        f"/api/submissions/{args.id}/explanation/decision",
        json={"accept": args.word == "accept", "note": args.note},
    ).json()
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    last = out["overrides"][-1]
    print(
        f"submission {out['id']}: explanation {last['explanation']} by {last['by']} "
        f"({last['note']}); level {last['old_level']} → {last['new_level']}"
    )
    for reason in out["reasons"]:
        print(f"  still against level 3: {reason}")
    return 0


def cmd_evidence(args: argparse.Namespace) -> int:
    """`evidence ID URL` (a student, on their level-3 submission) or `evidence decide EID
    approve|decline [--note]` (an instructor)."""
    words = args.words
    if words and words[0] == "decide":
        if len(words) != 3 or words[2] not in ("approve", "decline"):
            raise UsageError("kgrade evidence decide EVIDENCE_ID approve|decline [--note TEXT]")
        eid = _int(words[1], "EVIDENCE_ID")
        body = {"approve": words[2] == "approve", "note": args.note or ""}
        out = call("POST", f"/api/submissions/evidence/{eid}/decision", json=body).json()
        print(f"evidence {out['id']}: {out['status']}")
        return 0
    if len(words) != 2:
        raise UsageError("kgrade evidence SUBMISSION_ID URL, or kgrade evidence decide …")
    sid = _int(words[0], "SUBMISSION_ID")
    out = call("POST", f"/api/submissions/{sid}/evidence", json={"url": words[1]}).json()
    print(f"evidence {out['id']} for submission {sid}: {out['status']} ({out['url']})")
    return 0


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"{what} is a number, not {text!r}") from None


def set_open(checkpoint_id: str, is_open: bool) -> int:
    out = call("PATCH", f"/api/checkpoints/{checkpoint_id}", json={"open": is_open}).json()
    print(f"{out['id']}: {'open' if out['open'] else 'closed'}")
    return 0


def add_on_server(folder: Path, wait: bool, url: str) -> int:
    """`kgrade checkpoints add FOLDER` with a server configured: the folder's files posted to
    it (an admin's token), validated and installed there by its workers; followed until done
    unless --no-wait. Nothing is written on this machine."""
    import time

    def text(name: str) -> str:
        path = folder / name
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise UsageError(f"{path}: missing (a checkpoint folder holds it)") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"{path}: cannot be read ({exc})") from None

    if not (folder / "checkpoint.toml").is_file():
        raise UsageError(f"{folder}: no checkpoint.toml (is it a checkpoint folder?)")
    wrong = sorted((folder / "solutions" / "wrong").glob("*.py"))
    body: dict[str, Any] = {
        "definition": text("checkpoint.toml"),
        "problem": text("problem.py"),
        "reference": text("reference.py"),
        "starter": text("starter.py") if (folder / "starter.py").is_file() else None,
        "wrong": {p.name: p.read_text(encoding="utf-8") for p in wrong},
    }
    queued = call("POST", "/api/checkpoints", json=body).json()
    print(f"{queued['checkpoint']}: sent to {url} (validation {queued['id']}, {queued['status']})")
    if not wait:
        print(f"follow it: kgrade api GET {queued['url']}")
        return 0
    shown = 0
    while True:
        got = call("GET", queued["url"]).json()
        for c in got["checks"][shown:]:
            mark = "ok  " if c["ok"] else "FAIL"
            print(f"{mark}  {c['name']:<40} expected {c['expected']:<28} got {c['got']}")
            if not c["ok"] and c.get("reason"):
                print(f"      {c['reason']}")
        shown = len(got["checks"])
        if got["status"] == "done":
            report = got.get("report") or {}
            if report.get("valid"):
                print(f"{got['checkpoint']}: valid; installed on the server")
                return 0
            print(f"{got['checkpoint']}: not added: {report.get('error') or 'validation failed'}")
            return 1
        time.sleep(2)


def list_on_server(as_json: bool, url: str) -> int:
    found = call("GET", "/api/checkpoints").json()
    if as_json:
        print(json.dumps(found, indent=2))
        return 0
    print(f"checkpoints on {url}:")
    width = max([len(c["id"]) for c in found] + [2])
    for c in found:
        state = "open" if c["open"] else "closed"
        print(f"{c['id']:<{width}}  {c['title']} ({state})\n{'':<{width}}  {c['signature']}")
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("override", help="change a submission's level, with a note (instructors)")
    p.add_argument("id", type=int)
    p.add_argument("level", type=int, choices=range(5))
    p.add_argument("--note", required=True, help="why (kept in the submission's history)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_override)
    p = sub.add_parser(
        "explanation",
        help="accept or refuse a submission's explanation apart from its kernel (instructors): "
        "the level then follows from its measurements and that word",
    )
    p.add_argument("id", type=int)
    p.add_argument("word", choices=("accept", "refuse"))
    p.add_argument("--note", required=True, help="why (kept in the history, shown to the student)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_explanation)
    p = sub.add_parser(
        "evidence",
        help="attach a level-4 link to your level-3 submission (ID URL), or decide one "
        "(instructors: decide EVIDENCE_ID approve|decline)",
    )
    p.add_argument("words", nargs="+", metavar="ID URL | decide EVIDENCE_ID approve|decline")
    p.add_argument("--note", help="decide: a note kept with the decision")
    p.set_defaults(func=cmd_evidence)
