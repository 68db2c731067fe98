"""CSV cells made safe to open in a spreadsheet (formula injection: OWASP's "CSV Injection").

A text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return (or a newline) is
read by Excel, LibreOffice and Sheets as a formula, which can run commands or send the sheet's
data away: a student named `=HYPERLINK(…)` or `@SUM(…)` would do it to whoever opens the
grades. Such a cell gets a leading `'`, which every spreadsheet shows as text. Numbers stay
numbers. Every CSV export writes its rows through `row()` (or `writer()`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "\n")


def cell(value: Any) -> Any:
    """`value` as a safe cell: a text that a spreadsheet would read as a formula gets `'`."""
    if isinstance(value, str) and value.startswith(TRIGGERS):
        return "'" + value
    return value


def row(values: Iterable[Any]) -> list[Any]:
    return [cell(v) for v in values]


class SafeWriter:
    """csv.writer whose rows go through `cell`."""

    def __init__(self, out: io.TextIOBase | io.StringIO, **kw: Any):
        self._w = csv.writer(out, **kw)

    def writerow(self, values: Iterable[Any]) -> Any:
        return self._w.writerow(row(values))

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for r in rows:
            self.writerow(r)


def writer(out: io.TextIOBase | io.StringIO, **kw: Any) -> SafeWriter:
    return SafeWriter(out, **kw)
