"""A checkpoint author's mistakes, each said with its file (relative to the checkpoint's
folder, never a temporary path) and, where it has one, its line: TOML syntax, a field of
checkpoint.toml that does not validate (`field X: …`), a Python syntax error or an exception
while problem.py loads, a solution that does not parse, a known-bad solution without its
`# expect:` line or naming no verdict. docs/CHECKPOINTS.md documents the format."""

from __future__ import annotations

import math
import re
import traceback
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from grader.models import Verdict

VERDICTS = [v.value for v in Verdict if v not in {Verdict.INTERNAL_ERROR, Verdict.UNCHECKED}]
EXPECT = re.compile(r"^#\s*expect:\s*(\S*)", re.MULTILINE)
_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


class CheckpointError(ValueError):
    """A checkpoint folder is missing a part or its data does not validate (re-exported by
    grader.checkpoints, where callers name it)."""


class AuthoringError(CheckpointError):
    """One mistake in one file of a checkpoint folder."""

    def __init__(self, file: str, detail: str, line: int | None = None):
        self.file, self.detail, self.line = file, detail, line
        super().__init__(self.where(""))

    def where(self, folder: str) -> str:
        """The message with the file under `folder` (the CLI's FOLDER argument)."""
        path = f"{folder.rstrip('/')}/{self.file}" if folder else self.file
        return f"{path}{f', line {self.line}' if self.line else ''}: {self.detail}"


def toml_error(exc: Exception, file: str = "checkpoint.toml") -> AuthoringError:
    """tomllib's message ends in "(at line L, column C)": the line goes in front."""
    text = str(exc)
    m = _AT.search(text)
    if m is None:
        return AuthoringError(file, f"not valid TOML: {text}")
    return AuthoringError(
        file, f"not valid TOML: {text[: m.start()]} (column {m.group(2)})", int(m.group(1))
    )


def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f"{'.' if out else ''}{part}"
    return out


def model_error(exc: ValidationError, text: str, file: str = "checkpoint.toml") -> AuthoringError:
    """The first of pydantic's errors as `field X: …`, at the line that sets X (the first
    line of its table where X is missing), without pydantic's boilerplate."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    loc = tuple(first.get("loc") or ())
    msg = str(first.get("msg", "invalid")).removeprefix("Value error, ")
    shown = repr(first.get("input"))
    if first.get("type") == "missing":
        msg = "required, and missing"
    elif loc and not isinstance(first.get("input"), dict | list) and len(shown) <= 80:
        msg += f" (it is {shown})"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    if not loc:  # the model's own check: its message starts with the field it is about
        loc = (msg.split(" ", 1)[0],)
        return AuthoringError(file, f"{msg}{more}", locate(text, loc))
    return AuthoringError(file, f"field {_loc(loc)}: {msg}{more}", locate(text, loc))


def locate(text: str, loc: tuple[Any, ...]) -> int | None:
    """The line of checkpoint.toml that sets the field at `loc` (e.g. ("interpreter_cases",
    2, "shape")): its key inside the n-th `[[interpreter_cases]]`, else that table's header;
    a top-level key's own line. None where the text does not say (a missing top-level key)."""
    if not loc:
        return None
    lines = text.splitlines()
    head, rest = str(loc[0]), list(loc[1:])
    start, end = _table(lines, head, rest[0] if rest and isinstance(rest[0], int) else None)
    if start is None:
        return _key_line(lines, head, 0, _first_table(lines))
    rest = rest[1:] if rest and isinstance(rest[0], int) else rest
    keys = [str(k) for k in rest if not isinstance(k, int)]
    if keys:
        found = _key_line(lines, keys[0], start + 1, end)
        if found is not None:
            return found
    return start + 1


_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def _headers(lines: list[str]) -> list[tuple[int, str, bool]]:
    """(line index, table name, is an array of tables) of every table header."""
    out = []
    for i, raw in enumerate(lines):
        m = _HEADER.match(raw)
        if m:
            out.append((i, m.group(2), m.group(1) == "[["))
    return out


def _first_table(lines: list[str]) -> int:
    headers = _headers(lines)
    return headers[0][0] if headers else len(lines)


