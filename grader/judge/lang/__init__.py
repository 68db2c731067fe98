"""The course's languages as tables (en.py, es.py, ko.py: data only). Adding a language is
adding a table here; the reader (claims.py, attribution.py, numbers.py, points.py) is the
same for all. `LANG` is every table merged: an explanation may mix languages (a Spanish
sentence quoting "fused kernel"), so each phrase is looked for in every one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from grader.judge.lang import en, es, ko

TABLES: list[dict[str, Any]] = [en.TABLE, es.TABLE, ko.TABLE]
CODES = [t["code"] for t in TABLES]


def _bounded(fragment: str) -> str:
    """A fragment as a whole word where it starts or ends with a Latin letter or digit (no
    boundary next to Hangul: particles follow a Korean name with no space)."""
    if re.search(r"[\uac00-\ud7a3]", fragment):
        return f"(?:{fragment})"
    head = r"(?<![\w])" if re.match(r"[a-z0-9ñáéíóúü]", fragment) else ""
    tail = r"(?![\w])" if re.search(r"[a-z0-9ñáéíóúü\]\)]$", fragment) else ""
    return f"{head}(?:{fragment}){tail}"


def alt(fragments: list[str], bounded: bool = True) -> str:
    frs = sorted(set(fragments), key=len, reverse=True)
    if not frs:
        return r"(?!x)x"
    return "(?:" + "|".join(_bounded(f) if bounded else f"(?:{f})" for f in frs) + ")"


def merged(key: str) -> list[str]:
    out: list[str] = []
    for t in TABLES:
        out += list(t.get(key, []))
    return out


def merged_dict(key: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for t in TABLES:
        for k, v in t.get(key, {}).items():
            out.setdefault(k, []).extend(v)
    return out


@dataclass(frozen=True)
class Lang:
    impl: list[tuple[str, re.Pattern[str]]]
    pronoun: re.Pattern[str]
    compare_before: re.Pattern[str]
    compare_after: re.Pattern[str]
    link_after: re.Pattern[str]
    possessive: re.Pattern[str]
    ge_before: re.Pattern[str]
    ge_after: re.Pattern[str]
    le_before: re.Pattern[str]
    le_after: re.Pattern[str]
    approx: re.Pattern[str]
    approx_after: re.Pattern[str]
    faster: re.Pattern[str]
    slower: re.Pattern[str]
    less: re.Pattern[str]
    more: re.Pattern[str]
    same: re.Pattern[str]
    negation: re.Pattern[str]
    negation_after: re.Pattern[str]
    hypothetical: re.Pattern[str]
    hedge: re.Pattern[str]
    that_shape: re.Pattern[str]
    because: re.Pattern[str]
    consequence: re.Pattern[str]
    conditional: re.Pattern[str]
    reported: re.Pattern[str]
    own_speaker: re.Pattern[str]
    first_person: re.Pattern[str]
    conjunction: re.Pattern[str]
    evidence: re.Pattern[str]
    disowned: re.Pattern[str]
    cues: dict[str, re.Pattern[str]]
    read: re.Pattern[str]
    write: re.Pattern[str]
    single_kernel: re.Pattern[str]
    geomean: re.Pattern[str]
    course_shape: re.Pattern[str]
    rows: str
    cols: str
    words: dict[str, float]
    multipliers: dict[str, float]
    ratio_words: dict[str, float]  # a ratio said in one word: "twice", "el doble", "절반"
    ratio_units: str
    kernel_words: str
    concepts: dict[str, re.Pattern[str]]
    ranges: list[tuple[str, str]]


def _c(key: str, bounded: bool = True) -> re.Pattern[str]:
    return re.compile(alt(merged(key), bounded))


def _build() -> Lang:
    impl: dict[str, list[str]] = merged_dict("impl")
    order = ["other", "compile", "naive", "torch", "submission", "ceiling"]
    words: dict[str, float] = {}
    multipliers: dict[str, float] = {}
    ratio_words: dict[str, float] = {}
    ranges: list[tuple[str, str]] = []
    for t in TABLES:
        words.update(t.get("words", {}))
        multipliers.update(t.get("multipliers", {}))
        ratio_words.update(t.get("ratio_words", {}))
        ranges += list(t.get("range", []))
    return Lang(
        impl=[(k, re.compile(alt(impl[k]))) for k in order],
        pronoun=_c("pronouns"),
        compare_before=_c("compare_before"),
        compare_after=re.compile(alt(merged("compare_after"), bounded=False)),
        link_after=re.compile(r"^\s*" + alt(merged("link_after"))),
        possessive=re.compile(alt(merged("possessive"), bounded=False)),
        ge_before=_c("ge_before"),
        ge_after=_c("ge_after"),
        le_before=_c("le_before"),
        le_after=_c("le_after"),
        approx=_c("approx"),
        approx_after=_c("approx_after"),
        faster=_c("faster"),
        slower=_c("slower"),
        less=_c("less"),
        more=_c("more"),
        same=_c("same"),
        negation=_c("negation"),
        negation_after=re.compile(alt(merged("negation_after"), bounded=False)),
        hypothetical=_c("hypothetical", bounded=False),
        hedge=re.compile(alt(merged("hedge"))),
        that_shape=_c("that_shape"),
        because=_c("because"),
        consequence=_c("consequence"),
        conditional=_c("conditional"),
        reported=_c("reported"),
        own_speaker=_c("own_speaker"),
        conjunction=_c("conjunction"),
        first_person=re.compile(r"^\W*" + alt(merged("first_person"))),
        evidence=_c("evidence"),
        disowned=_c("disowned"),
        cues={k: re.compile(alt(v)) for k, v in merged_dict("cues").items()},
        read=_c("read"),
        write=_c("write"),
        single_kernel=_c("single_kernel"),
        geomean=_c("geomean"),
        course_shape=_c("course_shape"),
        rows=alt(merged("rows")),
        cols=alt(merged("cols")),
        words=words,
        multipliers=multipliers,
        ratio_words=ratio_words,
        ratio_units=alt(merged("ratio_units")),
        kernel_words=alt(merged("kernel_words")),
        concepts={k: re.compile(alt(v)) for k, v in merged_dict("concepts").items()},
        ranges=ranges,
    )


LANG = _build()


def language_of(text: str) -> str:
    """The explanation's main language, by its script and common words: 'ko', 'es' or 'en'
    (where it decides how "3.876" or "0,244" is read)."""
    hangul = len(re.findall(r"[\uac00-\ud7a3]", text))
    if hangul > 20:
        return "ko"
    low = text.lower()
    es_words = len(re.findall(r"\b(?:el|la|los|las|que|del|por|con|una|es|más|mi|frente)\b", low))
    en_words = len(re.findall(r"\b(?:the|is|of|and|than|my|it|with|that|for)\b", low))
    return "es" if es_words > en_words else "en"
