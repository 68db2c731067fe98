"""The domain's errors: what went wrong, in words a user can act on, and of which kind. The web
layer maps each kind to its HTTP status in one place (`app.errors`); the CLI prints the words."""

from __future__ import annotations


class DomainError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Invalid(DomainError):
    """Bad input: empty, not UTF-8, not a link, files that do not make a checkpoint."""


class Forbidden(DomainError):
    """The user's role may not do this."""


class NotFound(DomainError):
    """No such thing, or not the user's to see."""


class Conflict(DomainError):
    """Not possible in the thing's current state (closed, already decided, built in)."""


class TooLarge(DomainError):
    """Over a size limit."""


class QuotaExceeded(DomainError):
    """Over a quota; `retry_after`: seconds until the next attempt can pass."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class Unavailable(DomainError):
    """A service the request needs (the grading queue) is down; nothing was changed."""
