"""The numbers of a sentence with their units, in any of the course's languages (lang/).

A number is digits with a decimal point or comma and thousands separators read by context
(`decimal_mark`: the explanation's own habit, else its language: "0,244" is a decimal comma,
"3.876" in a Spanish text a thousands point), scientific notation ("1.2e8", "1,2·10^8",
"1.2×10⁸"), or words for small counts and ratios ("three times", "five hundred megabytes",
"tres veces", "세 배", "twice"). Each has a unit (the report's units in their usual spellings),
a relation ("=", "≈", "≥", "≤", "≠", or a range "100-250 MB" whose both ends are checked)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from grader.judge.lang import LANG, alt

_SUP = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
# "0,0369": a group of three is a thousands group only when no digit follows it
_DIGITS = r"\d{1,3}(?:[.,]\d{3})+(?:[.,]\d+)?(?!\d)|\d+(?:[.,]\d+)?"
_EXP = (
    r"(?:\s?e([+-]?\d{1,2})(?![\w])|\s*[×x·*]\s*10\s*(?:\^|\*\*)\s*([+-]?\d{1,2})"
    r"|\s*[×x·*]\s*10([⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+))"
)
NUMBER = re.compile(r"(?<![\w.,])(" + _DIGITS + r")(?:" + _EXP + r")?")

UNITS: list[tuple[str, str, float]] = [  # regex, quantity, factor to the base unit
    (r"pflop/s|pflops", "tflops", 1e3),
    (r"tflop/s|tflops|tflop per second|teraflops?(?:/s)?", "tflops", 1.0),
    (r"gflop/s|gflops", "tflops", 1e-3),
    (r"flops?/b(?:yte)?|flops? per byte|flops? por byte", "intensity", 1.0),
    (r"tib/s", "bandwidth", 2**40 / 1e9),
    (r"gib/s", "bandwidth", 2**30 / 1e9),
    (
        r"tb/s|tbps|tb per second|tb por segundo|tb/seg|tb/초|terabytes? per second",
        "bandwidth",
        1e3,
    ),
    (
        r"gb/s|gbps|gb per second|gb por segundo|gb/seg|gb/초|gigabytes? (?:per|por) segundo?",
        "bandwidth",
        1.0,
    ),
    (r"mb/s|mb per second|mb por segundo", "bandwidth", 1e-3),
    (r"tib", "traffic", 2**40),
    (r"gib", "traffic", 2**30),
    (r"mib", "traffic", 2**20),
    (r"kib", "traffic", 2**10),
    (r"tb|terabytes?|테라바이트", "traffic", 1e12),
    (r"gb|gigabytes?|기가바이트", "traffic", 1e9),
    (r"mb|megabytes?|메가바이트", "traffic", 1e6),
    (r"kb|kilobytes?|킬로바이트", "traffic", 1e3),
    (r"bytes?|octetos?|바이트|b", "traffic", 1.0),
    (r"µs|usecs?|us|microseconds?|microsegundos?|마이크로초", "time", 1.0),
    (r"ms|msecs?|milliseconds?|milisegundos?|밀리초", "time", 1e3),
    (r"ns|nanoseconds?|nanosegundos?|나노초", "time", 1e-3),
    (r"%|percent|per cent|pct|por ciento|퍼센트|프로", "percent", 1.0),
    (r"(?:-|\s)?(?:times|fold|veces)|×|x|배", "ratio", 1.0),
    (LANG.kernel_words, "kernels", 1.0),
]
UNKNOWN = "unit"  # a number with a unit kgrade does not read: shown as "not read"
# what looks like a unit of bytes, time, bandwidth or FLOP/s but is none of UNITS' spellings
_UNKNOWN_UNIT = re.compile(
    r"\s?(?:(?:[kmgtp]i?|mega|giga|tera|kilo)?(?:bytes?|octetos?|octets?)[\w/]*"
    r"|[kmgtp]i?b(?:ytes?)?/\w+|[kmgtp]i?b(?:yte)?\w+"
    r"|(?:[µu]|micro|milli|mili|nano|m)?(?:secs?|seconds?|segundos?|seg)\b(?:/\w+)?|s(?![\w'’])"
    r"|(?:micro|milli|mili|nano|mega|giga|tera|kilo)[a-z]*"
    r"|[kmgtp]flops?[\w/]*|flops?/\w+"  # a rate; "5 flops per element" is a count, no unit
    r"|(?:메가|기가|테라|킬로|마이크로|밀리|나노)[\uac00-\ud7a3]*|초(?!과))"
)
_UNIT_ALT = "|".join(f"(?:{u})" for u, _, _ in UNITS)
_UNIT_PARTS = [(re.compile(f"(?:{u})$"), q, f) for u, q, f in UNITS]
_AFTER_UNIT = r"(?![a-z0-9/µ])"
_WITH_UNIT = re.compile(r"\s?(" + _UNIT_ALT + r")" + _AFTER_UNIT)
_ONE_WORD = alt(list(LANG.words) + list(LANG.multipliers))
_WORD_NUM = re.compile(_ONE_WORD + r"(?:(?:[\s-]+(?:and\s+|y\s+)?)" + _ONE_WORD + r")*")
_TWICE = re.compile(alt(sorted(LANG.ratio_words, key=len, reverse=True)))
_KO_KERNELS = re.compile(
    r"커널(?:을|를|이|은|는)?\s*(\d+|" + alt(list(LANG.words)) + r")\s*(?:개|번)"
)


_D = r"\d+(?:[.,]\d+)?"
# Korean myriads: "약 2억 4400만 바이트" 2.44e8, "11억 바이트" 1.1e9, "24만" 2.4e5
_KO_MYRIAD = re.compile(
    r"(?<![\w.,])(?:(" + _D + r")\s?억(?:\s?(" + _D + r")\s?만)?|(" + _D + r")\s?만)(?=\s?\D)"
)


@dataclass
class Num:
    start: int
    end: int
    value: float  # in the base unit
    quantity: str  # the unit's: traffic, bandwidth, time, percent, ratio, kernels, tflops, …
    relation: str = "="  # "=", "≈", ">=", "<=", "!=", "range"
    high: float | None = None  # a range's upper end
    word: bool = False  # written in words


def decimal_mark(text: str, lang: str) -> str:
    """',' or '.': the decimal mark this explanation uses where it is unambiguous (1,62 or
    1.62), else its language's."""
    comma = len(re.findall(r"(?<![\d.,])\d+,(?:\d{1,2}|\d{4,})(?![\d.,])", text))
    comma += len(re.findall(r"(?<![\d.,])0,\d+(?![\d.,])", text))
    point = len(re.findall(r"(?<![\d.,\w])\d+\.(?:\d{1,2}|\d{4,})(?![\d.,])", text))
    point += len(re.findall(r"(?<![\d.,\w])0\.\d+(?![\d.,])", text))
    if comma != point:
        return "," if comma > point else "."
    return "," if lang == "es" else "."


