"""Signing in: invite links that set a password once, passwords checked with argon2id, and
limits on failed attempts per account and per client address.

An invite is a random token in a link, stored only as its SHA-256, used once, expiring after
KGRADE_INVITE_HOURS; issuing one (a roster import, a reset) replaces the user's unused ones.
Every password sign-in is counted, and committed by the caller, before its password is
verified, one at a time per address and per login (`count_attempt`, then `verify`): so
concurrent attempts cannot all pass the check before any is recorded. It counts as a failure
until the password proves right, when it is taken back. With KGRADE_SIGNIN_FAILURES_PER_ACCOUNT
failures of a login (an account's, or a name no account has: the same), or
KGRADE_SIGNIN_FAILURES_PER_ADDRESS from one client address (the peer's, or what a trusted proxy
says: KGRADE_TRUSTED_PROXIES), within KGRADE_SIGNIN_WINDOW_MINUTES, sign-in is refused (429)
until the oldest leaves the window, with the same words for every name. Whether a name exists
or not, a wrong password reads the same and takes as long."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from app.core.errors import Forbidden, Invalid, NotFound, QuotaExceeded
from app.core.limits import MAX_LOGIN
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


def _limit(count: int, oldest: datetime | None, allowed: int, s: Settings) -> None:
    """`count` (this attempt included) over `allowed`: refused, in words that are the same
    for the account and the address limit and for known and unknown names."""
    if count <= allowed or oldest is None:
        return
    wait = _aware(oldest) + timedelta(minutes=s.signin_window_minutes) - now()
    seconds = max(1, int(wait.total_seconds()) + 1)
    minutes = -(-seconds // 60)
    raise QuotaExceeded(
        f"too many failed sign-ins: try again in {minutes} minute"
        f"{'s' if minutes != 1 else ''}, or ask your instructor to reset your password",
        retry_after=seconds,
    )


def login_key(user: User | None, login: str) -> str:
    """What the per-account limit counts: the account, or the name (or email) typed."""
    return f"user:{user.id}" if user is not None else f"name:{login.lower()[:MAX_LOGIN]}"


@dataclass(frozen=True)
class Attempt:
    """A password sign-in, counted: the account of its name (None: none has it) and the
    failure it is recorded as until its password proves right."""

    user: User | None
    failure_id: int


def count_attempt(session: Session, login: str, address: str, s: Settings) -> Attempt:
    """The attempt recorded as a failure and counted, one at a time per address and per
    login; refused (and not recorded) over a limit. The caller commits it before the password
    is verified (`verify`), so that concurrent attempts each see those before them."""
    login = login.strip()
    user = (
        repository.by_email(session, login.lower())
        if "@" in login
        else repository.by_name(session, login)
    )
    key = login_key(user, login)
    since = now() - timedelta(minutes=s.signin_window_minutes)
    repository.serialize_attempts(session, [f"signin-address:{address}", f"signin-login:{key}"])
    row = repository.add_failure(session, user.id if user else None, address, key)
    try:
        by_address = repository.failures(session, since, address=address)
        _limit(*by_address, s.signin_failures_per_address, s)
        _limit(*repository.failures(session, since, login=key), s.signin_failures_per_account, s)
    except QuotaExceeded:
        repository.delete_failure(session, row.id)  # a refused attempt is not a failure
        raise
    return Attempt(user, row.id)


def verify(session: Session, attempt: Attempt, password: str) -> User | None:
    """The attempt's user if the password is theirs (its failure taken back), else None (it
    stays a failure; the caller says `WRONG`)."""
    user = attempt.user
    if not verify_password(user.password_hash if user else None, password) or user is None:
        return None
    if user.disabled_at is not None:
        raise Forbidden("this account is disabled; ask your instructor")
    repository.delete_failure(session, attempt.failure_id)
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
