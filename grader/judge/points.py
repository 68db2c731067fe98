"""The points an explanation must address (a checkpoint's `explanation_points`).

A point is met by a sentence of the rendered text that says it: one of the checkpoint's words
for it, or the same idea in any of the course's languages (lang/'s `concepts`), in a real
sentence (not a bare word or a list of words), affirmatively (a negation in its clause — "I
did not look at the arithmetic intensity", "no está limitado por memoria", "메모리 바운드가
아니다" — meets nothing; a negated reason with a "because" does meet a point about what was
not chosen: "I did not write a GEMM because cuBLAS wins it", never one about what the kernel
does: "I don't subtract the max because the logits are small").

Points that can be measured are claims: "memory-bound" holds only if the kernel's DRAM
throughput is near the peak (or its arithmetic intensity lies below the GPU's ridge point),
"compute-bound" only if the tensor pipe or the SMs are busy (or the intensity is above the
ridge), and a fusion mechanism ("fusion cuts DRAM traffic") only if the measured traffic
ratio against the naive version is above 1. The instructor sees which sentence met each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grader.judge.attribution import clause_end, clause_start
from grader.judge.claims import normalise
from grader.judge.lang import LANG
from grader.models import Citable, Fact

NEAR_PEAK = 60.0  # % of peak: "near the peak" for a memory-bound claim
BUSY = 60.0  # % of peak of the tensor pipe or the SMs for a compute-bound claim
_MEASURED = {"memory-bound": "memory", "compute-bound": "compute", "fusion": "fusion"}
# what a student says they did NOT choose, and why: a negation with its reason meets these
# ("I did not write a GEMM because cuBLAS wins it"), never a point about what the kernel does
# (pass 6: "I don't subtract the max because the logits are small" met stability)
_WHY_NOT = frozenset({"gemm", "cublas", "tmem", "sm_120"})


@dataclass
class PointCheck:
    ok: bool
    sentence: str = ""
    message: str = ""
    measured: str = ""


def _concepts(words: list[str]) -> list[str]:
    out = []
    for w in words:
        # a word that is a concept is that concept only: "bandwidth-bound" is memory-bound,
        # not "bandwidth" (pass 5: "Bandwidth hardly matters here." met memory-bound)
        exact = [name for name, pat in LANG.concepts.items() if pat.fullmatch(w.lower())]
        out += exact or [
            name
            for name, pat in LANG.concepts.items()
            if w.lower().startswith(name) or pat.search(w.lower())
        ]
    return sorted(set(out))


def _patterns(words: list[str]) -> list[tuple[str, re.Pattern[str]]]:
    """A point's words and concepts; a mechanism point (one naming fusion) is met by the
    mechanism only: its other words ("bandwidth") say why it matters, not what was done."""
    concepts = _concepts(words)
    if "fusion" in concepts:
        words = [w for w in words if _concepts([w]) in ([], ["fusion"])]
        concepts = ["fusion"]
    own = [(w, re.compile(r"(?<![\w])" + re.escape(w.lower()))) for w in words]
    return own + [(c, LANG.concepts[c]) for c in concepts]


def _tokens(s: str) -> list[str]:
    return re.findall(r"[^\W\d_][\w'’-]*", s)


# "Softmax is memory-bound.": a subject, a copula and the point make a sentence
_COPULA = re.compile(r"^\W*[^\W\d_][\w-]*(?: [^\W\d_][\w-]*)? (?:is|are|es|está|son|están) ")


# "Palabras clave: fusión, memory-bound, GEMM.", "키워드: 융합, 메모리 바운드, GEMM.": a short
# label, a colon, then items of a few words each split by commas: a list of words, whatever
# the label's language
_LABEL = re.compile(r"^\W*((?:[^\W\d_][\w'’-]*\s*){1,3}):\s*(.+?)\W*$")
_ITEMS = re.compile(r"\s*[,，、;·]\s*")


def keyword_list(s: str) -> bool:
    """Is the sentence a labelled list of words ("Keywords: a, b, c.")?"""
    m = _LABEL.match(s.strip())
    if not m:
        return False
    items = [x for x in _ITEMS.split(m.group(2)) if x.strip()]
    return len(items) >= 2 and all(len(_tokens(x)) <= 3 for x in items)


def _real_sentence(s: str, every: list[re.Pattern[str]]) -> bool:
    """A sentence, not a word or a list of words: enough words besides the points' words."""
    if keyword_list(s):
        return False
    korean = bool(re.search(r"[\uac00-\ud7a3]", s))
    rest = s
    for pat in every:
        rest = pat.sub(" ", rest)
    if korean:
        need, left = 2, 1
    elif LANG.first_person.match(s):  # "I accumulate in fp32.", "Acumulo en fp32."
        need, left = 3, 0
    elif _COPULA.match(s):
        need, left = 3, 1
    else:
        need, left = 4, 2
    return len(_tokens(s)) >= need and len(_tokens(rest)) >= left