def value_of(text: str, mark: str) -> float:
    seps = [c for c in text if c in ".,"]
    if not seps:
        return float(text)
    if "." in seps and "," in seps:
        dec = text[max(text.rfind("."), text.rfind(","))]
        return float(text.replace("," if dec == "." else ".", "").replace(",", "."))
    sep = seps[0]
    if len(seps) > 1:  # 1.234.567 or 1,234,567
        return float(text.replace(sep, ""))
    whole, frac = text.split(sep)
    if len(frac) != 3 or whole == "0" or sep == mark:
        return float(f"{whole}.{frac}")
    return float(whole + frac)


def _unit(s: str, end: int) -> tuple[str, float, int] | None:
    m = _WITH_UNIT.match(s, end)
    if not m:
        return None
    unit = m.group(1).strip(" -")
    if unit == "b" and not re.match(r"\s?b\b(?!\w)", s[end:]):
        return None
    q, f = next((q, f) for p, q, f in _UNIT_PARTS if p.match(m.group(1).strip()))
    if q == "ratio" and unit in ("x",) and re.match(r"\s?x\s*\d", s[end:]):
        return None  # 8192x4096 is a shape (blanked before, but be safe)
    return q, f, m.end()


def find(s: str, mark: str) -> list[Num]:
    """Every number with a unit in the normalised sentence `s`, in order."""
    out: list[Num] = []
    for m in NUMBER.finditer(s):
        try:
            v = value_of(m.group(1), mark)
        except ValueError:
            continue
        exp = m.group(2) or m.group(3) or (m.group(4) or "").translate(_SUP)
        if exp:
            v *= 10 ** int(exp)
        u = _unit(s, m.end())
        if u is None:
            odd = _UNKNOWN_UNIT.match(s, m.end())
            if odd is not None:  # "244 MBytes", "68 µsec": said, not read (never dropped)
                out.append(Num(m.start(), odd.end(), v, UNKNOWN))
            continue
        out.append(Num(m.start(), u[2], v * u[1], u[0]))
    out += _words(s, out)
    out += _ko_kernels(s, out)
    out += _ko_myriad(s, out, mark)
    out.sort(key=lambda n: n.start)
    return _ranges(s, out, mark)


def _free(taken: list[Num], a: int, b: int) -> bool:
    return not any(n.start < b and a < n.end for n in taken)


