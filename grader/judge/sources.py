"""Which measurement a time claim names: "median time 55 µs", "en el benchmark", "벤치마크
중앙값" is the benchmark's (the median of the timed calls); "Nsight shows 63 µs", "ncu",
"profiled", "perfilado", "프로파일" is Nsight Compute's kernel time. A time whose clause names
its source is checked against that source only; one that names none, against either. A
percentage of peak likewise: Nsight's "DRAM throughput" ("처리량", "ncu") or the benchmark's
"effective bandwidth" ("ancho de banda efectivo", "유효 대역폭")."""

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
# a % of peak: Nsight reports DRAM throughput, the benchmark an effective bandwidth
_PCT_BENCHMARK = re.compile(
    r"effective|efectiv|benchmark|timed|measured peak|pico medido|유효|벤치마크|측정한 피크",
    re.IGNORECASE,
)
_PCT_NSIGHT = re.compile(
    r"nsight|ncu|profil|perfil|프로파일|throughput|처리량|dram__", re.IGNORECASE
)


def named_source(c: Claim) -> str | None:
    """The Fact.source a time's or a % of peak's own clause names, or None (none, or both)."""
    s = c.sentence
    at = s.find(c.quote)
    if at < 0:
        return None
    clause = s[clause_start(s, at) : clause_end(s, at + len(c.quote))]
    pct = c.quantity == "pct_of_peak"
    bench = bool((_PCT_BENCHMARK if pct else _BENCHMARK).search(clause))
    nsight = bool((_PCT_NSIGHT if pct else _NSIGHT).search(clause))
    if bench == nsight:
        return None
    return SOURCES["benchmark" if bench else "nsight"]
