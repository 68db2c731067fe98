"""The claims block: a student's own statement of what each figure is, one claim a line, in
a fenced block (```claims) anywhere in the explanation (docs/EXPLANATIONS.md):

    ```claims
    traffic, mine: 244 MB
    traffic ratio, mine vs naive: 4.16x
    speedup, mine vs torch, course-8192x4096-fp32: >= 1.5x
    time, torch: 110 us
    kernels, mine: 1
    occupancy, mine: ~92 %
    bytes read, naive, 8192x4096 fp32: 671 MB
    ```

WHAT, WHO [vs OTHER] [, WHERE]: [RELATION] VALUE [UNIT]. Forgiving: ',' ';' or '|' between
the parts, ':' or '=' before the value, names in any of the course's languages ("tráfico, mi
kernel frente a la versión ingenua", "트래픽, 제 커널"), a relation (=, ~, ≈, >=, ≥, <=, ≤, >, <,
"at least", "al menos", …) or a range ("100-250 MB"); '#' starts a comment. A line that
cannot be read is said so, with what was not understood.
"""

from __future__ import annotations

import re

from grader.judge import numbers
from grader.judge.claims import _DTYPES, _SHAPE, Claim, normalise
from grader.judge.lang import LANG, alt, merged_dict

_QUANTITIES = [
    (q, re.compile(r"^\s*" + alt(v) + r"\s*$")) for q, v in merged_dict("quantities").items()
]
_VS = re.compile(
    r"\s+(?:vs\.?|versus|against|over|frente a|contra|respecto a|대비|보다)\s+|\s*/\s*"
)
_REL = [
    (">=", re.compile(r"^(?:>=|≥|at least|no less than|al menos|como m[ií]nimo|최소)\s*")),
    ("<=", re.compile(r"^(?:<=|≤|at most|no more than|como m[aá]ximo|a lo sumo|최대)\s*")),
    (">", re.compile(r"^(?:>|more than|over|m[aá]s de)\s*")),
    ("<", re.compile(r"^(?:<|less than|under|menos de)\s*")),
    ("≈", re.compile(r"^(?:~|≈|about|around|approx\.?|unos|alrededor de|aprox\.?|약)\s*")),
    ("!=", re.compile(r"^(?:!=|≠|not|no)\s+")),
    ("=", re.compile(r"^=\s*")),
]
_UNITLESS = {
    "kernels": "kernels",
    "speedup": "×",
    "traffic_ratio": "×",
    "occupancy": "%",
    "l2_hit": "%",
    "pct_of_peak": "%",
    "tensor_pipe": "%",
    "sm_throughput": "%",
}


def _who(text: str) -> str | None:
    t = text.strip()
    if t in ("mine", "yours", "me", "submission", "mío", "mio", "mía", "mia", "제 것", "내 것"):
        return "submission"
    for impl, pat in LANG.impl:
        m = pat.search(t)
        if m and m.group(0).strip() and len(m.group(0)) >= len(t) * 0.5:
            return impl
    return None


