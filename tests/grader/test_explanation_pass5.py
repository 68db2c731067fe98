# ruff: noqa: E501  (the cases are explanations, one a line)
"""Issue 30's fifth blind pass (benchmarks/results/2026-12-04-cpu-explanation-fresh-pass-5.md):
its 155 texts, each verdict as the truth says, and the classes it found, each in languages and
words of its own here:

1. a case named before a clause ("On the llama shape, 8192 by 4096 in bf16, my kernel takes
   37 µs and is 1.24× faster") scopes every number of that clause, in a sentence that names a
   second case too;
2. a first-person sentence ("I accumulate in fp32.", "Acumulo en fp32.") is a sentence of its
   own: it meets the precision point;
3. comparisons joined by a conjunction ("a higher DRAM bandwidth than torch and fewer kernels
   than the naive version", "más ancho de banda que torch y menos kernels que la ingenua") are
   each their own quantity, comparative and baseline;
4. Spanish number-less occupancy comparisons ("una ocupación más baja que …", "la ocupación de
   mi kernel es mayor que la de torch", "superior a la de torch") are read;
5. a number-less comparison after a ratio in one clause ("is 1.24× faster than torch and has a
   higher occupancy than torch") is read;
6. a consequence after a semicolon ("Torch takes 110 µs; my kernel takes 68 µs, so it is 1.62×
   faster", "…; mi kernel tarda 68 µs, así que es …") is that clause's subject's;
7. the memory-bound point is met by memory-bound words only: "bandwidth" alone ("Bandwidth
   hardly matters here.") does not meet it;
8. Korean: a comparison in a "~지만" clause is read on its own; "제 커널은 X처럼 커널 N개를
   띄웁니다" (affirmative) is the subject's N, X only compared with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.grader.test_explanation_pass3 import BASE, FIG, check

REPORT = (
    Path(__file__).resolve().parents[2]
    / "benchmarks/results/2026-12-04-cpu-explanation-fresh-pass-5.json"
)


def _recorded() -> list[object]:
    return [pytest.param(c, id=c["id"]) for c in json.loads(REPORT.read_text())]


@pytest.mark.parametrize("case", _recorded())
def test_pass5_recorded_text(case: dict[str, str]) -> None:
    c = check(case["text"], case["recording"])
    assert c.backed == (case["truth"] == "true"), (case["why"], c.messages)


RMS = "c3a-rmsnorm-0"
RB = {
    "en": "RMSNorm is memory-bound. My kernel fuses everything into one pass. I chose it rather than a GEMM because cuBLAS already wins dense GEMM.",
    "es": "El RMSNorm está limitado por memoria. Mi kernel fusiona todo en una sola pasada. Elegí esto en lugar de una GEMM porque cuBLAS ya gana la GEMM densa.",
}
RF = {
    "en": "It moves 110 MB and is 1.24× faster than torch.",
    "es": "Mueve 110 MB y es 1,24 veces más rápido que torch.",
}
ACC = {"en": "My kernel accumulates in fp32.", "es": "Mi kernel acumula en fp32."}
NOMB = {
    "en": "My kernel fuses the max, the sum and the normalization into one pass. It moves 244 MB and is 1.62× faster than torch. I chose it rather than a GEMM because cuBLAS already wins dense GEMM.",
    "es": "Mi kernel fusiona el máximo, la suma y la normalización en una sola pasada. Mueve 244 MB y es 1,62 veces más rápido que torch. Elegí esto en lugar de una GEMM porque cuBLAS ya gana la GEMM densa.",
    "ko": "제 커널은 max, 합, 정규화를 한 번의 패스로 퓨전합니다. 제 커널은 244 MB를 옮기고 torch보다 1.62배 빠릅니다. cuBLAS가 이미 dense GEMM에서 이기기 때문에 GEMM 대신 이 연산을 골랐습니다.",
}
CASES: list[tuple[str, str, str, str, bool]] = [
    (
        "1",
        "en",
        RMS,
        RB["en"]
        + " "
        + ACC["en"]
        + " It moves 110 MB. At 8192 by 4096 in bf16 my kernel takes 37 µs and is 1.24× faster than torch, while at 16384×4096 fp32 it is 1.33× faster than torch.",
        True,
    ),
    (
        "1",
        "en",
        RMS,
        RB["en"]
        + " "
        + ACC["en"]
        + " At 8192 by 4096 in bf16 my kernel takes 37 µs and is 1.50× faster than torch, while at 16384×4096 fp32 it is 1.33× faster than torch.",
        False,
    ),
    (
        "1",
        "es",
        RMS,
        RB["es"]
        + " "
        + ACC["es"]
        + " Mueve 110 MB. En 8192 por 4096 con bf16 mi kernel tarda 37 µs y es 1,24 veces más rápido que torch, mientras que en 16384×4096 fp32 es 1,33 veces más rápido que torch.",
        True,
    ),
    (
        "1",
        "es",
        RMS,
        RB["es"]
        + " "
        + ACC["es"]
        + " En 8192 por 4096 con bf16 mi kernel tarda 37 µs y es 1,90 veces más rápido que torch, mientras que en 16384×4096 fp32 es 1,33 veces más rápido que torch.",
        False,
    ),
    ("2", "en", RMS, RB["en"] + " " + RF["en"] + " We accumulate in fp32.", True),
    ("2", "es", RMS, RB["es"] + " " + RF["es"] + " Acumulamos en float32.", True),
    ("2", "en", RMS, RB["en"] + " " + RF["en"] + " I do not accumulate in fp32.", False),
    ("2", "es", RMS, RB["es"] + " " + RF["es"] + " No acumulo en fp32.", False),
    (
        "3",
        "en",
        "c3a-softmax-3",
        BASE["en"]
        + " "
        + FIG["en"]
        + " My kernel launches fewer kernels than the naive version and reaches a higher DRAM bandwidth than torch.",
        True,
    ),
    (
        "3",
        "en",
        "c3a-softmax-3",
        BASE["en"]
        + " "
        + FIG["en"]
        + " My kernel has a lower DRAM bandwidth than torch and fewer kernels than the naive version.",
        False,
    ),
    (
        "3",
        "es",
        "c3a-softmax-3",
        BASE["es"]
        + " "
        + FIG["es"]
        + " Mi kernel tiene menos kernels que la versión ingenua y más ancho de banda DRAM que torch.",
        True,
    ),
    (
        "3",
        "es",
        "c3a-softmax-3",
        BASE["es"]
        + " "
        + FIG["es"]
        + " Mi kernel tiene más ancho de banda DRAM que la versión ingenua y más kernels que torch.",
        False,
    ),
    (
        "4",
        "es",
        "c3a-softmax-3",
        BASE["es"] + " " + FIG["es"] + " La ocupación de mi kernel es menor que la de torch.",
        True,
    ),
    (
        "4",
        "es",
        "c3a-softmax-3",
        BASE["es"]
        + " Mi kernel mueve 244 MB, es 1,62 veces más rápido que torch y tiene una ocupación más alta que la versión ingenua.",
        True,
    ),
    (
        "4",
        "es",
        "c3a-softmax-3",
        BASE["es"]
        + " "
        + FIG["es"]
        + " Mi kernel tiene una ocupación más baja que la versión ingenua.",
        False,
    ),
    (
        "4",
        "es",
        "c3a-softmax-3",
        BASE["es"] + " " + FIG["es"] + " La ocupación de mi kernel es superior a la de torch.",
        False,
    ),
    (
        "5",
        "en",
        "c3a-softmax-3",
        BASE["en"]
        + " My kernel moves 244 MB, is 1.62× faster than torch and has a lower occupancy than torch.",
        True,
    ),
    (
        "5",
        "en",
        "c3a-softmax-3",
        BASE["en"]
        + " My kernel moves 244 MB, is 1.62× faster than torch and has a higher occupancy than the naive version.",
        True,
    ),
    (
        "5",
        "en",
        "c3a-softmax-3",
        BASE["en"]
        + " My kernel moves 244 MB, is 1.62× faster than torch and has a lower occupancy than the naive version.",
        False,
    ),
    (
        "6",
        "en",
        "c3a-softmax-3",
        BASE["en"]
        + " The naive version takes 353 µs; my kernel takes 68 µs and moves 244 MB, so it is 5.20× faster.",
        True,
    ),
    (
        "6",
        "en",
        "c3a-softmax-3",
        BASE["en"]
        + " Torch takes 110 µs; my kernel takes 68 µs and moves 244 MB, so it is 2.5× faster.",
        False,
    ),
    (
        "6",
        "es",
        "c3a-softmax-3",
        BASE["es"]
        + " Torch tarda 110 µs; mi kernel tarda 68 µs y mueve 244 MB, así que es 1,62 veces más rápido.",
        True,
    ),
    (
        "6",
        "es",
        "c3a-softmax-3",
        BASE["es"]
        + " Torch tarda 110 µs; mi kernel tarda 68 µs y mueve 244 MB, así que es 0,62 veces más rápido.",
        False,
    ),
    ("7", "en", "c3a-softmax-3", "Softmax is bandwidth-bound. " + NOMB["en"], True),
    ("7", "en", "c3a-softmax-3", "Bandwidth is all that matters here. " + NOMB["en"], False),
    ("7", "es", "c3a-softmax-3", "El ancho de banda apenas importa aquí. " + NOMB["es"], False),
    (
        "7",
        "es",
        "c3a-softmax-3",
        "El softmax no está limitado por memoria; el ancho de banda casi no importa. " + NOMB["es"],
        False,
    ),
    ("7", "ko", "c3a-softmax-3", "대역폭은 별로 중요하지 않습니다. " + NOMB["ko"], False),
    (
        "8",
        "ko",
        "c3a-softmax-3",
        BASE["ko"]
        + " 제 커널은 torch보다 점유율이 높지만 torch보다 1.62배 빠르고 244 MB를 옮깁니다.",
        False,
    ),
    (
        "8",
        "ko",
        "c3a-softmax-3",
        BASE["ko"]
        + " 제 커널은 naive 버전보다 점유율이 높지만 torch보다 1.62배 빠르고 244 MB를 옮깁니다.",
        True,
    ),
    (
        "8",
        "ko",
        "c3a-softmax-3",
        BASE["ko"] + " " + FIG["ko"] + " 제 커널은 torch처럼 커널 1개를 띄웁니다.",
        True,
    ),
    (
        "8",
        "ko",
        "c3a-softmax-3",
        BASE["ko"] + " " + FIG["ko"] + " 제 커널은 torch처럼 커널 3개를 띄웁니다.",
        False,
    ),
    (
        "8",
        "ko",
        "c3a-softmax-3",
        BASE["ko"] + " " + FIG["ko"] + " 제 커널은 naive 버전처럼 커널 5개를 띄우지 않습니다.",
        True,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_pass5_class(case: tuple[str, str, str, str, bool]) -> None:
    _, _, name, text, true = case
    c = check(text, name)
    assert c.backed == true, c.messages
