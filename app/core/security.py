"""Secrets: bearer tokens and invite links made at random, shown once and stored only as
their SHA-256 (they carry 256 random bits, so a fast hash is enough); passwords hashed with
argon2id (argon2-cffi's defaults, RFC 9106's second recommendation), never stored."""

from __future__ import annotations

import hashlib
import secrets
from functools import lru_cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()


@lru_cache(maxsize=1)
def _dummy() -> str:
    """Verified against when the account is unknown or has no password, so that a sign-in
    takes as long whether or not the name exists (made on first use: a hash costs tens of ms)."""
    return _hasher.hash(secrets.token_urlsafe(16))


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Whether `password` is the one `stored` was made from (None: no password set)."""
    try:
        return _hasher.verify(stored or _dummy(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Hashed with other parameters than today's: hash it again at the next sign-in."""
    return _hasher.check_needs_rehash(stored)
