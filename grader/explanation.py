"""Is the student's explanation backed by the measurements?

It must address each point the checkpoint lists (for C3a: the mechanism — fusion, fewer DRAM
round-trips, bandwidth —, that the op is memory-bound, and why not GEMM on an SM_120 card), and
every number it quotes for a measured quantity must lie within the checkpoint's tolerance
(15 % by default) of a measurement of that kind: a speedup, a DRAM-traffic ratio, bytes moved,
GB/s, a percentage of peak or of occupancy, a time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grader.models import BenchmarkResult, ExplanationCheck, ProfileResult, RubricSpec

_SENTENCES = re.compile(r"(?<!\d)[.!?](?!\d)|\n")
_NUM = r"(\d+(?:[.,]\d+)?)"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("gbps", re.compile(_NUM + r"\s*(gb/s|tb/s)")),
    ("bytes", re.compile(_NUM + r"\s*(kb|mb|gb|kib|mib|gib)\b(?!/s)")),
    ("percent", re.compile(_NUM + r"\s*%")),
    ("time", re.compile(_NUM + r"\s*(µs|us|ms)\b")),
    ("ratio", re.compile(_NUM + r"\s*(?:x|×)(?!\s*\d)")),
]
_TRAFFIC = ("dram", "traffic", "bytes", "memory", "round-trip", "reads", "writes")
_SPEED = ("faster", "speedup", "speed-up", "speed up", "quicker", "beats", "than torch")


@dataclass
class Quote:
    kind: str
    value: float
    text: str
    sentence: str


def _quotes(text: str) -> list[Quote]:
    found = []
    for sentence in _SENTENCES.split(text.lower()):
        taken: list[tuple[int, int]] = []
        for kind, pat in _PATTERNS:
            for m in pat.finditer(sentence):
                if any(a <= m.start() < b for a, b in taken):
                    continue
                taken.append((m.start(), m.end()))
                value = float(m.group(1).replace(",", "."))
                unit = m.group(2) if m.lastindex and m.lastindex >= 2 else ""
                if kind == "gbps" and unit == "tb/s":
                    value *= 1000
                if kind == "bytes":
                    value *= {
                        "kb": 1e3,
                        "mb": 1e6,
                        "gb": 1e9,
                        "kib": 2**10,
                        "mib": 2**20,
                        "gib": 2**30,
                    }[unit]
                if kind == "time" and unit == "ms":
                    value *= 1000
                if kind == "ratio":
                    kind = (
                        "traffic_ratio"
                        if any(w in sentence for w in _TRAFFIC)
                        and not any(w in sentence for w in _SPEED)
                        else "speedup"
                    )
                if kind == "percent":
                    kind = "occupancy" if "occupancy" in sentence else "percent"
                found.append(Quote(kind, value, m.group(0).strip(), sentence.strip()))
    return found


def _measured(
    bench: BenchmarkResult, prof: ProfileResult | None
) -> dict[str, list[tuple[float, str]]]:
    m: dict[str, list[tuple[float, str]]] = {
        k: [] for k in ("speedup", "traffic_ratio", "bytes", "gbps", "percent", "occupancy", "time")
    }
    for s in bench.shapes:
        for base, r in s.speedup.items():
            m["speedup"].append((r.median, f"{r.median:.2f}× over {base} at {s.name}"))
        m["gbps"].append((s.gbps, f"{s.gbps:.0f} GB/s at {s.name}"))
        if s.pct_of_peak is not None:
            m["percent"].append((s.pct_of_peak, f"{s.pct_of_peak:.0f} % of peak at {s.name}"))
        for impl, us in s.times_us.items():
            m["time"].append((us, f"{us:.1f} µs ({impl}, {s.name})"))
    for base, r in bench.geomean.items():
        m["speedup"].append((r.median, f"{r.median:.2f}× over {base} (geometric mean)"))
    if prof and prof.totals:
        mine = prof.totals.get("submission")
        for impl, t in prof.totals.items():
            m["bytes"].append((t.dram_bytes, f"{t.dram_bytes / 1e6:.0f} MB ({impl})"))
            if t.dram_pct_of_peak is not None:
                m["percent"].append(
                    (t.dram_pct_of_peak, f"{t.dram_pct_of_peak:.0f} % DRAM ({impl})")
                )
            if mine and impl != "submission" and mine.dram_bytes:
                ratio = t.dram_bytes / mine.dram_bytes
                m["traffic_ratio"].append((ratio, f"{ratio:.1f}× ({impl} vs yours)"))
        for k in prof.kernels:
            if k.impl == "submission" and k.occupancy_pct is not None:
                m["occupancy"].append((k.occupancy_pct, f"{k.occupancy_pct:.0f} % occupancy"))
    return m


def check(
    text: str, rubric: RubricSpec, bench: BenchmarkResult, prof: ProfileResult | None
) -> ExplanationCheck:
    lowered = text.lower()
    result = ExplanationCheck(backed=True)
    for point, words in rubric.explanation_points.items():
        ok = any(w in lowered for w in words)
        result.points[point] = ok
        if not ok:
            result.backed = False
            result.messages.append(
                f"Your explanation does not address '{point.replace('_', ' ')}' "
                f"(e.g. mention {', '.join(words[:3])})."
            )
    measured = _measured(bench, prof)
    tol = rubric.number_tolerance
    for q in _quotes(text):
        candidates = measured.get(q.kind, [])
        if not candidates:
            result.numbers.append({"quote": q.text, "kind": q.kind, "checked": False})
            continue
        best = min(candidates, key=lambda c: abs(c[0] - q.value) / max(abs(c[0]), 1e-9))
        rel = abs(best[0] - q.value) / max(abs(best[0]), 1e-9)
        ok = rel <= tol
        result.numbers.append(
            {
                "quote": q.text,
                "kind": q.kind,
                "closest": best[1],
                "rel_error": round(rel, 3),
                "checked": True,
                "ok": ok,
            }
        )
        if not ok:
            result.backed = False
            result.messages.append(
                f"Your explanation says {q.text} ({q.kind.replace('_', ' ')}); the closest "
                f"measurement is {best[1]} — off by {rel:.0%}, more than {tol:.0%}."
            )
    if not any(n.get("checked") for n in result.numbers):
        result.backed = False
        result.messages.append(
            "Your explanation quotes no measured number (speedup, DRAM bytes or traffic ratio, "
            "GB/s, % of peak, occupancy): back it with the Nsight and benchmark figures."
        )
    return result
