from __future__ import annotations


class UsageError(Exception):
    """Printed as one line on stderr; exit status 2."""
