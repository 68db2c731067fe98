"""`kgrade checkpoints`: what can be graded (the server's list with KGRADE_TOKEN, else this
machine's), `validate FOLDER` (here), `add FOLDER` (on the server when one is configured, else
here), `open|close ID` and `deadline ID` (on the server). It sits above the server's commands
(course_cmd, deadline_cmd) and this machine's checkpoints; nothing of app/cli imports it but
the entry point."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from app.cli import course_cmd, deadline_cmd
from app.cli.common import UsageError
from app.settings import get_settings


def cmd_checkpoints(args: argparse.Namespace) -> int:
    """The list: the server's when KGRADE_TOKEN names one (unless --local), else this
    machine's folders, said so. open|close ID: on the server. add FOLDER: on the server when
    KGRADE_TOKEN names one (unless --local), else here. validate FOLDER: here."""
    s = get_settings()
    if args.action == "list":
        if s.token and not args.local:
            return course_cmd.list_on_server(args.json, s.url)
        return _list(args)
    if not args.folder:
        what = "ID" if args.action in ("open", "close", "deadline") else "FOLDER"
        raise UsageError(f"kgrade checkpoints {args.action} {what}")
    if args.action == "deadline":
        return deadline_cmd.cmd_deadline(args.folder, args)
    if args.action in ("open", "close"):
        return course_cmd.set_open(args.folder, args.action == "open")
    if args.action == "add" and s.token and not args.local:  # the server's, not this machine's
        return course_cmd.add_on_server(Path(args.folder), not args.no_wait, s.url)
    return _validate_or_add(args)


def _list(args: argparse.Namespace) -> int:
    from app.checkpoints import registry

    found: list[dict[str, Any]] = []
    for checkpoint in registry.listed(get_settings().all_checkpoint_dirs):
        d = checkpoint.definition
        found.append(
            {"id": d.id, "title": d.title, "entry": d.signature, "dtypes": d.dtypes, "open": d.open}
        )
    if args.json:
        print(json.dumps(found, indent=2))
    else:
        why = "--local" if get_settings().token else "no KGRADE_TOKEN, so no server"
        print(f"checkpoints on this machine ({why}): the built-ins and KGRADE_HOME's")
        width = max(len(c["id"]) for c in found)
        for c in found:
            print(f"{c['id']:<{width}}  {c['title']}\n{'':<{width}}  {c['entry']}")
    return 0


def _validate_or_add(args: argparse.Namespace) -> int:
    from app import grading
    from app.checkpoints import service
    from app.core.errors import DomainError
    from grader import SandboxRefused, authoring, checkpoints, validate
    from grader.sandbox import problem

    s = get_settings()
    try:
        checkpoint = service.check_folder(Path(args.folder))  # not installed: loaded as it is
        if args.action == "add":
            service.check_id(checkpoint.id)  # before the gradings, not after
        options = grading.options(s, "cpu")
        sandboxed = not options.unsafe_no_sandbox
        problem.of(checkpoint, False, sandboxed).declared()  # imported in its sandbox: loads?
        checks = validate(checkpoint, options)
    except authoring.AuthoringError as exc:
        raise UsageError(exc.where(args.folder)) from exc
    except (checkpoints.CheckpointError, SandboxRefused, DomainError) as exc:
        raise UsageError(str(exc)) from exc
    for c in checks:
        print(f"{'ok  ' if c.ok else 'FAIL'}  {c.name:<40} expected {c.expected:<28} got {c.got}")
        if not c.ok and c.reason:  # why, in the grading's own words
            print(f"      {c.reason}")
    if not all(c.ok for c in checks):
        print(f"{checkpoint.id}: validation failed; not opened")
        return 1
    if args.action == "add":
        try:
            dest = service.install(s, checkpoint)
        except DomainError as exc:
            raise UsageError(str(exc)) from exc
        print(f"{checkpoint.id}: valid; added as {dest}")
    else:
        print(f"{checkpoint.id}: valid")
    return 0
