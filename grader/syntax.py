"""`parse`: ast.parse, one thread at a time.

CPython 3.11 keeps the AST constructor's recursion depth per interpreter, not per thread
(python/cpython#106905). A garbage collection inside one thread's parse can run a finalizer
that hands the GIL to another thread's parse; the two then share the counter and one of them
fails with a spurious "SystemError: AST constructor recursion depth mismatch". The grader
parses from several threads (side-by-side validation, the service's request threads), so
every parse of the grader goes through this one lock. The lock is reentrant: a finalizer that
parses inside the same thread's parse must not deadlock.
"""

from __future__ import annotations

import ast
import threading

_LOCK = threading.RLock()


def parse(source: str, filename: str = "<unknown>") -> ast.Module:
    with _LOCK:
        return ast.parse(source, filename=filename)