def parse(block: str, shape_names: list[str], mark: str) -> tuple[list[Claim], list[str]]:
    """The block's claims, and a message for each line that cannot be read."""
    claims, errors = [], []
    for i, raw in enumerate(block.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        c, why = _line(line, shape_names, mark)
        if c is None:
            errors.append(f"Claims block, line {i} ('{raw.strip()[:80]}'): {why}")
            continue
        c.index = i
        claims.append(c)
    return claims, errors


def _line(line: str, shape_names: list[str], mark: str) -> tuple[Claim | None, str]:
    s = normalise(line)
    head, sep, value = s.rpartition(":") if ":" in s else s.rpartition("=")
    if not sep:
        return None, "no ':' before the value (WHAT, WHO: VALUE)"
    parts = [p.strip() for p in re.split(r"[,;|]", head) if p.strip()]
    if len(parts) < 2:
        return None, "say what and whose (WHAT, WHO: VALUE)"
    quantity = next((q for q, pat in _QUANTITIES if pat.match(parts[0])), None)
    if quantity is None:
        return None, f"'{parts[0]}' is no quantity kgrade measures"
    direction = None
    if quantity in ("traffic_read", "traffic_write"):
        quantity, direction = "traffic", quantity.split("_")[1]
    sides = _VS.split(parts[1])
    who = _who(sides[0])
    if who is None:
        return None, f"'{sides[0]}' names no implementation (mine, naive, torch, compile)"
    versus = _who(sides[1]) if len(sides) > 1 else None
    if len(sides) > 1 and versus is None:
        return None, f"'{sides[1]}' names no implementation"
    c = Claim(
        quote=line,
        value=0.0,
        quantity=quantity,
        sentence=line,
        subject=who,
        versus=versus,
        direction=direction,
        source="block",
        how="the claims block",
    )
    where = ", ".join(parts[2:])
    why = _value(c, value.strip(), mark)
    if why:
        return None, why
    _place(c, where, shape_names)
    if quantity in ("speedup", "traffic_ratio") and versus is None:
        return None, "a ratio needs its other side: 'mine vs torch'"
    if quantity in ("speedup", "traffic_ratio") and who != "submission" and versus == "submission":
        c.subject, c.versus = "submission", who
        c.value = 1 / c.value if c.value else c.value
    return c, ""


def _value(c: Claim, text: str, mark: str) -> str:
    rel = "="
    for r, pat in _REL:
        m = pat.match(text)
        if m:
            rel, text = r, text[m.end() :]
            break
    unit = _UNITLESS.get(c.quantity)
    t = text
    if unit and not re.search(r"[a-z%×배µ]", t.replace("x", "")) and "x" not in t:
        t = f"{t} {unit}" if unit != "kernels" else f"{t} kernels"
    found = numbers.find(t, mark)
    if not found:
        return f"'{text}' is no number with a unit kgrade reads"
    n = found[0]
    c.value, c.high = n.value, n.high
    c.relation = "range" if n.relation == "range" else rel
    c.negated = rel == "!="
    want = {"speedup": "ratio", "traffic_ratio": "ratio"}.get(c.quantity, c.quantity)
    family = {
        "pct_of_peak": "percent",
        "occupancy": "percent",
        "l2_hit": "percent",
        "tensor_pipe": "percent",
        "sm_throughput": "percent",
    }
    if family.get(want, want) != n.quantity:
        return f"'{text}' is a {n.quantity} value, not a {c.quantity.replace('_', ' ')}"
    return ""


def _place(c: Claim, where: str, shape_names: list[str]) -> None:
    w = where.strip()
    if not w:
        return
    if LANG.geomean.search(w) or w in ("geomean", "gmean"):
        c.geomean = True
        return
    name = next((n for n in shape_names if n == w or n in w), None)
    if name:
        c.shape_name = name
        return
    m = _SHAPE.search(w)
    if m:
        c.dims = [int(x) for x in re.findall(r"\d+", m.group(0))]
    for d, pat in _DTYPES:
        if pat.search(w):
            c.dtype = d


_NAMES = {
    "traffic": "traffic",
    "traffic_ratio": "traffic ratio",
    "time": "time",
    "bandwidth": "bandwidth",
    "pct_of_peak": "% of peak",
    "occupancy": "occupancy",
    "l2_hit": "l2 hit rate",
    "kernels": "kernels",
    "speedup": "speedup",
    "tflops": "tflop/s",
    "intensity": "intensity",
    "tensor_pipe": "tensor pipe",
    "sm_throughput": "sm throughput",
}
_WHO = {
    "submission": "mine",
    "naive": "naive",
    "torch": "torch",
    "compile": "torch.compile",
    "ceiling": "ceiling",
}
_REL_TEXT = {"≈": "~", ">=": ">= ", "<=": "<= ", ">": "> ", "<": "< ", "!=": "not "}


def _amount(quantity: str, v: float) -> str:
    if quantity == "traffic":
        return f"{v / 1e6:.4g} MB"
    unit = {
        "time": " us",
        "bandwidth": " GB/s",
        "kernels": "",
        "tflops": " TFLOP/s",
        "intensity": " FLOP/B",
        "speedup": "x",
        "traffic_ratio": "x",
    }.get(quantity, " %")
    return f"{v:.4g}{unit}"


def line_of(n: dict[str, object]) -> str:
    """A checked claim (ExplanationCheck.numbers' record) as a claims block line, for the
    student to confirm or correct; an unread one commented, with what to say."""
    q = str(n.get("quantity"))
    value = float(n.get("value") or 0.0)  # type: ignore[arg-type]
    if q == "traffic" and n.get("direction"):
        what = {"read": "bytes read", "write": "bytes written"}[str(n["direction"])]
    else:
        what = _NAMES.get(q, "WHAT")
    who = _WHO.get(str(n.get("subject") or ""), "WHOSE")
    if n.get("versus"):
        who += f" vs {_WHO.get(str(n['versus']), 'WHOM')}"
    where = ""
    if n.get("shape_name"):
        where = f", {n['shape_name']}"
    elif n.get("geomean"):
        where = ", geomean"
    elif n.get("dims"):
        where = ", " + "x".join(str(d) for d in list(n["dims"]))  # type: ignore[call-overload]
    if n.get("relation") == "range" and n.get("high") is not None:
        high = float(n["high"])  # type: ignore[arg-type]
        amount = f"{_amount(q, value).split()[0]}-{_amount(q, high)}"
    else:
        amount = _REL_TEXT.get(str(n.get("relation")), "") + _amount(q, value)
    line = f"{what}, {who}{where}: {amount}"
    if n.get("unread"):
        return f"# {line}   <- not read ({n['quote']}): {n['unread']}"
    return line


def block_of(numbers_: list[dict[str, object]]) -> str:
    """The reading as a claims block (qualitative comparisons and block lines left out)."""
    lines = [
        line_of(n) for n in numbers_ if not n.get("qualitative") and n.get("source") == "prose"
    ]
    return "```claims\n" + "\n".join(lines) + "\n```" if lines else ""
