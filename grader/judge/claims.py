"""Read the claims of an explanation: each a quantity, the implementation(s) it is about, the
case or shape, and a value with its relation (=, ≈, ≥, ≤, ≠, a range whose both ends are
checked) — or a comparison with no number ("faster than torch", "menos tráfico que la versión
ingenua", "torch보다 빠르다", "one kernel").

Where they come from: a ```claims block (claimblock.py) the student writes, and the prose,
read sentence by sentence in English, Spanish or Korean (the tables of lang/; the rendered
text only, rendered.py). Numbers and units: numbers.py. Whose a number is: attribution.py —
a number whose implementation (or a percentage whose quantity, a ratio whose baseline) cannot
be told is kept with `unread` set, never given to the nearest name.

Quantities: traffic (bytes; `direction` read/write when the clause or the Nsight metric
says only one: `dram__bytes_read.sum` is bytes read), bandwidth, time, pct_of_peak,
occupancy, l2_hit, tensor_pipe, sm_throughput, kernels, speedup and traffic_ratio (a ratio's
`value` is the subject's against `versus`: their time or bytes over the subject's), tflops,
intensity; `percent` and `ratio` only while unread.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from grader.judge import numbers, rendered, scope
from grader.judge.attribution import (
    CONTRAST,
    Mention,
    _paren_at,
    clause_end,
    clause_start,
    in_cause,
    mentions,
    owner,
    resolve,
    topic,
)
from grader.judge.claim import Claim, Sentence, list_items, sentences
from grader.judge.lang import LANG, language_of
from grader.judge.only import negated_after, per_item, sides, uses
from grader.judge.qualitative import comparisons, single_kernel
from grader.judge.ratios import NOT_OURS, OTHER, _clause, orient, pair_before
from grader.judge.scope import DIM_HINT, WORD_DIM, case_mentions

_SHAPE = re.compile(r"(?<![\d.,])\d{2,}(?:(?:\s*[×*]\s*|x|\s+x\s+|\s+(?:by|por)\s+)\d{2,})+(?!\d)")
# ends at a non-ASCII-word character too: Korean particles follow ("bf16에서는")
_DTYPES = [
    ("float32", re.compile(r"\b(?:fp32|float32|f32|float)(?![a-z0-9_])")),
    ("bfloat16", re.compile(r"\b(?:bf16|bfloat16)(?![a-z0-9_])")),
    ("float16", re.compile(r"\b(?:fp16|float16|half precision)(?![a-z0-9_])")),
]
# Nsight Compute's metric names as the quantity they measure
_METRIC = re.compile(r"(?<![\w])[a-z0-9]+__[a-z0-9_.]+")
METRICS: list[tuple[str, str, str | None]] = [  # pattern, quantity, direction
    (r"dram__bytes_read", "traffic", "read"),
    (r"dram__bytes_write", "traffic", "write"),
    (r"dram__bytes", "traffic", None),
    (r"dram__throughput", "pct_of_peak", None),
    (r"gpu__time_duration|gpu__time", "time", None),
    (r"sm__warps_active|achieved_occupancy|sm__maximum_warps", "occupancy", None),
    (r"lts__t_sector_hit_rate|lts__t_sectors_.*hit", "l2_hit", None),
    (r"sm__pipe_tensor|sm__inst_executed_pipe_tensor", "tensor_pipe", None),
    (r"sm__throughput", "sm_throughput", None),
    (r"launch__", "kernels", None),
]


# "el kernel de Juan", "la versión de Ana": a capitalised name (none the readers know) after
# "kernel de" owns the kernel; lowercasing loses that, so it is said as lang/es.py's "other"
# says it (pass 6: "El kernel de Juan mueve 244 MB" was read as the student's)
_KNOWN = (
    r"Torch|PyTorch|Pytorch|Triton|Liger|Softmax|RMSNorm|Rmsnorm|GEMM|Gemm|NVIDIA|Nvidia|Nsight"
    r"|CUDA|Cuda|Python|Inductor|Referencia|Entrop\w*|Atenci\w*|Fusi\w*|Cross|Flash|Llama"
)
_PERSON = re.compile(
    r"\b(kernel|versi[oó]n|implementaci[oó]n|c[oó]digo|soluci[oó]n) de (?!(?:"
    + _KNOWN
    + r")\b)[A-ZÁÉÍÓÚÑ][a-záéíóúñ]+\b"
)


def normalise(sentence: str) -> str:
    s = (
        _PERSON.sub(r"\1 de otro estudiante", sentence)
        .lower()
        .replace("μ", "µ")
        .replace("\u2212", "-")
        .replace("’", "'")
    )
    s = re.sub(r"(\d)[\u202f\u2009\u00a0 ](\d{3})(?![\d.,]?\d)", r"\1\2", s)  # 3 857 → 3857
    return re.sub(r"[\u202f\u2009\u00a0]", " ", s)


def reading(text: str, shape_names: Iterable[str] = ()) -> tuple[list[Sentence], str | None]:
    """The visible prose sentence by sentence with the claims read in each, and the claims
    block's text (None: none)."""
    prose, block = rendered.split_block(text)
    shown = rendered.visible(prose)
    plain = rendered.prose_only(shown)
    mark = numbers.decimal_mark(plain, language_of(plain))
    names = sorted({n.lower() for n in shape_names if n}, key=len, reverse=True)
    out: list[Sentence] = []
    context, count = None, 0
    in_list, lead = False, None
    that: tuple[str, str | None] | None = None  # the shape "that shape" means: the last named
    for source, sentence, item in _units(shown[:MAX_TEXT], rendered.code_blocks(text)):
        i = len(out) + 1
        # a list's items each speak of what its lead-in spoke of ("What I measured for my
        # kernel: - … - …"), never of the item before's name; after the list, the lead-in's
        if item and not in_list:
            in_list, lead = True, context
        elif not item and source == "prose" and in_list:
            in_list, context = False, lead
        found, context = read_sentence(sentence, names, mark, lead if item else context, that)
        that = _named_case(sentence) or that
        found = found[: max(0, MAX_CLAIMS - count)]
        count += len(found)
        for c in found:
            c.index, c.source = i, source
        out.append(Sentence(i, sentence, found, source))
    return out, block


