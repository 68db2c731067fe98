"""Users: made by `kgrade users add` (with a token) or a roster import (with an invite link,
app/users/roster.py); listed, disabled, enabled and reset by staff; authenticated by a named
bearer token (app/users/tokens.py) or a session (app/users/signin.py).

Who may manage whom: the CLI's operator (no actor) and admins anyone; instructors students
only; nobody disables or resets themselves."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.core.errors import Conflict, Forbidden, Invalid, NotFound
from app.core.security import hash_token, new_token
from app.models import ApiToken, Role, User, now
from app.settings import Settings
from app.users import repository, signin

MAX_NAME = 100


def check_name(name: str) -> str:
    """A user name: 1 to 100 printable characters, no '@' (sign-in tells names from emails
    by it), no '/' (it is a path segment of the accounts' URLs)."""
    name = name.strip()
    if not name or len(name) > MAX_NAME:
        raise Invalid("a name is 1 to 100 characters")
    if "@" in name or "/" in name or not name.isprintable():
        raise Invalid(f"a name has no '@', no '/' and no control characters: {name!r}")
    return name


def check_role(role: str) -> str:
    if role not in set(Role):
        raise Invalid(f"unknown role '{role}' (student, instructor or admin)")
    return role


def add(session: Session, name: str, role: str) -> tuple[User, str]:
    """Create a user; return it with its token, named "cli" (shown once, stored only hashed)."""
    check_role(role)
    name = check_name(name)
    if (same := repository.by_name(session, name)) is not None:  # regardless of case
        raise Conflict(f"a user named '{same.name}' exists already")
    user = repository.add(session, User(name=name, role=role))
    token = new_token()
    repository.add_token(
        session, ApiToken(user_id=user.id, name="cli", token_hash=hash_token(token))
    )
    return user, token


def by_token(session: Session, token: str) -> User | None:
    """The user whose token this is, if any (disabled or not: `is_active` says)."""
    return repository.by_token_hash(session, hash_token(token))


def get(session: Session, user_id: int) -> User | None:
    return repository.get(session, user_id)


def is_staff(user: User) -> bool:
    return user.role in (Role.INSTRUCTOR, Role.ADMIN)


def is_active(user: User) -> bool:
    return user.disabled_at is None


@dataclass(frozen=True)
class UserRow:
    """A user as staff see them in a list."""

    name: str
    email: str | None
    role: str
    section: str | None
    state: str  # active, invited (no password yet), disabled
    tokens: int


def state(user: User, invited: bool) -> str:
    if user.disabled_at is not None:
        return "disabled"
    if user.password_hash is None and invited:
        return "invited"
    return "active"


def listed(
    session: Session, actor: User | None, section: str | None = None, role: str | None = None
) -> list[UserRow]:
    """Every user (of a section, of a role), by section then name."""
    if actor is not None and not is_staff(actor):
        raise Forbidden("the users list is for instructors and admins")
    tokens, invited = repository.token_counts(session), repository.invited(session, now())
    return [
        UserRow(u.name, u.email, u.role, u.section, state(u, u.id in invited), tokens.get(u.id, 0))
        for u in repository.listed(session, section, role)
    ]


def row(session: Session, user: User) -> UserRow:
    invited = repository.pending_invite(session, user.id, now()) is not None
    tokens = len(repository.tokens_of(session, user.id))
    return UserRow(user.name, user.email, user.role, user.section, state(user, invited), tokens)


def managed(session: Session, actor: User | None, name: str) -> User:
    """The user `name`, if `actor` may disable, enable or reset them (None: the operator)."""
    user = repository.by_name(session, name)
    if user is None:
        raise NotFound(f"no user named '{name}'")
    if actor is None:
        return user
    if not is_staff(actor):
        raise Forbidden("only instructors and admins manage accounts")
    if actor.id == user.id:
        raise Conflict("you cannot disable or reset your own account")
    if actor.role != Role.ADMIN and user.role != Role.STUDENT:
        raise Forbidden("instructors manage students' accounts; ask an admin for this one")
    return user


def set_disabled(session: Session, actor: User | None, name: str, disabled: bool) -> User:
    """Disable (no sign-in, no token, the sessions made before end) or enable again."""
    user = managed(session, actor, name)
    if disabled and user.disabled_at is None:
        user.disabled_at = now()
        user.session_version += 1
    elif not disabled:
        user.disabled_at = None
    session.flush()
    return user


def reset(session: Session, actor: User | None, name: str, s: Settings) -> tuple[User, str]:
    """A forgotten password: the old one, every token and every session revoked, and a new
    invite (the user and its token, for the link)."""
    user = managed(session, actor, name)
    return user, signin.reset(session, user, s)
