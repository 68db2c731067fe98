"""Signing in: invite links that set a password once, passwords checked with argon2id, and
limits on failed attempts per account and per client address.

An invite is a random token in a link, stored only as its SHA-256, used once, expiring after
KGRADE_INVITE_HOURS; issuing one (a roster import, a reset) replaces the user's unused ones.
A failed sign-in is recorded; with KGRADE_SIGNIN_FAILURES_PER_ACCOUNT failures of an account,
or KGRADE_SIGNIN_FAILURES_PER_ADDRESS from one address, within KGRADE_SIGNIN_WINDOW_MINUTES,
sign-in is refused (429) until the oldest leaves the window. Whether a name exists or not, a
wrong password reads the same and takes as long."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from app.core.errors import Forbidden, Invalid, NotFound, QuotaExceeded
from app.core.security import hash_password, hash_token, needs_rehash, new_token, verify_password
from app.models import Invite, User, now
from app.settings import Settings
from app.users import repository

MIN_PASSWORD, MAX_PASSWORD = 10, 256
WRONG = "that name (or email) and password do not match"


def issue_invite(session: Session, user: User, s: Settings) -> str:
    """A new invite for `user` (their unused ones are void); the token, for the link only."""
    repository.delete_unused_invites(session, user.id)
    token = new_token()
    repository.add_invite(
        session,
        Invite(
            user_id=user.id,
            token_hash=hash_token(token),
            expires_at=now() + timedelta(hours=s.invite_hours),
        ),
    )
    return token


def invite_link(base_url: str, token: str) -> str:
    return f"{base_url.rstrip('/')}/invite/{token}"


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo else t.replace(tzinfo=now().tzinfo)  # SQLite keeps no zone


def open_invite(session: Session, token: str) -> tuple[Invite, User]:
    """The invite of this token and its user, if it can still be used."""
    invite = repository.invite_by_hash(session, hash_token(token))
    user = repository.get(session, invite.user_id) if invite else None
    if invite is None or user is None:
        raise NotFound("this invite link is not valid; ask your instructor for a new one")
    if invite.used_at is not None:
        raise NotFound("this invite link was used already; sign in, or ask for a new one")
    if _aware(invite.expires_at) <= now():
        raise NotFound("this invite link has expired; ask your instructor for a new one")
    if user.disabled_at is not None:
        raise Forbidden("this account is disabled; ask your instructor")
    return invite, user


def check_password(password: str, confirm: str, user: User) -> None:
    if password != confirm:
        raise Invalid("the two passwords differ; type the same one twice")
    if len(password) < MIN_PASSWORD:
        raise Invalid(f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise Invalid(f"a password has at most {MAX_PASSWORD} characters")
    if password.strip().lower() in {user.name.lower(), (user.email or "").lower()}:
        raise Invalid("a password is not your name or your email")


def set_password(session: Session, user: User, password: str) -> None:
    """A new password: sessions made before end (tokens stay)."""
    user.password_hash = hash_password(password)
    user.session_version += 1
    repository.clear_failures(session, user.id)
    session.flush()


def redeem(session: Session, token: str, password: str, confirm: str) -> User:
    """Use an invite: set the password, void the link."""
    invite, user = open_invite(session, token)
    check_password(password, confirm, user)
    invite.used_at = now()
    set_password(session, user, password)
    return user


def change_password(
    session: Session, user: User, current: str, password: str, confirm: str
) -> None:
    if not verify_password(user.password_hash, current):
        raise Invalid("your current password is not that one")
    check_password(password, confirm, user)
    set_password(session, user, password)


def _limit(count: int, oldest: datetime | None, allowed: int, s: Settings, whose: str) -> None:
    if count < allowed or oldest is None:
        return
    wait = _aware(oldest) + timedelta(minutes=s.signin_window_minutes) - now()
    seconds = max(1, int(wait.total_seconds()) + 1)
    minutes = -(-seconds // 60)
    raise QuotaExceeded(
        f"too many failed sign-ins {whose}: try again in {minutes} minute"
        f"{'s' if minutes != 1 else ''}, or ask your instructor to reset your password",
        retry_after=seconds,
    )


def authenticate(
    session: Session, login: str, password: str, address: str, s: Settings
) -> User | None:
    """The user of this name (or email) and password, or None: a wrong one, recorded as a
    failure (so the caller commits, and says `WRONG`). Refused while over the limits."""
    login = login.strip()
    user = (
        repository.by_email(session, login.lower())
        if "@" in login
        else repository.by_name(session, login)
    )
    since = now() - timedelta(minutes=s.signin_window_minutes)
    per_address = repository.failures(session, since, address=address)
    _limit(*per_address, s.signin_failures_per_address, s, "from your address")
    if user is not None:
        per_account = repository.failures(session, since, user_id=user.id)
        _limit(*per_account, s.signin_failures_per_account, s, "for this account")
    if not verify_password(user.password_hash if user else None, password) or user is None:
        repository.add_failure(session, user.id if user else None, address)
        return None
    if user.disabled_at is not None:
        raise Forbidden("this account is disabled; ask your instructor")
    repository.clear_failures(session, user.id)
    if user.password_hash and needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
    return user


def reset(session: Session, user: User, s: Settings) -> str:
    """No password, no token, no session any more; a new invite (its token, for the link)."""
    user.password_hash = None
    user.session_version += 1
    repository.delete_tokens_of(session, user.id)
    repository.clear_failures(session, user.id)
    return issue_invite(session, user, s)