def _affirmative(s: str, m: re.Match[str], why_not: bool) -> bool:
    lo, hi = clause_start(s, m.start()), clause_end(s, m.end())
    before, after = s[lo : m.start()], s[m.end() : hi]
    if LANG.hedge.search(s[lo:hi]):  # a guess: "might be", "quizás sea", "…일 수도 있다"
        return False
    then = LANG.consequence.search(after)
    if then is not None:  # "fused, so nothing returns to DRAM": the consequence's own negation
        after = after[: then.start()]
    negated = bool(LANG.negation.search(before)) or bool(
        LANG.negation_after.pattern and LANG.negation_after.search(after)
    )
    if not negated:
        return True
    return why_not and bool(LANG.because.search(s))


_QUESTION = re.compile(r"[?¿]|(?:까요|나요|습니까|입니까|합니까|됩니까|일까|을까|는가|인가)[.!]*$")


def asserted(s: str) -> bool:
    """Does the (normalised) sentence affirm what it says? Not a question, not a condition
    ("if softmax were memory-bound", "si fuera", "…라면"), not someone else's words ("my
    classmate claims", "según un compañero", "…라고 합니다"; the student's own "I think" and
    the profiler's "according to Nsight" are affirmed), not disowned ("I do not agree")."""
    if _QUESTION.search(s.strip()) or LANG.conditional.search(s) or LANG.disowned.search(s):
        return False
    for m in LANG.reported.finditer(s):
        said_by = s[max(0, m.start() - 40) : m.start()]
        after = s[m.end() : m.end() + 40]
        own = LANG.own_speaker.search(said_by) or LANG.own_speaker.search(s[: m.start()])
        if re.search(r"[\uac00-\ud7a3]", m.group(0)):  # Korean: the speaker is the topic
            if not own:
                return False
            continue
        if m.group(0).startswith(("according", "seg")):
            if not LANG.evidence.match(after.lstrip()):
                return False
            continue
        mine = own and re.search(r"(?:^|\s)" + own.group(0) + r"\s*(?:\w+\s*)?$", said_by)
        if not mine and not LANG.evidence.search(said_by):  # "I think …", "Nsight says …"
            return False
    return True


def meeting(
    sentences: list[str], words: list[str], every: list[re.Pattern[str]]
) -> tuple[int, str, str] | None:
    """The first sentence that meets a point: its index, the concept it said, the words."""
    pats = _patterns(words)
    for i, sentence in enumerate(sentences):
        s = normalise(sentence)
        if not _real_sentence(s, every) or not asserted(s):
            continue
        for name, pat in pats:
            for m in pat.finditer(s):
                concept = name if name in LANG.concepts else (_concepts([name]) or [name])[0]
                if _affirmative(s, m, concept in _WHY_NOT):
                    return i, concept, m.group(0)
    return None


