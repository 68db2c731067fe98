"""`kgrade users …`: accounts, on the database this host's settings name (an operator's
commands, like `migrate`): add one, import a roster, list, disable, enable, reset.

Each says on stderr which database it uses, and none makes a new one silently: with neither
KGRADE_DATABASE_URL nor an existing KGRADE_HOME (default ./.kgrade), it refuses unless given
--create. Loads neither FastAPI nor torch."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from app.cli.common import UsageError
from app.settings import get_settings


def open_database(create: bool) -> None:
    """Say which database this is, migrate it; refuse a new embedded one unless `create`."""
    from app.cli.host import migrate

    s = get_settings()
    if s.database_url:
        where = s.database_url.split("@")[-1]
        print(f"kgrade: database {where} (KGRADE_DATABASE_URL)", file=sys.stderr)
    else:
        home = s.home.resolve()
        named = "KGRADE_HOME" if "home" in s.model_fields_set else "KGRADE_HOME unset: ./.kgrade"
        if not home.is_dir() and not create:
            raise UsageError(
                f"no kgrade home at {home} ({named}); point KGRADE_HOME at the server's home "
                "(or KGRADE_DATABASE_URL at its database), or pass --create to start a new one"
            )
        new = "a new database, " if not (home / "kgrade.db").exists() else ""
        print(f"kgrade: {new}database {home / 'kgrade.db'} ({named})", file=sys.stderr)
    migrate()


def _links_base() -> str:
    s = get_settings()
    return s.public_url or s.url


def cmd_add(args: argparse.Namespace) -> int:
    from app.core.errors import DomainError
    from app.db import transaction
    from app.users import service

    open_database(args.create)
    try:
        with transaction() as session:
            user, token = service.add(session, args.name, args.role)
            print(f"created {user.role} '{user.name}' (id {user.id}); their token, shown once:")
    except DomainError as exc:
        raise UsageError(exc.message) from exc
    print(token)
    return 0


def _read(path: str) -> tuple[str, str]:
    if path == "-":
        return sys.stdin.read(), "stdin"
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"no such file: {path}")
    try:
        return p.read_text(encoding="utf-8"), p.name
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text (byte {exc.start})") from exc


def cmd_import(args: argparse.Namespace) -> int:
    from app.core.errors import DomainError
    from app.db import transaction
    from app.users import roster

    text, name = _read(args.file)
    open_database(args.create)
    s = get_settings()
    try:
        with transaction() as session:
            out = roster.summary(roster.run(session, None, text, s, name), _links_base(), s)
    except roster.RosterError as exc:
        for problem in exc.problems:
            print(f"kgrade: {name}: {problem}", file=sys.stderr)
        print(f"kgrade: {exc.headline}", file=sys.stderr)
        return 2
    except DomainError as exc:
        raise UsageError(exc.message) from exc
    if args.json:
        print(out.model_dump_json(indent=2))
        return 0
    for r in out.rows:
        where = f"{r.role}{', section ' + r.section if r.section else ''}"
        tail = r.invite_url or "; ".join(r.notes)
        print(f"{r.status:<9} {r.name:<24} {where:<28} {tail}".rstrip())
    print(
        f"{name}: {out.created} created, {out.updated} updated, {out.unchanged} unchanged; each "
        f"link works once, for {out.invite_hours:g} hours",
        file=sys.stderr,
    )
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from app.db import transaction
    from app.users import service

    open_database(False)
    with transaction() as session:
        rows = service.listed(session, None, args.section, args.role)
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=2))
        return 0
    if rows:
        print(f"{'name':<24} {'role':<10} {'section':<12} {'state':<8} tokens  email")
    for r in rows:
        print(
            f"{r.name:<24} {r.role:<10} {r.section or '-':<12} {r.state:<8} "
            f"{r.tokens} token{'s' if r.tokens != 1 else ''}  {r.email or ''}".rstrip()
        )
    return 0


def _manage(args: argparse.Namespace, action: str) -> Any:
    from app.core.errors import DomainError
    from app.db import transaction
    from app.users import service

    open_database(False)
    try:
        with transaction() as session:
            if action == "reset":
                user, token = service.reset(session, None, args.name, get_settings())
                return user, token
            return service.set_disabled(session, None, args.name, action == "disable"), None
    except DomainError as exc:
        raise UsageError(exc.message) from exc


def cmd_disable(args: argparse.Namespace) -> int:
    user, _ = _manage(args, "disable")
    print(f"disabled '{user.name}': no sign-in, their tokens refused, their sessions ended")
    return 0


def cmd_enable(args: argparse.Namespace) -> int:
    user, _ = _manage(args, "enable")
    print(f"enabled '{user.name}'")
    return 0


def cmd_reset(args: argparse.Namespace) -> int:
    from app.users.signin import invite_link

    user, token = _manage(args, "reset")
    hours = get_settings().invite_hours
    print(
        f"reset '{user.name}': password, tokens and sessions revoked; their new invite link "
        f"(works once, for {hours:g} hours):"
    )
    print(invite_link(_links_base(), token))
    return 0


def add_parsers(sub: Any) -> None:
    users = sub.add_parser("users", help="manage accounts (on this host's database)")
    cmds = users.add_subparsers(dest="users_cmd", required=True)
    p = cmds.add_parser("add", help="create a user and print their token (last line)")
    p.add_argument("name")
    p.add_argument("--role", default="student", choices=["student", "instructor", "admin"])
    p.add_argument("--create", action="store_true", help="make a new database if there is none")
    p.set_defaults(func=cmd_add)
    p = cmds.add_parser(
        "import",
        help="import a roster CSV (header: name, and any of email, role, section); prints "
        "each new account's one-time invite link",
    )
    p.add_argument("file", help="the CSV file, or - for standard input")
    p.add_argument("--json", action="store_true")
    p.add_argument("--create", action="store_true", help="make a new database if there is none")
    p.set_defaults(func=cmd_import)
    p = cmds.add_parser("list", help="every account: role, section, state, tokens")
    p.add_argument("--section")
    p.add_argument("--role", choices=["student", "instructor", "admin"])
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_list)
    for name, func, what in (
        ("disable", cmd_disable, "no sign-in, no token, sessions ended"),
        ("enable", cmd_enable, "undo a disable"),
        ("reset", cmd_reset, "revoke password, tokens and sessions; print a new invite link"),
    ):
        p = cmds.add_parser(name, help=what)
        p.add_argument("name")
        p.set_defaults(func=func)
