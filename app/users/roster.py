"""A roster import: a CSV with a header naming its columns — `name` (required), and any of
`email`, `role` (student, instructor, admin; default student) and `section` — makes an
account for each new name with a one-time invite link, and updates the others (their section,
and their email where the roster gives one); it never makes a second account for a name.

All or nothing: every row is checked first (its line number in each message), against the
file and against the database, and one bad row imports nothing. The caller's transaction
holds the whole import."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from app.core.errors import Forbidden, Invalid
from app.models import Role, User
from app.settings import Settings
from app.users import repository, service, signin
from app.users.schemas import ImportedOut, RosterOut

COLUMNS = ("name", "email", "role", "section")
MAX_BYTES, MAX_ROWS = 1024 * 1024, 5000
_EMAIL = re.compile(r"^[^@\s,;<>]+@[^@\s,;<>]+\.[^@\s,;<>]+$")


class RosterError(Invalid):
    """Bad rows: each problem with its line number; nothing was imported."""

    def __init__(self, filename: str, problems: list[str]):
        more = f"; … ({len(problems) - 20} more)" if len(problems) > 20 else ""
        n = len(problems)
        self.headline = f"{filename}: {n} problem{'s' if n != 1 else ''}, nothing imported"
        super().__init__(f"{self.headline}: {'; '.join(problems[:20])}{more}")
        self.problems = problems
        self.fields = {"problems": problems}


@dataclass
class Row:
    line: int
    name: str
    email: str | None
    role: str
    section: str | None
    has_section: bool  # the file has a section column (an empty cell clears it)


@dataclass
class Imported:
    line: int
    name: str
    role: str
    section: str | None
    status: str  # created, updated, unchanged
    invite: str | None = None  # the new account's invite token (for its link)
    notes: list[str] = field(default_factory=list)


def parse(text: str, filename: str = "roster.csv") -> list[Row]:
    """The roster's rows, or a RosterError listing every bad line."""
    rows, problems = _parse(text)
    if problems:
        raise RosterError(filename, problems)
    return rows


