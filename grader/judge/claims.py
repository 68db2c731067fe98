"""Read the numbers an explanation claims: each with its unit, the quantity it is of, the
implementation it is about, and the shape and dtype it is at.

An explanation is split into sentences. In each, every number with a unit is one claim:

- the unit says what it measures: bytes (B, kB, MB, MiB, GB, GiB, "bytes") are DRAM traffic;
  GB/s, TB/s (and GiB/s, "GB per second") a bandwidth; ns, µs (μs, us, usec, microseconds),
  ms a time; TFLOP/s (TFLOPS, GFLOP/s, PFLOP/s) a compute throughput and FLOP/byte an
  arithmetic intensity (compute-bound checkpoints); "kernels" a kernel count ("5 kernels",
  "five kernels", "a single kernel"); × (x, "times", "-fold") a ratio, and % a percentage,
  each resolved by the nearest cue word: "faster"/"speedup" or "traffic"/"DRAM"/"bytes" for a
  ratio, "of peak"/"occupancy"/"L2 hit"/"tensor pipe"/"SM throughput" for a percentage ("%
  less traffic" and "% faster" are a ratio written as a percentage).
  Decimal commas are read ("241,5 MB"), as are thousands separators ("3,857 GB/s", "3 857").
- the subject: the implementation named nearest to the number — after it when linked by
  "for", "of", "in", "by", "(": "1.0 GB (naive)", "110 µs for torch"; after a contrast
  ("against", "vs", "than", "instead of", "from … to") the other side of the comparison;
  otherwise the nearest named before it, else after it; a sentence naming none speaks of the
  submission. A ratio is the submission's against the baseline named nearest to it.
  mine / my kernel / fused / Triton → the submission; naive / unfused / five kernels → naive;
  PyTorch / torch / F.softmax / cuBLAS / cuDNN / SDPA → torch; torch.compile / compiled /
  inductor → compile; materialized → naive; "the (tensor-core) ceiling" → the calibrated
  ceiling (a TFLOP/s figure of it; a percentage "of the ceiling" is the submission's).
- "it"/"its": the implementation the sentence names first before it; a speedup written the
  other way round ("cuBLAS is 1.25× faster than my kernel", "mine is 1.25× slower") is
  marked `inverse`; "N against X's M": N is the other side's; "A … than B (a against b)": a is
  A's, b is B's.
- the shape and dtype: a benchmark case named ("k1000-bf16", read() is given their names),
  "8192×4096" (x, ×, *), one dimension ("K = 1000", `dim_hint`), "fp32"/"float32", "bf16",
  "fp16" named in the sentence, nearest first; "geometric mean" for a speedup over every
  shape. None named: the course's shape (the checkpoint's first profile shape).
- a negation right before the number ("not 2×", "isn't 300 µs") makes it a claim that the
  measurement is NOT that value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from grader.judge.attribution import (
    COMPARED,
    CONTRAST,
    DIM_HINT,
    Mention,
    case_mentions,
    case_of,
    nearest,
    orient,
    resolve_pronouns,
    side_of_comparison,
)

GEOMEAN = "geometric mean"

_ABBREV = re.compile(r"(?:\b(?:vs|e\.g|i\.e|approx|ca|cf|etc|resp|fig)|\b[a-z])\.$", re.I)
_BREAK = re.compile(r"[.!?]+(?=\s|$)|\n\s*\n|\n\s*[-*•]\s+")


def sentences(text: str) -> list[str]:
    """Sentences, split at . ! ? followed by a space, blank lines and list bullets; never
    inside a number (4.2) or a name (F.softmax, torch.compile) or after 'vs.' or 'e.g.'."""
    out, start = [], 0
    for m in _BREAK.finditer(text):
        if m.group(0)[0] == "." and _ABBREV.search(text[start : m.end()]):
            continue
        piece = text[start : m.end()].strip()
        if piece:
            out.append(piece)
        start = m.end()
    rest = text[start:].strip()
    if rest:
        out.append(rest)
    return [" ".join(s.split()) for s in out]


# -- subjects -------------------------------------------------------------------------------

_SUBJECTS: list[tuple[str, re.Pattern[str]]] = [
    ("compile", re.compile(r"\btorch\.compile(?:d)?\b|\bcompiled?\b|\binductor\b")),
    (
        "naive",
        re.compile(
            r"\b(?:naive|unfused)\s+(?:pytorch|torch)\b|\bnaive\b|\bunfused\b|\bmateriali[sz]ed\b"
            r"|\b(?:five|5|several|separate|multiple|many)\s+(?:separate\s+|different\s+)?kernels\b"
        ),
    ),
    (
        "torch",
        re.compile(
            r"\b(?:torch\.nn\.functional|torch|f)\.softmax\b|\bpytorch(?:'s)?\b|\btorch\b"
            r"|\bcudnn\b|\bcublas\b|\bsdpa\b|\bscaled_dot_product_attention\b|\bthe library\b"
        ),
    ),
    (
        "submission",
        re.compile(
            r"\b(?:my|our)\s+(?:own\s+)?(?:\w+\s+){0,2}?"
            r"(?:kernel|version|implementation|code|softmax|solution|one|triton)\b"
            r"|\bmine\b|\bfused\b|\btriton\b|\ba single kernel\b|\bone kernel\b|\bmy\b"
        ),
    ),  # a compute-bound grade's calibrated tensor-core ceiling (facts.py's impl "ceiling")
    ("ceiling", re.compile(r"\b(?:tensor[- ]core |compute |calibrated )?ceiling\b")),
]
_LINK = re.compile(r"^\s*(?:\(|\[|for|of|in|by|from|with|on|using|under|at)\b", re.I)
_LINK_BREAK = re.compile(r"[,;]|\b(?:and|while|whereas|but|against|vs|versus|than)\b")
# -- shapes and dtypes ----------------------------------------------------------------------

_SHAPE = re.compile(r"(?<![\d.,])\d{2,}(?:(?:\s*[×*]\s*|x)\d{2,})+(?!\d)")
_DTYPES = [
    ("float32", re.compile(r"\b(?:fp32|float32|f32|float)\b")),
    ("bfloat16", re.compile(r"\b(?:bf16|bfloat16)\b")),
    ("float16", re.compile(r"\b(?:fp16|float16|half)\b")),
]
_GEOMEAN = re.compile(
    r"\bgeo(?:metric)?[- ]?mean\b|\bgeomean\b|\b(?:across|over) (?:all |every |the )?"
    r"(?:benchmark(?:ed)? )?shapes\b"
)

# -- numbers and units ----------------------------------------------------------------------

_NUMBER = r"(?<![\w.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?)"
_WORDS = {
    "one": 1,
    "a single": 1,
    "single": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_KERNELS_WORD = re.compile(
    r"\b(a single|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:separate\s+|"
    r"different\s+|fused\s+|triton\s+|cuda\s+|gpu\s+)?(?:kernels?|kernel launches|launches)\b"
)
_UNITS: list[tuple[str, str, float]] = [  # regex, quantity, factor to the base unit
    (r"pflop/s|pflops", "tflops", 1e3),
    (r"tflop/s|tflops|tflop per second|teraflops?(?:/s)?", "tflops", 1.0),
    (r"gflop/s|gflops", "tflops", 1e-3),
    (r"flops?/b(?:yte)?|flops? per byte", "intensity", 1.0),
    (r"tib/s|tib per second", "bandwidth", 2**40 / 1e9),
    (r"gib/s|gib per second", "bandwidth", 2**30 / 1e9),
    (r"tb/s|tbps|tb per second|terabytes? per second", "bandwidth", 1e3),
    (r"gb/s|gbps|gb per second|gigabytes? per second", "bandwidth", 1.0),
    (r"mb/s|mb per second", "bandwidth", 1e-3),
    (r"tib", "traffic", 2**40),
    (r"gib", "traffic", 2**30),
    (r"mib", "traffic", 2**20),
    (r"kib", "traffic", 2**10),
    (r"tb|terabytes?", "traffic", 1e12),
    (r"gb|gigabytes?", "traffic", 1e9),
    (r"mb|megabytes?", "traffic", 1e6),
    (r"kb|kilobytes?", "traffic", 1e3),
    (r"bytes?", "traffic", 1.0),
    (r"µs|usecs?|us|microseconds?", "time", 1.0),
    (r"ms|msecs?|milliseconds?", "time", 1e3),
    (r"ns|nanoseconds?", "time", 1e-3),
    (r"%|percent|per cent|pct|por ciento", "percent", 1.0),
    (r"×|x|times|-fold|fold", "ratio", 1.0),
    (
        r"(?:separate\s+|different\s+|fused\s+|triton\s+|cuda\s+|gpu\s+)?"
        r"(?:kernels?|kernel launches|launches)",
        "kernels",
        1.0,
    ),
]
_UNIT = re.compile(
    _NUMBER + r"\s*(" + "|".join(f"(?:{u})" for u, _, _ in _UNITS) + r")(?![a-z0-9/µ])"
)
_UNIT_PARTS = [(re.compile(f"(?:{u})$"), q, f) for u, q, f in _UNITS]

_CUES: dict[str, re.Pattern[str]] = {
    "speed": re.compile(
        r"\b(?:faster|slower|speed[- ]?ups?|speed up|speed|quicker|time|times|longer|wins?|beats?"
        r"|outperforms?|runtime|latency|sooner)\b"
    ),
    "traffic": re.compile(
        r"\b(?:traffic|dram|bytes|data|memory|reads?|writes?|written|round[- ]?trips?|moves?"
        r"|moved|loads?|stores?|hbm)\b"
    ),
    "pct_of_peak": re.compile(
        r"\b(?:peak|bandwidth|throughput|roofline|speed of light|sol|ceiling)\b"
    ),
    "tensor_pipe": re.compile(r"\btensor[- ](?:core[- ])?pipe(?:line)?\b|\bpipe utili[sz]ation\b"),
    "sm_throughput": re.compile(r"\bsm throughput\b|\bsms? (?:were |was |are |is )?busy\b"),
    "occupancy": re.compile(r"\boccupancy\b"),
    "l2_hit": re.compile(r"\bl2\b|\bhit[- ]rate\b|\bhits?\b"),
    "less": re.compile(r"\b(?:less|fewer|reduc\w*|cuts?|lower|smaller|saves?|drops?|down)\b"),
}
_NEGATION = re.compile(r"(?:\b(?:not|never|nor|no)\b|n't\b)[^,;]{0,16}$")


@dataclass
class Claim:
    quote: str  # as written: "241 MB"
    value: float  # in the base unit: bytes, GB/s, µs, %, ×, a count
    quantity: str  # traffic, bandwidth, time, kernels, speedup, traffic_ratio, ratio,
    # pct_of_peak, occupancy, l2_hit, percent (a percentage of unknown kind)
    sentence: str
    subject: str | None = None  # the implementation; None: none named (the submission)
    versus: str | None = None  # a ratio's baseline; None: none named
    dims: list[int] | None = None
    dtype: str | None = None
    shape_name: str | None = None  # a benchmark case named in the sentence ("k1000-bf16")
    dim_hint: int | None = None  # one dimension named: "K = 1000", "seq 4096", "head dim 64"
    geomean: bool = False
    negated: bool = False
    # a ratio written as a percentage: "76 % less traffic" (less) or "58 % faster" (more)
    percent_form: str | None = None
    # traffic: "read" or "write" when its clause says only one; None: read + written
    direction: str | None = None
    # a speedup written the other way round: "cuBLAS is 1.25× faster than my kernel", "my
    # kernel is 1.25× slower than cuBLAS" (the submission's speedup is 1/value)
    inverse: bool = False


def _value(text: str) -> float:
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", text):
        return float(text.replace(",", ""))
    return float(text.replace(",", "."))


def _normalise(sentence: str) -> str:
    s = sentence.lower().replace("μ", "µ").replace("\u2212", "-")
    s = re.sub(r"(\d)[\u202f\u2009\u00a0 ](\d{3})(?!\d)", r"\1\2", s)  # 3 857 → 3857
    return re.sub(r"[\u202f\u2009\u00a0]", " ", s)


def _mentions(s: str) -> list[Mention]:
    taken = list(s)
    found = []
    for impl, pat in _SUBJECTS:
        for m in pat.finditer("".join(taken)):
            found.append(Mention(m.start(), m.end(), impl))
            taken[m.start() : m.end()] = " " * (m.end() - m.start())
    return resolve_pronouns(s, sorted(found, key=lambda m: m.start))


def read(text: str, shape_names: Iterable[str] = ()) -> list[Claim]:
    """Every claim of every sentence, in order. `shape_names`: the benchmark cases a sentence
    may name ("k1000-bf16"); a claim near one is at that case."""
    names = sorted({n.lower() for n in shape_names if n}, key=len, reverse=True)
    return [c for sentence in sentences(text) for c in read_sentence(sentence, names)]


def read_sentence(sentence: str, shape_names: list[str] | None = None) -> list[Claim]:
    s = _normalise(sentence)
    cases = case_mentions(s, shape_names or [])
    shapes = [
        Mention(m.start(), m.end(), m.group(0)) for m in _SHAPE.finditer(s)
    ]  # blanked below: 8192×4096 is no ratio
    blank = list(s)
    for m in shapes + cases:
        blank[m.start : m.end] = " " * (m.end - m.start)
    b = "".join(blank)
    dtypes = sorted(
        (Mention(m.start(), m.end(), d) for d, pat in _DTYPES for m in pat.finditer(s)),
        key=lambda m: m.start,
    )
    subjects = _mentions(b)
    dim_hints = [Mention(m.start(), m.end(), m.group(1)) for m in DIM_HINT.finditer(b)]
    geomean = bool(_GEOMEAN.search(s))

    raw: list[tuple[int, int, float, str, float]] = []  # start, end, value, quantity, factor
    for u in _UNIT.finditer(b):
        unit = u.group(2)
        quantity, factor = next((q, f) for p, q, f in _UNIT_PARTS if p.match(unit))
        if quantity == "ratio" and unit == "times" and re.match(r"\s*\d", b[u.end() :]):
            continue
        raw.append((u.start(), u.end(), _value(u.group(1)), quantity, factor))
    for w in _KERNELS_WORD.finditer(b):
        if not any(a <= w.start() < e for a, e, *_ in raw):
            raw.append((w.start(), w.end(), float(_WORDS[w.group(1)]), "kernels", 1.0))
    raw.sort()

    claims = []
    prev_subject: str | None = None
    for i, (start, end, value, quantity, factor) in enumerate(raw):
        lo = raw[i - 1][1] if i else 0
        hi = raw[i + 1][0] if i + 1 < len(raw) else len(b)
        # the clause around the number: cue words are looked for there
        before = re.split(r"[,;:)]", b[max(lo, start - 48) : start])[-1]
        after = re.split(r"[,;:(]", b[end : min(hi, end + 40)])[0]
        c = Claim(
            quote=sentence_slice(sentence, s, start, end),
            value=value * factor,
            quantity=quantity,
            sentence=sentence,
            geomean=geomean,
            negated=bool(_NEGATION.search(b[max(lo, start - 24) : start])),
        )
        if quantity in ("ratio", "percent"):
            c.quantity, c.percent_form = _classify(quantity, before, after)
            if c.quantity in ("ratio", "percent"):  # no cue in its clause: the sentence's
                wide = _classify(quantity, b[max(0, start - 160) : start], b[end : end + 80])
                c.quantity, c.percent_form = wide
        if c.quantity == "traffic":
            c.direction = _direction(before + " " + after)
        # the shape and dtype nearest the number
        near = nearest(shapes, start, end)
        if near:
            c.dims = [int(x) for x in re.findall(r"\d+", near.what)]
        dt = nearest(dtypes, start, end)
        if dt:
            c.dtype = dt.what
        c.shape_name = case_of(b, cases, start, end)
        hint = nearest(dim_hints, start, end)
        c.dim_hint = int(hint.what) if hint else None
        if c.quantity in ("speedup", "traffic_ratio", "ratio"):
            c.subject = "submission"
            c.versus = _versus(b, subjects, start, end)
            if c.quantity == "speedup":
                way = orient(b, subjects, start, end)
                c.versus, c.inverse = way.versus or c.versus, way.inverse
        else:
            c.subject = _subject(b, subjects, start, end, lo, hi, prev_subject)
            if c.quantity == "intensity" or (c.subject == "ceiling" and c.quantity != "tflops"):
                # the problem's intensity, not an implementation's; "87 % of the ceiling": the
                # ceiling is what it is a share of
                c.subject = None
            prev_subject = c.subject
        claims.append(c)
    return claims


def sentence_slice(original: str, normalised: str, start: int, end: int) -> str:
    """The claim as the student wrote it (the normalised text when lengths differ)."""
    if len(original) == len(normalised):
        return original[start:end].strip()
    return normalised[start:end].strip()


_READ = re.compile(r"\b(?:reads?|read from|loads?|loaded|fetch\w*)\b")
_WRITE = re.compile(r"\b(?:writes?|written|wrote|stores?|stored)\b")


def _direction(clause: str) -> str | None:
    read, write = bool(_READ.search(clause)), bool(_WRITE.search(clause))
    return "read" if read and not write else "write" if write and not read else None


def _classify(kind: str, before: str, after: str) -> tuple[str, str | None]:
    """The quantity of a ratio or a percentage, from the cue words nearest it."""

    def nearest(names: list[str]) -> str | None:
        best: tuple[int, str] | None = None
        for name in names:
            for m in _CUES[name].finditer(after):
                d = m.start()
                if best is None or d < best[0]:
                    best = (d, name)
            for m in _CUES[name].finditer(before):
                d = len(before) - m.end() + 1
                if best is None or d < best[0]:
                    best = (d, name)
        return best[1] if best else None

    if kind == "ratio":
        cue = nearest(["speed", "traffic"])
        return {"speed": "speedup", "traffic": "traffic_ratio"}.get(cue or "", "ratio"), None
    for name in ("tensor_pipe", "sm_throughput"):  # named in its clause: "active 76 % of the time"
        if _CUES[name].search(before) or _CUES[name].search(after):
            return name, None
    cue = nearest(
        ["tensor_pipe", "sm_throughput", "occupancy", "l2_hit", "pct_of_peak", "speed", "traffic"]
    )
    if cue in ("tensor_pipe", "sm_throughput", "occupancy", "l2_hit", "pct_of_peak"):
        return cue, None
    if cue == "speed" and re.search(r"\b(?:faster|quicker|speed[- ]?up)\b", after + before):
        return "speedup", "more"
    if cue == "traffic" and _CUES["less"].search(after + before):
        return "traffic_ratio", "less"
    return "percent", None


def _versus(b: str, subjects: list[Mention], start: int, end: int) -> str | None:
    """A ratio's baseline: the one compared with right after it ("faster than torch"), else
    the baseline named nearest to it."""
    others = [m for m in subjects if m.what not in ("submission", "ceiling")]
    for m in others:
        if end <= m.start <= end + 60 and COMPARED.search(b[end : m.start]):
            return m.what
    if not others:
        return None
    return min(others, key=lambda m: min(abs(m.start - end), abs(start - m.end))).what


def _subject(
    b: str,
    subjects: list[Mention],
    start: int,
    end: int,
    lo: int,
    hi: int,
    prev: str | None,
) -> str | None:
    own = next((m for m in subjects if m.start <= start < m.end or start <= m.start < end), None)
    if own is not None:  # "five kernels": the number is the subject's own
        return own.what
    # linked after it: "1.0 GB (naive)", "110 µs for torch", "241 MB of traffic in my kernel"
    for m in subjects:
        if end <= m.start <= min(hi, end + 40):
            between = b[end : m.start]
            if _LINK.match(between) and not _LINK_BREAK.search(between):
                return m.what
            break
    side = side_of_comparison(b, subjects, start, end, hi)
    if side is not None:
        return side
    # after a contrast: the other side ("1.0 GB against 241 MB", "from 1.0 GB to 241 MB")
    gap = b[lo:start]
    contrast = CONTRAST.search(gap) or (
        re.search(r"\bto\b", gap) if re.search(r"\bfrom\b", b[max(0, lo - 60) : lo]) else None
    )
    if contrast and prev is not None:
        since = lo + contrast.end()
        if not any(since <= m.start < start for m in subjects):
            if prev != "submission":
                return "submission"
            later = [m for m in subjects if m.start >= end and m.what != "submission"]
            if later:
                return later[0].what
    before = [m for m in subjects if m.end <= start]
    if before:
        return before[-1].what
    after = [m for m in subjects if m.start >= end]
    between = b[end : after[0].start] if after else ""
    if after and not re.search(r"[,;]", between) and not CONTRAST.search(between):
        return after[0].what
    return None  # none named, or only what it is compared with: the submission