def _table(lines: list[str], name: str, index: int | None) -> tuple[int | None, int]:
    """Where the table `[name]` (or the `index`-th `[[name]]`) starts and ends (0-based);
    its sub-tables (`[name.x]`) belong to it."""
    headers = _headers(lines)
    mine = [h for h in headers if h[1] == name and h[2] == (index is not None)]
    if (index is not None and index >= len(mine)) or not mine:
        return None, len(lines)
    start = mine[index or 0][0]
    after = [i for i, n, _ in headers if i > start and not n.startswith(name + ".")]
    return start, after[0] if after else len(lines)


def _key_line(lines: list[str], key: str, start: int, end: int) -> int | None:
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
    return next((i + 1 for i in range(start, end) if pattern.match(lines[i])), None)


def syntax_error(source: str, file: str) -> AuthoringError | None:
    """A Python file that does not parse, at its line."""
    try:
        compile(source, file, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return AuthoringError(file, f"Python syntax error: {exc.msg}", exc.lineno)
    except ValueError as exc:  # a NUL byte
        return AuthoringError(file, f"not Python source: {exc}")
    return None


def import_error(exc: BaseException, path: Path, file: str) -> AuthoringError:
    """An exception raised while `path` (problem.py) was executed, at its deepest line in
    that file."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename) == path]
    line = frames[-1].lineno if frames else None
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return AuthoringError(file, f"does not load: it raised {what}", line)


def expected_verdict(source: str, file: str) -> str:
    """A known-bad solution's `# expect: VERDICT` (or `a|b`), checked."""
    m = EXPECT.search(source)
    if m is None:
        return _no_expect(file)
    line = source.count("\n", 0, m.start()) + 1
    named = [v for v in m.group(1).split("|") if v]
    unknown = [v for v in named if v not in VERDICTS]
    if not named or unknown:
        shown = ", ".join(repr(v) for v in unknown) or "nothing"
        raise AuthoringError(
            file, f"'# expect:' names {shown}, not a verdict ({', '.join(VERDICTS)})", line
        )
    if "correct" in named:
        raise AuthoringError(
            file,
            "a known-bad solution cannot expect 'correct' (the reference is the correct one)",
            line,
        )
    return "|".join(named)


def _no_expect(file: str) -> str:
    raise AuthoringError(
        file,
        "no '# expect: VERDICT' line: a known-bad solution says which verdict it must get, "
        f"e.g. '# expect: wrong_answer' as its first line ({', '.join(VERDICTS[1:])})",
        1,
    )


def check_solutions(folder: Path, wrong: list[tuple[Path, str]]) -> None:
    """reference.py and starter.py parse; so does each known-bad solution, unless it expects
    a compile error."""
    for name in ("reference.py", "starter.py"):
        path = folder / name
        if path.exists() and (err := syntax_error(path.read_text(), name)) is not None:
            raise err
    for path, expect in wrong:
        rel = str(path.relative_to(folder))
        if "compile_error" in expect.split("|"):
            continue
        if (err := syntax_error(path.read_text(), rel)) is not None:
            raise err


def json_schema() -> str:
    """checkpoint.toml's JSON schema, generated from CheckpointDef (docs/checkpoint.schema.json
    is this text; `make schema` writes it, tests/grader/test_authoring.py checks it)."""
    import json

    from grader.models import CheckpointDef

    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$comment": "Generated from grader.models.CheckpointDef by `make schema`; the format "
        "is explained in docs/CHECKPOINTS.md. A checkpoint.toml is this object, in TOML.",
        **CheckpointDef.model_json_schema(),
    }
    return json.dumps(_finite(schema), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _finite(node: Any) -> Any:
    """JSON has no NaN: a default such as poison's nan is said in a comment instead."""
    if isinstance(node, dict):
        out = {k: _finite(v) for k, v in node.items()}
        value = node.get("default")
        if isinstance(value, float) and not math.isfinite(value):
            del out["default"]
            out["$comment"] = f"default: {value} (TOML writes it as {str(value).lower()})"
        return out
    if isinstance(node, list):
        return [_finite(v) for v in node]
    return node