def word_value(text: str) -> float | None:
    """'two hundred and forty' 240, 'doscientos cuarenta' 240, 'five' 5, 'a single' 1."""
    if text in LANG.words:
        return float(LANG.words[text])
    total, current, seen = 0.0, 0.0, False
    for w in re.findall(_ONE_WORD, text):
        if w in LANG.multipliers:
            m = LANG.multipliers[w]
            current = (current or 1) * m
            if m >= 1000:
                total, current = total + current, 0.0
        elif w in LANG.words:
            current += LANG.words[w]
        else:
            return None
        seen = True
    return total + current if seen else None


def _words(s: str, taken: list[Num]) -> list[Num]:
    out = []
    for m in _WORD_NUM.finditer(s):
        v = word_value(m.group(0))
        if v is None:
            continue
        u = _unit(s, m.end())
        if u is None or not _free(taken, m.start(), u[2]):
            continue
        out.append(Num(m.start(), u[2], v * u[1], u[0], word=True))
    for m in _TWICE.finditer(s):
        if _free(taken + out, m.start(), m.end()):
            v = float(LANG.ratio_words[m.group(0)])
            out.append(Num(m.start(), m.end(), v, "ratio", word=True))
    return out


def _ko_kernels(s: str, taken: list[Num]) -> list[Num]:
    out = []
    for m in _KO_KERNELS.finditer(s):
        g = m.group(1)
        v = float(g) if g.isdigit() else LANG.words.get(g)
        if v is not None and _free(taken, m.start(), m.end()):
            out.append(Num(m.start(), m.end(), float(v), "kernels"))
    return out


def _ko_myriad(s: str, taken: list[Num], mark: str) -> list[Num]:
    out = []
    for m in _KO_MYRIAD.finditer(s):
        eok, man, only_man = m.group(1), m.group(2), m.group(3)
        try:
            v = value_of(eok, mark) * 1e8 if eok else 0.0
            v += value_of(man or only_man, mark) * 1e4 if (man or only_man) else 0.0
        except ValueError:
            continue
        u = _unit(s, m.end())
        if u is not None and _free(taken, m.start(), u[2]):
            out.append(Num(m.start(), u[2], v * u[1], u[0]))
    return out


_RANGE_SEP = re.compile(r"^\s*(?:-|–|—|~|to|a|and|y|에서|부터)\s*$")
_BETWEEN = re.compile(r"(?:between|entre|from|de)\s*$")


def _ranges(s: str, nums: list[Num], mark: str) -> list[Num]:
    """'100-250 MB', 'between 100 and 250 MB', '100 MB ~ 250 MB', 'entre 100 y 250 MB':
    one claim whose both ends must hold. A bare number before the second takes its unit."""
    out: list[Num] = []
    i = 0
    bare = {m.start(): m for m in NUMBER.finditer(s)}
    while i < len(nums):
        n = nums[i]
        prev = _bare_before(s, n, bare, out, mark)
        if prev is not None:
            out.append(prev)
        elif out and out[-1].quantity == n.quantity and _joins(s, out[-1], n):
            lo = out.pop()
            out.append(Num(lo.start, n.end, lo.value, n.quantity, "range", n.value))
        else:
            out.append(n)
        i += 1
    return out


def _joins(s: str, a: Num, b: Num) -> bool:
    gap = s[a.end : b.start]
    if gap.strip() in ("-", "–", "—", "~"):
        return True
    return bool(
        re.match(r"^\s*(?:and|y)\s*$", gap) and _BETWEEN.search(s[max(0, a.start - 9) : a.start])
    )


def _bare_before(
    s: str, n: Num, bare: dict[int, re.Match[str]], out: list[Num], mark: str
) -> Num | None:
    """'100-250 MB': the bare 100 right before 250 MB makes a range with its unit."""
    for start, m in bare.items():
        if (
            m.end() <= n.start
            and _RANGE_SEP.match(s[m.end() : n.start])
            and _free(out, start, m.end())
        ):
            gap = s[m.end() : n.start].strip()
            if gap in ("and", "y") and not _BETWEEN.search(s[max(0, start - 9) : start]):
                continue
            if (
                gap in ("to", "a", "에서")
                and re.search(r"(?:from|de)\s*$", s[max(0, start - 6) : start]) is None
                and gap != "to"
            ):
                continue
            try:
                lo = value_of(m.group(1), mark)
            except ValueError:
                return None
            factor = n.value / max(value_of(_first_number(s, n), mark), 1e-30)
            return Num(start, n.end, lo * factor, n.quantity, "range", n.value)
    return None


def _first_number(s: str, n: Num) -> str:
    m = NUMBER.match(s, n.start)
    return m.group(1) if m else "1"
