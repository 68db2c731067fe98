"""Which measurement a time claim names: "median time 55 µs", "en el benchmark", "벤치마크
중앙값" is the benchmark's (the median of the timed calls); "Nsight shows 63 µs", "ncu",
"profiled", "perfilado", "프로파일" is Nsight Compute's kernel time. A time whose clause names
its source is checked against that source only; one that names none, against either."""

from __future__ import annotations

import re

from grader.judge.attribution import clause_end, clause_start
from grader.judge.claim import Claim

_BENCHMARK = re.compile(
    r"median|benchmark|timed|wall[- ]?clock|do_bench|mediana|cronometr|medid[oa]s? con|"
    r"벤치마크|중앙값|측정한 시간",
    re.IGNORECASE,
)
_NSIGHT = re.compile(r"nsight|ncu|profil|perfil|프로파일|프로파일러", re.IGNORECASE)
SOURCES = {"benchmark": "benchmark", "nsight": "Nsight Compute"}


def named_source(c: Claim) -> str | None:
    """The Fact.source a time claim's own clause names, or None (none, or both)."""
    s = c.sentence
    at = s.find(c.quote)
    if at < 0:
        return None
    clause = s[clause_start(s, at) : clause_end(s, at + len(c.quote))]
    bench, nsight = bool(_BENCHMARK.search(clause)), bool(_NSIGHT.search(clause))
    if bench == nsight:
        return None
    return SOURCES["benchmark" if bench else "nsight"]
