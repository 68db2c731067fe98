"""`kgrade similarity CHECKPOINT`: the server's similarity report (instructors), as text or
JSON: the pairs at or above the threshold, then the summary's pairs below it; `--csv` the
summary as CSV."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from app.cli.server import call, plural


def _side(side: dict[str, Any]) -> str:
    return f"{side['student']} (#{side['submission_id']})"


def cmd_similarity(args: argparse.Namespace) -> int:
    if args.csv:
        sys.stdout.write(call("GET", f"/api/similarity/{args.checkpoint}/summary.csv").text)
        return 0
    data = call("GET", f"/api/similarity/{args.checkpoint}").json()
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    print(
        f"{args.checkpoint}: {plural(data['submissions'], 'submission')} by "
        f"{plural(data['students'], 'student')}, {plural(len(data['pairs']), 'pair')} at or "
        f"above {data['threshold']:.0%}"
    )
    for p in data["pairs"]:
        print(
            f"  {p['score']:.0%}  {_side(p['a'])} and {_side(p['b'])}: "
            f"{plural(p['shared'], 'fingerprint')} shared"
        )
        for g in p["regions"]:
            (a0, a1), (b0, b1) = g["a_lines"], g["b_lines"]
            print(f"        lines {a0}-{a1}  ~  lines {b0}-{b1}")
        if args.show:
            for g in p["regions"]:
                _show(p, g)
    below = [r for r in data.get("summary", []) if not r["above_threshold"]]
    if below:
        print(f"below the threshold (down to {data['summary_floor']:.0%}), highest first:")
    for r in below:
        print(
            f"  {r['score']:.0%}  {r['a']} (#{r['a_submission']}) and {r['b']} "
            f"(#{r['b_submission']}): {plural(r['shared'], 'fingerprint')} shared"
        )
    for k in data["skipped"]:
        print(f"  not compared: {k['student']} (#{k['submission_id']}): {k['reason']}")
    return 0


def _show(pair: dict[str, Any], region: dict[str, Any]) -> None:
    """A region's two texts side by side, 60 columns each."""
    left, right = region["a_text"].splitlines(), region["b_text"].splitlines()
    print(f"    {_side(pair['a']):<60} | {_side(pair['b'])}")
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        print(f"    {a[:60]:<60} | {b[:60]}")
    print()


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("similarity", help="pairs of students with alike submissions (instructors)")
    p.add_argument("checkpoint")
    p.add_argument("--show", action="store_true", help="print the shared regions side by side")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--csv", action="store_true", help="the summary of the highest pairs as CSV, and only it"
    )
    p.set_defaults(func=cmd_similarity)