def check(
    sentences: list[str], points: dict[str, list[str]], cite: Citable | None
) -> dict[str, PointCheck]:
    every = [p for words in points.values() for _, p in _patterns(words)]
    out = {}
    for point, words in points.items():
        found = meeting(sentences, words, every)
        label = point.replace("_", " ")
        if found is None:
            sample = ", ".join(words[:3])
            kinds = [_MEASURED[c] for c in _concepts(words) if c in _MEASURED]
            told = [measure(k, cite)[1] for k in kinds[:1]] if cite is not None else []
            hint = f" Measured: {told[0]}." if told else ""
            out[point] = PointCheck(
                False,
                message=f"Your explanation does not address '{label}': say it in a sentence of "
                f"your own (e.g. about {sample}); a bare word, a list of words, a negation or "
                f"hidden text does not count.{hint}",
            )
            continue
        i, concept, said = found
        kind = _MEASURED.get(concept)
        sentence = sentences[i]
        if kind is None or cite is None:
            out[point] = PointCheck(True, sentence=sentence)
            continue
        holds, measured = measure(kind, cite)
        if holds is None or holds:
            out[point] = PointCheck(True, sentence=sentence, measured=measured)
        else:
            out[point] = PointCheck(
                False,
                sentence=sentence,
                measured=measured,
                message=f"You wrote that it is {'fused' if kind == 'fusion' else kind + '-bound'}"
                f" ('{said}', sentence {i + 1}), but the measurements say otherwise: {measured}.",
            )
    return out


def _at(cite: Citable, quantity: str, impl: str = "submission") -> list[Fact]:
    return [
        f
        for f in cite.facts
        if f.quantity == quantity and f.impl == impl and f.shape_name == cite.shape_name
    ]


def _ridge(cite: Citable) -> tuple[float, float] | None:
    """(intensity, ridge) in FLOP/byte at the course's shape, where measured."""
    ai = next(iter(_at(cite, "intensity")), None)
    roof = next(iter(_at(cite, "tflops", "ceiling")), None)
    bw = next((f for f in _at(cite, "bandwidth") if f.label.startswith("effective")), None)
    pct = next((f for f in _at(cite, "pct_of_peak") if f.label.startswith("effective")), None)
    if ai is None or roof is None or bw is None or pct is None or not pct.value:
        return None
    peak_gbps = bw.value / (pct.value / 100)
    return ai.value, roof.value * 1e12 / (peak_gbps * 1e9)


def measure(kind: str, cite: Citable) -> tuple[bool | None, str]:
    """Does the measurement back the point? None: nothing measured to tell."""
    where = f"yours, {cite.shape_name}"
    if kind == "fusion":
        r = next((f for f in _at(cite, "traffic_ratio") if f.versus == "naive"), None)
        if r is None:
            return None, "no traffic ratio against the naive version was measured"
        return r.value > 1.0, f"DRAM traffic ratio naive ÷ yours {r.text} ({cite.shape_name})"
    ridge = _ridge(cite)
    if ridge is not None:
        ai, rp = ridge
        text = f"arithmetic intensity {ai:.0f} FLOP/B, ridge point {rp:.0f} FLOP/B ({where})"
        return (ai < rp) if kind == "memory" else (ai >= rp), text
    if kind == "memory":
        pcts = [f for f in _at(cite, "pct_of_peak") if "bandwidth" in f.label or "DRAM" in f.label]
        if not pcts:
            return None, "no DRAM throughput was measured"
        best = max(pcts, key=lambda f: f.value)
        return best.value >= NEAR_PEAK, f"{best.label} {best.text} ({where})"
    busy = _at(cite, "tensor_pipe") + _at(cite, "sm_throughput")
    if not busy:
        return None, "no tensor pipe or SM throughput was measured"
    best = max(busy, key=lambda f: f.value)
    return best.value >= BUSY, f"{best.label} {best.text} ({where})"
