"""Text that comes from a submission is data, never layout.

Whatever the sandboxed child says (exception messages, its stdout and stderr, autotune config
labels it builds from the student's own `triton.Config` values, kernel and phase names) is
passed through `untrusted` where it enters the parent (`collect.Collector` for each frame
header, `sandbox._drain` for the captured output, `nsight.parse_raw_csv` for kernel names), so
the JSON result, the terminal report and the web pages all get the same clean form:

- invalid Unicode (a lone surrogate, from a `"\\ud800"` escape in a JSON header) becomes
  U+FFFD, so the text can always be encoded as UTF-8 (JSON, PostgreSQL, a terminal);
- control characters are shown, not obeyed: C0 (but `\\n` and `\\t` in multi-line text), DEL,
  C1, the bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069, and the marks
  U+200E, U+200F, U+061C) and the line and paragraph separators U+2028 and U+2029 are written
  as escapes (`\\x1b`, `\\r`, `\\u202e`), so an ANSI sequence cannot move the cursor or draw a
  fake verdict, and `str.splitlines()` breaks only where a `\\n` was;
- single-line text (`lines=False`, the default: every header field but an exception's message,
  so config labels, kernel, phase and op names) has its `\\n` and `\\t` escaped too, so it
  cannot start a line of its own inside the grader's sentences;
- `max_len` caps the result (ending in `…`), counted after the escapes; `cap_json` caps it by
  the bytes it takes in the result's JSON (grader/judge/budget.py: the whole result's share).
"""

from __future__ import annotations

import json
from typing import Any

_ESCAPES = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}
_HIDDEN = [
    *range(0x00, 0x20),
    0x7F,
    *range(0x80, 0xA0),
    0x061C,
    0x200E,
    0x200F,
    *range(0x202A, 0x202F),
    *range(0x2066, 0x206A),
    0x2028,
    0x2029,
]


def _escape(code: int) -> str:
    if code in _ESCAPES:
        return _ESCAPES[code]
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


_ONE_LINE = {c: _escape(c) for c in _HIDDEN}
_MULTI_LINE = {c: e for c, e in _ONE_LINE.items() if c not in (0x09, 0x0A)}


def valid_unicode(s: str) -> str:
    """`s` with each lone surrogate replaced by U+FFFD (a proper pair becomes its character)."""
    try:
        s.encode("utf-8")
        return s
    except UnicodeEncodeError:
        return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def untrusted(s: Any, max_len: int | None = None, *, lines: bool = False) -> str:
    """Text from a submission, safe to show: valid Unicode, control characters escaped,
    newlines kept only with `lines=True`, at most `max_len` characters. Idempotent."""
    text = valid_unicode(s if isinstance(s, str) else str(s))
    text = text.translate(_MULTI_LINE if lines else _ONE_LINE)
    if max_len is not None and len(text) > max_len:
        text = text[: max(max_len - 1, 0)] + "…"
    return text


def clean(value: Any, depth: int = 8) -> Any:
    """A JSON value from the child (a frame header) with every string, keys included, made
    `untrusted` (one line); containers nested deeper than `depth` become None."""
    if isinstance(value, str):
        return untrusted(value)
    if isinstance(value, dict):
        if depth <= 0:
            return None
        return {untrusted(k): clean(v, depth - 1) for k, v in value.items()}
    if isinstance(value, list):
        if depth <= 0:
            return None
        return [clean(v, depth - 1) for v in value]
    return value


def json_cost(s: str) -> int:
    """Bytes `s` takes inside a JSON string, in the widest encoding the result is stored in
    (ASCII-only JSON: a non-ASCII character as `\\uXXXX`, one past the BMP as two; an escape
    the text shows, `\\x01`, costs one more for its backslash)."""
    return len(json.dumps(s)) - 2


def cap_json(s: str, max_bytes: int) -> str:
    """`s` cut (ending in `…`) so that it costs at most `max_bytes` in JSON (`json_cost`):
    caps measured after every escape, never before it."""
    if json_cost(s) <= max_bytes:
        return s
    room = max_bytes - json_cost("…")
    lo, hi = 0, len(s)  # the longest prefix that fits: binary search on its cost
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if json_cost(s[:mid]) <= room:
            lo = mid
        else:
            hi = mid - 1
    return s[:lo] + "…" if room >= 0 else ""


def _server_paths() -> list[tuple[str, str]]:
    """Folders of this server a child's output may name (a warning's `file:line`), each with
    what is shown instead: the venv's packages, the Python it runs, kgrade's own checkout, the
    harness inside the sandbox. Longest first, so a package's path is not shown as the venv's."""
    import sys
    import sysconfig
    from pathlib import Path

    paths = sysconfig.get_paths()
    pairs = [
        (paths["purelib"], "<site-packages>"),
        (paths["platlib"], "<site-packages>"),
        (paths["stdlib"], "<python>"),
        (sys.prefix, "<python>"),
        (sys.base_prefix, "<python>"),
        (str(Path(__file__).resolve().parents[1]), "<kgrade>"),
        ("/kgrade/harness", "<kgrade>/harness"),
    ]
    seen: dict[str, str] = {}
    for path, shown in pairs:
        for p in {path, str(Path(path).resolve())}:
            if len(p) > 1:
                seen.setdefault(p.rstrip("/"), shown)
    return sorted(seen.items(), key=lambda kv: -len(kv[0]))


def server_paths_hidden(text: str) -> str:
    """`text` (the child's captured output) without this server's folders: a RuntimeWarning
    of Triton's interpreter read `/srv/kgrade/.venv/lib/python3.11/site-packages/triton/
    runtime/interpreter.py:599: …` on a correct kernel's page; now `<site-packages>/triton/
    runtime/interpreter.py:599: …`."""
    for path, shown in _server_paths():
        text = text.replace(path, shown)
    return text