def _parse(text: str) -> tuple[list[Row], list[str]]:
    """The good rows, and a problem for each bad line."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        return [], [f"the file is over {MAX_BYTES // 1024} KiB"]
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff")))
    problems: list[str] = []
    try:
        header = [h.strip().lower() for h in next(reader, [])]
        columns = _header(header, problems)
        rows = [] if problems else _rows(reader, columns, problems)
    except csv.Error as exc:
        return [], [f"line {reader.line_num}: not CSV ({exc})"]
    if not problems and not rows:
        problems.append("no rows under the header")
    if len(rows) > MAX_ROWS:
        problems.append(f"{len(rows)} rows; at most {MAX_ROWS} a file")
    return rows, problems


def _by_line(problems: list[str]) -> list[str]:
    def line(p: str) -> int:
        m = re.match(r"line (\d+):", p)
        return int(m.group(1)) if m else 0

    return sorted(problems, key=line)


def _header(header: list[str], problems: list[str]) -> dict[str, int]:
    if not any(header):
        problems.append(
            "line 1: the header is empty; it names the columns, e.g. name,email,section"
        )
        return {}
    unknown = [h for h in header if h not in COLUMNS]
    if unknown:
        problems.append(
            f"line 1: unknown column{'s' if len(unknown) > 1 else ''} "
            f"{', '.join(repr(h) for h in unknown)} (the columns: {', '.join(COLUMNS)})"
        )
    twice = sorted({h for h in header if header.count(h) > 1})
    if twice:
        problems.append(f"line 1: column {', '.join(twice)} given twice")
    if "name" not in header:
        problems.append("line 1: no 'name' column (the header names the columns: name is required)")
    return {h: i for i, h in enumerate(header)}


def _rows(reader: Any, columns: dict[str, int], problems: list[str]) -> list[Row]:
    rows: list[Row] = []
    names: dict[str, int] = {}
    emails: dict[str, int] = {}
    for cells in reader:
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(columns):
            problems.append(f"line {line}: {len(cells)} fields, the header has {len(columns)}")
            continue
        row = _row(line, cells, columns, problems)
        if row is None:
            continue
        for key, seen, what in ((row.name, names, "name"), (row.email, emails, "email")):
            if key is not None and key.lower() in seen:
                problems.append(f"line {line}: {what} '{key}' is on line {seen[key.lower()]} too")
            elif key is not None:
                seen[key.lower()] = line
        rows.append(row)
    return rows


def _row(line: int, cells: list[str], columns: dict[str, int], problems: list[str]) -> Row | None:
    def cell(col: str) -> str:
        return cells[columns[col]].strip() if col in columns else ""

    before = len(problems)
    name = cell("name")
    try:
        name = service.check_name(name)
    except Invalid as exc:
        problems.append(f"line {line}: {exc.message}" if name else f"line {line}: no name")
    email = cell("email").lower() or None
    if email is not None and (len(email) > 254 or not _EMAIL.match(email)):
        problems.append(f"line {line}: '{email}' is not an email address")
    role = cell("role").lower() or Role.STUDENT
    if role not in set(Role):
        problems.append(f"line {line}: unknown role '{role}' (student, instructor or admin)")
    section = cell("section") or None
    if section is not None and (len(section) > 100 or not section.isprintable()):
        problems.append(f"line {line}: a section is at most 100 printable characters")
    if len(problems) > before:
        return None
    return Row(line, name, email, role, section, "section" in columns)


def run(
    session: Session,
    actor: User | None,
    text: str,
    s: Settings,
    filename: str = "roster.csv",
) -> list[Imported]:
    """Import the roster (`actor`: the staff member, None: the CLI's operator): one Imported
    per row, the new accounts with their invite token."""
    if actor is not None and not service.is_staff(actor):
        raise Forbidden("a roster is imported by instructors and admins")
    rows, problems = _parse(text)
    existing = repository.by_names(session, [r.name for r in rows])
    by_email = repository.by_emails(session, [r.email for r in rows if r.email])
    problems += _conflicts(rows, existing, by_email, actor)
    if problems:  # every one, by line: the file's own, then those against the database
        raise RosterError(filename, _by_line(problems))
    return [_apply(session, r, existing.get(r.name), s) for r in rows]


def _conflicts(
    rows: list[Row], existing: dict[str, User], by_email: dict[str, User], actor: User | None
) -> list[str]:
    problems = []
    instructor = actor is not None and actor.role != Role.ADMIN
    for r in rows:
        other = by_email.get(r.email) if r.email else None
        if other is not None and other.name != r.name:
            problems.append(f"line {r.line}: email '{r.email}' belongs to '{other.name}'")
        user = existing.get(r.name)
        changes = user is not None and (
            (r.has_section and user.section != r.section) or (r.email and user.email != r.email)
        )
        if instructor and changes and user is not None and user.role != Role.STUDENT:
            problems.append(
                f"line {r.line}: '{r.name}' is an {user.role}'s account; an admin changes it"
            )
        new_staff = r.name not in existing and r.role != Role.STUDENT
        if new_staff and actor is not None and actor.role != Role.ADMIN:
            problems.append(f"line {r.line}: only an admin makes {r.role} accounts ('{r.name}')")
    return problems


def _apply(session: Session, r: Row, user: User | None, s: Settings) -> Imported:
    if user is None:
        user = repository.add(
            session, User(name=r.name, role=r.role, email=r.email, section=r.section)
        )
        token = signin.issue_invite(session, user, s)
        return Imported(r.line, r.name, r.role, r.section, "created", token)
    notes, changed = [], False
    if r.has_section and user.section != r.section:
        notes.append(f"section {user.section or '-'} → {r.section or '-'}")
        user.section, changed = r.section, True
    if r.email and user.email != r.email:
        notes.append(f"email {user.email or '-'} → {r.email}")
        user.email, changed = r.email, True
    if r.role != user.role:
        notes.append(f"role stays {user.role} (a roster does not change roles)")
    if user.password_hash is None and user.disabled_at is None:
        notes.append("no password yet: a reset gives a new invite link (and revokes its tokens)")
    session.flush()
    status = "updated" if changed else "unchanged"
    return Imported(r.line, user.name, user.role, user.section, status, None, notes)


def summary(imported: list[Imported], base_url: str, s: Settings) -> RosterOut:
    """The import as the API, the page and the CLI show it: the counts, and a line per row
    with a new account's link."""
    count = {
        k: sum(1 for i in imported if i.status == k) for k in ("created", "updated", "unchanged")
    }
    return RosterOut(
        **count,
        invite_hours=s.invite_hours,
        rows=[
            ImportedOut(
                line=i.line,
                name=i.name,
                role=i.role,
                section=i.section,
                status=i.status,
                invite_url=signin.invite_link(base_url, i.invite) if i.invite else None,
                notes=i.notes,
            )
            for i in imported
        ],
    )