def _units(shown: str, blocks: list[str]) -> list[tuple[str, str, bool]]:
    """The sentences of the prose, and each line of a visible code block, in order; each
    with whether it opens a list item."""
    out: list[tuple[str, str, bool]] = []
    for kind, piece in rendered.pieces(shown, blocks):
        if kind == "code":
            lines = [rendered.count_line(x.strip()) for x in piece.splitlines() if x.strip()]
            out += [("code", x, False) for x in lines]
        else:
            found = sentences(piece)
            items = list_items(piece)
            items = items if len(items) == len(found) else [False] * len(found)
            out += [("prose", s, item) for s, item in _pieces(list(zip(found, items, strict=True)))]
    return out


MAX_TEXT = 32 * 1024  # characters of visible prose read (an honest explanation is < 10 KiB)
MAX_SENTENCE = 600  # a longer "sentence" is read in pieces, at its clause breaks
MAX_CLAIMS = 200


def _pieces(found: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    out = []
    for s, item in found:
        while len(s) > MAX_SENTENCE:
            cut = max(s.rfind(c, 0, MAX_SENTENCE) for c in ",;:")
            cut = cut + 1 if cut > MAX_SENTENCE // 3 else MAX_SENTENCE
            out.append((s[:cut].strip(), item))
            s, item = s[cut:].strip(), False
        if s:
            out.append((s, item))
    return out


def read(text: str, shape_names: Iterable[str] = ()) -> list[Claim]:
    """Every claim of the prose, in order. `shape_names`: the benchmark cases a sentence may
    name ("k1000-bf16"); a claim near one is at that case."""
    return [c for s in reading(text, shape_names)[0] for c in s.claims]


def _blank(s: str, spans: Iterable[tuple[int, int]]) -> str:
    chars = list(s)
    for a, e in spans:
        chars[a:e] = " " * (e - a)
    return "".join(chars)


def read_sentence(
    sentence: str,
    shape_names: list[str] | None = None,
    mark: str = ".",
    context: str | None = None,
    that: tuple[str, str | None] | None = None,
) -> tuple[list[Claim], str | None]:
    """The claims of one sentence, and the implementation it speaks of (for the next).
    `that`: the shape (and dtype) a sentence before named, which "that shape" means."""
    s = normalise(sentence)
    cases = case_mentions(s, shape_names or [])
    shapes = [Mention(m.start(), m.end(), m.group(0)) for m in _SHAPE.finditer(s)]
    # "that shape" with no one shape named before: an unknown case ("", scope.THAT_UNKNOWN)
    said = [
        Mention(m.start(), m.end(), that[0] if that else "") for m in LANG.that_shape.finditer(s)
    ]
    shapes = sorted(shapes + said, key=lambda m: m.start)
    metrics = [Mention(m.start(), m.end(), m.group(0)) for m in _METRIC.finditer(s)]
    hints = [Mention(m.start(), m.end(), m.group(1) or m.group(2)) for m in WORD_DIM.finditer(s)]
    b = _blank(s, [(m.start, m.end) for m in shapes + cases + metrics])
    hints += [Mention(m.start(), m.end(), m.group(1)) for m in DIM_HINT.finditer(b)]
    b = _blank(b, [(m.start, m.end) for m in hints])
    dtypes = sorted(
        [Mention(m.start(), m.end(), d) for d, pat in _DTYPES for m in pat.finditer(s)]
        + [Mention(m.start, m.end, that[1]) for m in said if that and that[1]],
        key=lambda m: m.start,
    )
    ms = mentions(b)
    nb = _blank(b, [(m.start, m.end) for m in ms if not m.pronoun])
    claims: list[Claim] = []
    prev_end = -1
    found = numbers.find(nb, mark)
    spans = [(n.start, n.end) for n in found]
    places = scope.sites(b, spans, shapes, dtypes, cases, hints)
    subject = resolve(b, ms, context, spans)
    # the next sentence's: a subject only named in a clause of cause is not what this one
    # speaks of ("Elegí … porque cuBLAS ya gana la GEMM densa. Mueve 110 MB …": yours)
    first = next((m for m in ms if m.what == subject and not m.pronoun), None)
    onward = None if first is not None and in_cause(b, first) else subject
    for n in found:
        c = Claim(
            quote=_slice(sentence, s, n.start, n.end),
            value=n.value,
            quantity=n.quantity,
            sentence=sentence,
            relation=n.relation,
            high=n.high,
        )
        _relation(c, b, n)
        _quantity(c, b, n, metrics, max(prev_end, 0))
        _whose(c, b, ms, n, prev_end, context, found, claims)
        _where(c, scope.where(b, n.start, n.end, places, spans))
        prev_end = n.end
        claims.append(c)
    for q in comparisons(sentence, b, ms, claims, context):
        at = max(b.find(q.quote.lower()), 0)
        _where(q, scope.where(b, at, at + len(q.quote), places, spans))
        claims.append(q)
    claims += single_kernel(sentence, b, ms, claims, context, spans)
    told = [c.subject for c in claims if c.subject and not c.unread]
    spoken = topic(b, ms, spans, told)
    if spoken is None and subject is None and context and _TOOL.match(b):
        return claims, context  # "Nsight Compute mide …": the tool is no one's "it"
    # else whose its ratios are ("Frente a torch es 1,62 veces más rápido … que la versión
    # ingenua (353 µs)": yours), else whose its last figure is
    ratios = [c.subject for c in claims if c.subject and c.quantity in ("speedup", "traffic_ratio")]
    owned = [
        c.subject for c in claims if c.subject and c.quantity not in ("speedup", "traffic_ratio")
    ]
    owned = ratios[-1:] or owned
    return claims, (spoken or onward or (owned[-1] if owned else None) or context)


def _named_case(sentence: str) -> tuple[str, str | None] | None:
    """The one shape a sentence names, with its one case dtype (none: several, or none)."""
    s = normalise(sentence)
    found = {m.group(0).replace(" ", "") for m in _SHAPE.finditer(s)}
    if len(found) != 1:
        return None
    kinds = {d for d, pat in _DTYPES if pat.search(s)}
    return found.pop(), (kinds.pop() if len(kinds) == 1 else None)


# a sentence whose subject is a measuring tool: its "it" stays the implementation before
_TOOL = re.compile(
    r"^\W*(?:según |according to |segun )?(?:nsight(?: compute| systems)?|ncu|nsys|(?:the |el )?"
    r"(?:profiler|perfilador|benchmark)|프로파일러)\b"
)


def _slice(original: str, normalised: str, start: int, end: int) -> str:
    if len(original) == len(normalised):
        return original[start:end].strip()
    return normalised[start:end].strip()


def _relation(c: Claim, b: str, n: numbers.Num) -> None:
    """≥, ≤, ≈ from the words around the number; a negation makes it ≠ ('not 2×')."""
    lo = clause_start(b, n.start)
    before = b[max(lo, n.start - 30) : n.start]
    after = b[n.end : min(clause_end(b, n.end), n.end + 24)]
    if c.relation == "range":
        return
    bound = None
    for rel, pat in ((">=", LANG.ge_before), ("<=", LANG.le_before), ("≈", LANG.approx)):
        m = next(reversed(list(pat.finditer(before))), None)
        if m is not None and not before[m.end() :].strip(" (a"):
            if m.group(0).strip() == "over" and _SPREAD.search(before[: m.start()]):
                break  # "1.24 GB over nine kernels": spread across them, no bound
            bound, before = rel, before[: m.start()]
            break
    if bound is None:
        for rel, pat in ((">=", LANG.ge_after), ("<=", LANG.le_after), ("≈", LANG.approx_after)):
            m = pat.match(after.lstrip()) if after.strip() else None
            if m is not None:
                bound = rel
                break
    if bound is not None:
        c.relation = bound
    neg = LANG.negation.search(before[-24:]) or negated_after(b[lo : n.start], after)
    if neg:
        c.negated = True
        c.relation = {"=": "!=", "≈": "!=", ">=": "<", "<=": ">"}[c.relation]


_SPREAD = re.compile(r"\d\s*[a-zµ/]+\s*$")  # a figure with its unit right before "over"


def _quantity(c: Claim, b: str, n: numbers.Num, metrics: list[Mention], prev: int = 0) -> None:
    before, after = _clause(b, n)
    metric = _metric_of(b, n, metrics)
    if metric is not None:
        for pat, q, direction in METRICS:
            if re.match(pat, metric.what):
                if q == c.quantity or (q != "traffic" and c.quantity in ("percent", "ratio")):
                    c.quantity = q
                    c.direction = direction
                elif q in ("traffic",) and c.quantity == "traffic":
                    c.direction = direction
                break
    if c.quantity == "traffic" and per_item(before, after):  # "one add per 12 bytes"
        c.quantity = "intensity"
    if c.quantity == "traffic" and metric is None:
        c.direction = _direction(b, n, prev)
    if c.quantity == "ratio":  # "110 MB frente a 1,24 GB de la ingenua (11,21 veces menos)"
        c.quantity = _of_the_pair(b, n)
    if c.quantity in ("ratio", "percent"):
        inside = _paren_at(b, n.start)
        if inside is not None:  # "(81 % del pico de throughput DRAM)": its own words first
            _classify(c, b[inside[0] + 1 : n.start], b[n.end : inside[1]], wide=False)
    if c.quantity == "ratio" and LANG.geomean.search(before[-40:]):
        # the geomean is of speedups, whatever cue an earlier clause had ("4.16× less traffic
        # … and the geometric mean is 1.65× over torch": pass 6)
        c.quantity = "speedup"
    if c.quantity in ("ratio", "percent"):
        _classify(c, before, after, wide=False)
        if c.quantity == "ratio" and _OF_IMPL.match(b, n.end):  # "0.91× cuBLAS": its speed
            c.quantity = "speedup"
        if c.quantity == "ratio":  # "los 1,02 GB … son 4,16 veces más que los 244 MB": bytes
            c.quantity = _of_its_figures(b, n)
        if c.quantity == "ratio" and LANG.geomean.search(before):  # the geomean is of speedups
            c.quantity = "speedup"
        if c.quantity in ("ratio", "percent"):
            wide_b, wide_a = b[max(0, n.start - 160) : n.start], b[n.end : n.end + 80]
            _classify(c, wide_b, wide_a)


def _of_the_pair(b: str, n: numbers.Num) -> str:
    """A ratio opening a parenthesis right after a pair of figures of one kind, set against
    each other ("68 µs vs 110 µs for torch (1.62×)"): a ratio of that kind."""
    p = _paren_at(b, n.start)
    if p is None or b[p[0] + 1 : n.start].strip(" ~≈"):
        return "ratio"
    lo = clause_start(b, p[0])
    pair = numbers.find(b[lo : p[0]], ".")[-2:]
    if len(pair) < 2 or pair[0].quantity != pair[1].quantity:
        return "ratio"
    if not CONTRAST.search(b[lo + pair[0].end : lo + pair[1].start]):
        return "ratio"
    return {"traffic": "traffic_ratio", "time": "speedup"}.get(pair[0].quantity, "ratio")


def _of_its_figures(b: str, n: numbers.Num) -> str:
    """A ratio between figures of its own clause, all of one kind: bytes or times."""
    lo, hi = clause_start(b, n.start), clause_end(b, n.end)
    kinds = {x.quantity for x in numbers.find(b[lo:hi], ".")} - {"ratio"}
    return {"traffic": "traffic_ratio", "time": "speedup"}.get(
        kinds.pop() if len(kinds) == 1 else "", "ratio"
    )


_METRIC_AFTER = re.compile(r"\s*[(\[]?\s*$")
_TAKEN = re.compile(r"\d\s*[a-zµ%×/]*\s*[(\[]\s*$")  # "134 MB (dram__…": that number's


def _metric_of(b: str, n: numbers.Num, metrics: list[Mention]) -> Mention | None:
    """The Nsight metric a number is the value of: one written right after it ("134 MB
    (dram__bytes_read.sum)"), else the nearest before it in its clause with no other number
    between and not written right after another number ("dram__bytes_read.sum = 134 MB and
    dram__bytes_write.sum = 110 MB": each its own), else one shortly after it."""
    lo = clause_start(b, n.start)
    for m in metrics:
        if n.end <= m.start <= n.end + 4 and _METRIC_AFTER.match(b[n.end : m.start]):
            return m
    for m in reversed(metrics):
        if lo <= m.end <= n.start:
            taken = _TAKEN.search(b[max(0, m.start - 30) : m.start])
            if not numbers.NUMBER.search(b[m.end : n.start]) and not taken:
                return m
            break
    return next(
        (
            m
            for m in metrics
            if n.end <= m.start <= min(n.end + 20, clause_end(b, n.end))
            and not numbers.NUMBER.search(b[m.end : clause_end(b, m.end)])  # the next one's
        ),
        None,
    )


_OF_IMPL = re.compile(
    r"\s*(?:(?:that )?of |de |del )?(?:the |el |la )?"
    + "(?:"
    + "|".join(p.pattern for _, p in LANG.impl if _ != "submission")
    + ")"
)


def _direction(b: str, n: numbers.Num, prev: int) -> str | None:
    """'reads 134 MB and writes 110 MB', '134 MB read and 110 MB written', '(읽기 134 MB,
    쓰기 110 MB)', '134 MB를 읽고': a label written right after the number is its own, then
    one right before it; else the verb of the number's own part of the clause (before it,
    since the number before; in Korean after it). A parenthesis after the number holds its
    own figures' labels: '총 244 MB(읽기 134 MB)' is the total."""
    lo, hi = clause_start(b, n.start), clause_end(b, n.end)
    before = b[max(lo, prev, n.start - 50) : n.start]
    nxt = numbers.NUMBER.search(b, n.end)
    after = b[n.end : min(hi, nxt.start() if nxt else hi, n.end + 30)].split("(")[0]
    # "읽는 바이트는 525 MB이고 쓰는 …": past a conjunction with no verb of its own before it,
    # the next clause's verb is not the number's ("525 MB를 읽고 씁니다" keeps both)
    joined = LANG.conjunction.search(after)
    if joined and _label(after[: joined.start()]) == "":
        after = after[: joined.start()]
    for label in (_LABEL_AFTER.match(after), _LABEL_BEFORE.search(before)):
        if label is not None:
            return _label(label.group(1))
    parts = [after, before] if re.search(r"[\uac00-\ud7a3]", b) else [before, after]
    for part in parts:
        found = _label(part)
        if found != "":
            return found
    return None


def _label(part: str) -> str | None:
    """'read', 'write', None (both named) or '' (neither)."""
    read, write = bool(LANG.read.search(part)), bool(LANG.write.search(part))
    if read != write:
        return "read" if read else "write"
    return None if read else ""


_LABEL = r"((?:" + LANG.read.pattern + "|" + LANG.write.pattern + r")\w*)"
_LABEL_AFTER = re.compile(r"\s*(?:(?:of |de )?(?:dram )?bytes? )?" + _LABEL + r"(?![\w])")
_LABEL_BEFORE = re.compile(r"(?:^|[\s(,])(읽기|쓰기|lectura|escritura|reads?|writes?)\s*[:=]?\s*$")


def _nearest_cue(before: str, after: str, names: list[str]) -> str | None:
    best: tuple[int, str] | None = None
    for name in names:
        for m in LANG.cues[name].finditer(after):
            if best is None or m.start() < best[0]:
                best = (m.start(), name)
        for m in LANG.cues[name].finditer(before):
            d = len(before) - m.end() + 1
            if best is None or d < best[0]:
                best = (d, name)
    return best[1] if best else None


def _classify(c: Claim, before: str, after: str, wide: bool = True) -> None:
    """A ratio's or a percentage's quantity from the cue words nearest it; none: unread. A bare
    "N× less" is bytes only when no cue is near it, in its clause or the text around
    (`wide`): "tarda 0,0369 ms, 1,24 veces menos que torch" is its time."""
    if c.quantity == "ratio":
        cue = _nearest_cue(before, after, ["speed", "traffic"])
        if (
            cue is None
            and wide
            and (LANG.less.match(after.lstrip()) or LANG.more.match(after.lstrip()))
        ):
            cue = "traffic"  # "11× less", "11 veces menos", "11배 적게": bytes, not time
        c.quantity = {"speed": "speedup", "traffic": "traffic_ratio"}.get(cue or "", "ratio")
        return
    for name in ("tensor_pipe", "sm_throughput"):  # named in its clause: "active 76 % of the time"
        if LANG.cues[name].search(before) or LANG.cues[name].search(after):
            c.quantity = name
            return
    cue = _nearest_cue(
        before,
        uses(after),
        ["tensor_pipe", "sm_throughput", "occupancy", "l2_hit", "pct_of_peak", "speed", "traffic"],
    )
    if cue in ("tensor_pipe", "sm_throughput", "occupancy", "l2_hit", "pct_of_peak"):
        c.quantity = cue
    elif cue == "speed" and (LANG.faster.search(after + " " + before) or LANG.slower.search(after)):
        c.quantity, c.percent_form = "speedup", "more"
    elif cue == "speed" and LANG.less.search(after[:24]):  # "38 % less time": 1 / (1 − 0.38)
        c.quantity, c.percent_form = "speedup", "less"
    elif cue == "traffic" and (LANG.less.search(after + " " + before) or LANG.more.search(after)):
        c.quantity, c.percent_form = "traffic_ratio", "less"


def _where(c: Claim, at: scope.Where) -> None:
    c.dims, c.dtype, c.shape_name, c.dim_hint = at.dims, at.dtype, at.shape_name, at.dim_hint
    c.geomean = at.geomean
    if at.unread and not c.unread:
        c.unread = at.unread


def _whose(
    c: Claim,
    b: str,
    ms: list[Mention],
    n: numbers.Num,
    prev_end: int,
    context: str | None,
    found: list[numbers.Num],
    done: list[Claim] | None = None,
) -> None:
    spans = [(x.start, x.end) for x in found]
    if c.quantity == numbers.UNKNOWN:
        c.unread = (
            "which unit? kgrade does not read this one: write the figure in the report's units "
            "(B, MB, GB; µs, ms; GB/s, TB/s; TFLOP/s; %; ×)"
        )
        return
    if c.quantity in ("ratio", "percent"):
        c.unread = (
            "a percentage of what? say which (of peak, occupancy, L2 hit rate, …)"
            if c.quantity == "percent"
            else "a ratio of what? say whether it is a speedup or a traffic ratio"
        )
        return
    if c.quantity in ("speedup", "traffic_ratio"):
        family = "traffic" if c.quantity == "traffic_ratio" else "time"
        owned = [(x.start, x.end) for x in found if x.quantity == family]
        orient(c, b, ms, n, context, spans, owned, pair_before(b, n, found, done or []))
        return
    who, how = owner(b, ms, n.start, n.end, prev_end, context, spans)
    who, how = sides(b, ms, n.start, n.end, who, how) if who else (who, how)
    if who is None:
        c.unread = "whose is it? name the implementation (yours, the naive version, torch)"
        return
    if who == OTHER:
        c.unread = NOT_OURS
        return
    c.subject, c.how = who, how
    if c.quantity == "intensity" or (who == "ceiling" and c.quantity != "tflops"):
        c.subject = "submission" if c.quantity != "intensity" else None
