"""The users, api_tokens, invites and signin_failures tables' queries."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, func, select, text
from sqlalchemy.orm import Session

from app.models import ApiToken, Invite, SigninFailure, User, WebSession


def by_name(session: Session, name: str) -> User | None:
    """The user of this name; else the one user whose name differs only by case (names are
    told apart regardless of case: 'Ann' signs in as 'ann')."""
    exact = session.scalar(select(User).where(User.name == name))
    if exact is not None:
        return exact
    found = list(session.scalars(select(User).where(func.lower(User.name) == name.lower())))
    return found[0] if len(found) == 1 else None


def by_email(session: Session, email: str) -> User | None:
    return session.scalar(select(User).where(User.email == email))


def by_names(session: Session, names: list[str]) -> dict[str, User]:
    if not names:
        return {}
    """By each name asked for: its exact match, else its only match regardless of case."""
    lower = {n.lower() for n in names}
    found = list(session.scalars(select(User).where(func.lower(User.name).in_(lower))))
    exact = {u.name: u for u in found}
    out = {}
    for n in names:
        same = [u for u in found if u.name.lower() == n.lower()]
        user = exact.get(n) or (same[0] if len(same) == 1 else None)
        if user is not None:
            out[n] = user
    return out


def by_emails(session: Session, emails: list[str]) -> dict[str, User]:
    if not emails:
        return {}
    found = session.scalars(select(User).where(User.email.in_(emails)))
    return {u.email: u for u in found if u.email}


def by_token_hash(session: Session, token_hash: str) -> User | None:
    return session.scalar(
        select(User)
        .join(ApiToken, ApiToken.user_id == User.id)
        .where(ApiToken.token_hash == token_hash)
    )


def get(session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def add(session: Session, user: User) -> User:
    session.add(user)
    session.flush()
    return user


def listed(session: Session, section: str | None, role: str | None) -> list[User]:
    q = select(User).order_by(User.section.is_(None), User.section, User.name)
    if section is not None:
        q = q.where(User.section == section)
    if role is not None:
        q = q.where(User.role == role)
    return list(session.scalars(q).all())


def token_counts(session: Session) -> dict[int, int]:
    """Tokens per user id (those without: absent)."""
    rows = session.execute(select(ApiToken.user_id, func.count()).group_by(ApiToken.user_id))
    return {uid: int(n) for uid, n in rows}


def invited(session: Session, at: datetime) -> set[int]:
    """The ids of users with an unused invite that has not expired."""
    rows = session.scalars(
        select(Invite.user_id).where(Invite.used_at.is_(None), Invite.expires_at > at).distinct()
    )
    return set(rows)


def add_token(session: Session, token: ApiToken) -> ApiToken:
    session.add(token)
    session.flush()
    return token


def tokens_of(session: Session, user_id: int) -> list[ApiToken]:
    return list(
        session.scalars(select(ApiToken).where(ApiToken.user_id == user_id).order_by(ApiToken.id))
    )


def token_named(session: Session, user_id: int, name: str) -> ApiToken | None:
    return session.scalar(
        select(ApiToken).where(ApiToken.user_id == user_id, ApiToken.name == name)
    )


def token_of(session: Session, user_id: int, token_id: int) -> ApiToken | None:
    return session.scalar(
        select(ApiToken).where(ApiToken.user_id == user_id, ApiToken.id == token_id)
    )


def delete_tokens_of(session: Session, user_id: int) -> None:
    session.execute(delete(ApiToken).where(ApiToken.user_id == user_id))


def add_invite(session: Session, invite: Invite) -> Invite:
    session.add(invite)
    session.flush()
    return invite


def invite_by_hash(session: Session, token_hash: str) -> Invite | None:
    return session.scalar(select(Invite).where(Invite.token_hash == token_hash))


def delete_unused_invites(session: Session, user_id: int) -> None:
    session.execute(delete(Invite).where(Invite.user_id == user_id, Invite.used_at.is_(None)))


def pending_invite(session: Session, user_id: int, at: datetime) -> Invite | None:
    """The user's unused invite that has not expired, if any."""
    return session.scalar(
        select(Invite)
        .where(Invite.user_id == user_id, Invite.used_at.is_(None), Invite.expires_at > at)
        .order_by(Invite.id.desc())
        .limit(1)
    )


def serialize_attempts(session: Session, keys: list[str]) -> None:
    """Sign-in attempts of these keys (an address, a login) one at a time, to the end of the
    transaction: on PostgreSQL an advisory lock per key (in one order: no deadlock); SQLite
    has one writer at a time, taken by the attempt's insert, which comes first."""
    if session.get_bind().dialect.name == "postgresql":
        for key in sorted(keys):
            session.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": key})


def add_failure(
    session: Session, user_id: int | None, address: str, login: str | None = None
) -> SigninFailure:
    row = SigninFailure(user_id=user_id, address=address, login=login)
    session.add(row)
    session.flush()
    return row


def delete_failure(session: Session, failure_id: int) -> None:
    session.execute(delete(SigninFailure).where(SigninFailure.id == failure_id))


def failures(
    session: Session, since: datetime, *, login: str | None = None, address: str | None = None
) -> tuple[int, datetime | None]:
    """How many failed sign-ins the login (`login`: "user:<id>" or "name:<…>") or the
    address had since `since`, and the oldest's time."""
    which = SigninFailure.login == login if address is None else SigninFailure.address == address
    n, oldest = session.execute(
        select(func.count(), func.min(SigninFailure.at)).where(which, SigninFailure.at > since)
    ).one()
    return int(n), oldest


def clear_failures(session: Session, user_id: int) -> None:
    session.execute(delete(SigninFailure).where(SigninFailure.user_id == user_id))


def add_web_session(session: Session, row: WebSession) -> WebSession:
    session.add(row)
    session.flush()
    return row


def web_session(session: Session, id_hash: str) -> WebSession | None:
    return session.scalar(select(WebSession).where(WebSession.id_hash == id_hash))
