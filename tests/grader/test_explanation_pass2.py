# ruff: noqa: E501  (the cases are explanations, one a line)
"""Issue 30's second blind pass (benchmarks/results/2026-12-03-cpu-explanation-fresh-pass-2.md):
the reader is scope-aware and conservative. Classes A-C here (D-G: test_explanation_pass2_more.py):

A. a case or shape scopes the numbers of its own clause only: a sentence naming two cases (or a
   case and the geometric mean) never checks a number at the first case named; a number whose
   clause names none there is "not read"; a comparison with no number is checked at the case
   it names; a figure with no case named is the course shape's, never the geometric mean's;
B. a parenthesis with its own owner ("(110 µs el mío)", "(244 MB for the naive version)") gives
   its number to that owner; read/written labels bind each to its own number and never leak to
   the total before the parenthesis ("총 134 MB(읽기 134 MB, …)");
C. "torch takes 1.24 times as long as mine" is a speedup, not a traffic ratio.

Each case: (class, language, grading, text, what a refusal must name; None: backed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader import checkpoints
from grader.judge import explanation
from tests.grader.recorded import grading

SM, RMS, XE = "c3a-softmax-3", "c3a-rmsnorm-1", "c3a-cross-entropy-0"
REPORT = (
    Path(__file__).resolve().parents[2]
    / "benchmarks/results/2026-12-03-cpu-explanation-fresh-pass-2.json"
)


def check(text: str, name: str = SM) -> explanation.ExplanationCheck:
    spec = checkpoints.get(name.rsplit("-", 1)[0]).definition.rubric
    return explanation.check(text, spec, grading(name).citable)


def report_case(case_id: str) -> dict[str, object]:
    found: dict[str, object] = next(x for x in json.loads(REPORT.read_text()) if x["id"] == case_id)
    return found


# the points said plainly, and the figures that back the speed and traffic requirements
EN = "Softmax is memory-bound because it does a few flops per byte, so my kernel fuses the five steps into one pass and the intermediates never go back to DRAM. I chose a memory-bound op rather than a GEMM because cuBLAS already wins dense GEMM on this GPU."
ES = "La softmax está limitada por memoria porque hace muy pocas operaciones por byte, así que mi kernel fusiona los cinco pasos en una sola pasada y los intermedios no vuelven a la DRAM. Elegí una operación limitada por memoria en lugar de una GEMM porque cuBLAS ya gana la GEMM densa."
KO = "소프트맥스는 바이트당 연산이 적어서 메모리 바운드입니다. 제 커널은 다섯 단계를 한 번의 패스로 융합해서 중간 결과가 DRAM을 왕복하지 않습니다. cuBLAS가 이미 GEMM을 이기기 때문에 GEMM 대신 메모리 바운드 연산을 골랐습니다."
FIG = {
    "en": "On the course shape my kernel moves 244 MB, 4.16× less than the naive version, and it is 1.62× faster than torch.",
    "es": "En la forma del curso mi kernel mueve 244 MB, 4,16 veces menos que la versión ingenua, y es 1,62 veces más rápido que torch.",
    "ko": "강의 shape에서 제 커널의 DRAM 트래픽은 244 MB로 나이브 버전보다 4.16배 적고, torch보다 1.62배 빠릅니다.",
}
BASE = {"en": EN, "es": ES, "ko": KO}
XE_EN = "Cross-entropy is memory-bound because the logits are read once with almost no math, so my fused single-pass kernel uses an online logsumexp with a running max to avoid overflow. My kernel moves 527 MB of DRAM traffic, 2.72× less than torch. I chose a memory-bound op rather than a GEMM because cuBLAS already wins dense GEMM on this GPU."
XE_ES = "La entropía cruzada está limitada por memoria porque los logits se leen una vez con casi nada de cálculo, así que mi kernel fusionado de una sola pasada usa un logsumexp online con un máximo acumulado para evitar el desbordamiento. Mi kernel mueve 527 MB de tráfico DRAM, 2,72 veces menos que torch. Elegí una operación limitada por memoria en lugar de una GEMM porque cuBLAS ya gana la GEMM densa."


def with_figures(lang: str, sentence: str) -> str:
    return f"{BASE[lang]} {FIG[lang]} {sentence}"


CASES: list[tuple[str, str, str, str, str | None]] = [
    # -- A. a case scopes its own clause ----------------------------------------------------
    (
        "A",
        "en",
        SM,
        with_figures(
            "en",
            "With bf16 inputs at 8192×4096 it is 2.98× faster than torch, while on the short rows of 600 columns it is 1.18× faster than torch.",
        ),
        None,
    ),
    (
        "A",
        "en",
        SM,
        with_figures(
            "en",
            "With bf16 inputs at 8192×4096 it is 2.98× faster than torch, while on the short rows of 600 columns it is 2.5× faster than torch.",
        ),
        "1.18×",
    ),
    (
        "A",
        "en",
        SM,
        with_figures(
            "en",
            "On the short rows of 600 columns it is 1.18× faster than torch, and with bf16 inputs at 8192×4096 it is 2.98× faster.",
        ),
        None,
    ),
    (
        "A",
        "en",
        SM,
        with_figures(
            "en",
            "With bf16 inputs at 8192×4096 it is 2.98× faster than torch, and on the odd 1823×781 shape 1.32×.",
        ),
        None,
    ),
    (
        "A",
        "es",
        SM,
        with_figures(
            "es",
            "Con entradas bf16 en 8192×4096 es 2,98 veces más rápido que torch, mientras que en las filas cortas de 600 columnas es 2,5 veces más rápido que torch.",
        ),
        "1.18×",
    ),
    (
        "A",
        "es",
        SM,
        with_figures(
            "es",
            "Con entradas bf16 en 8192×4096 es 2,98 veces más rápido que torch, mientras que en las filas cortas de 600 columnas es 1,18 veces más rápido que torch.",
        ),
        None,
    ),
    (
        "A",
        "ko",
        SM,
        with_figures(
            "ko",
            "8192×4096 bf16 입력에서는 torch보다 2.98배 빠르고, 600열짜리 짧은 행에서는 torch보다 2.5배 빠릅니다.",
        ),
        "1.18×",
    ),
    (
        "A",
        "ko",
        SM,
        with_figures(
            "ko",
            "8192×4096 bf16 입력에서는 torch보다 2.98배 빠르고, 600열짜리 짧은 행에서는 torch보다 1.18배 빠릅니다.",
        ),
        None,
    ),
    # the geometric mean scopes only its own number
    (
        "A",
        "en",
        XE,
        XE_EN
        + " It is 3.27× faster than torch on 4096×32000 fp32, with a geometric mean of 7.57× over torch.",
        None,
    ),
    (
        "A",
        "en",
        XE,
        XE_EN
        + " It is 7.5× faster than torch on 4096×32000 fp32, with a geometric mean of 7.57× over torch.",
        "3.27×",
    ),
    (
        "A",
        "en",
        XE,
        XE_EN
        + " The geometric-mean speedup over torch is 7.57×, and on 4096×32000 fp32 it is 3.27× faster than torch.",
        None,
    ),
    (
        "A",
        "es",
        XE,
        XE_ES
        + " En 4096×32000 fp32 mi kernel es 7,5 veces más rápido que torch, con una media geométrica de 7,57 veces.",
        "3.27×",
    ),
    (
        "A",
        "es",
        XE,
        XE_ES
        + " En 4096×32000 fp32 mi kernel es 3,27 veces más rápido que torch, con una media geométrica de 7,57 veces sobre torch.",
        None,
    ),
    # a figure with no case named is the course shape's, never the geometric mean's
    ("A", "en", XE, XE_EN + " It is 12.8× faster than the naive version.", "6.97×"),
    ("A", "es", XE, XE_ES + " Mi kernel es 12,8 veces más rápido que la versión ingenua.", "6.97×"),
    # a comparison with no number is checked at the case it names
    (
        "A",
        "en",
        SM,
        with_figures("en", "On the short rows of 600 columns it is faster than torch.compile too."),
        "0.96×",
    ),
    (
        "A",
        "en",
        SM,
        with_figures("en", "On the short rows of 600 columns it is faster than torch too."),
        None,
    ),
    (
        "A",
        "es",
        SM,
        with_figures(
            "es", "En las filas cortas de 600 columnas también es más rápido que torch.compile."
        ),
        "0.96×",
    ),
    # -- B. parentheses --------------------------------------------------------------------
    (
        "B",
        "es",
        SM,
        ES
        + " Mi kernel mueve 244 MB, 4,16 veces menos que la versión ingenua. Es 1,62 veces más rápido que torch (110 µs el mío).",
        "68.0 µs",
    ),
    (
        "B",
        "es",
        SM,
        ES
        + " Mi kernel mueve 244 MB, 4,16 veces menos que la versión ingenua. Es 1,62 veces más rápido que torch (68 µs el mío).",
        None,
    ),
    (
        "B",
        "en",
        SM,
        EN
        + " My kernel moves 244 MB, 4.16× less than the naive version (244 MB for the naive version), and it is 1.62× faster than torch.",
        "1.02 GB",
    ),
    (
        "B",
        "en",
        SM,
        EN
        + " My kernel moves 244 MB, 4.16× less than the naive version (1.02 GB for the naive version), and it is 1.62× faster than torch.",
        None,
    ),
    (
        "B",
        "en",
        SM,
        EN + " My kernel is 1.62× faster than torch (68 µs for mine) and moves 244 MB.",
        None,
    ),
    (
        "B",
        "en",
        SM,
        EN
        + " My kernel is 1.62× faster than torch and 5.20× faster than the naive version (353 µs), and it moves 244 MB.",
        None,
    ),
    (
        "B",
        "en",
        SM,
        EN
        + " My kernel is 1.62× faster than torch and 5.20× faster than the naive version (153 µs), and it moves 244 MB.",
        "353.0 µs",
    ),
    # read / written labels
    (
        "B",
        "en",
        SM,
        EN
        + " Nsight Compute measures 244 MB of DRAM traffic for my kernel (134 MB read and 110 MB written), 4.16× less than the naive version. It is 1.62× faster than torch.",
        None,
    ),
    (
        "B",
        "en",
        SM,
        EN
        + " Nsight Compute measures 244 MB of DRAM traffic for my kernel (134 MB read and 134 MB written), 4.16× less than the naive version. It is 1.62× faster than torch.",
        "110 MB",
    ),
    (
        "B",
        "en",
        SM,
        EN
        + " My kernel moves 244 MB: 134 MB read and 110 MB written. It is 1.62× faster than torch.",
        None,
    ),
    (
        "B",
        "en",
        SM,
        EN
        + " My kernel moves 244 MB: 110 MB read and 134 MB written. It is 1.62× faster than torch.",
        "134 MB",
    ),
    (
        "B",
        "es",
        SM,
        ES
        + " Mi kernel mueve 244 MB de tráfico DRAM (134 MB leídos y 110 MB escritos). Es 1,62 veces más rápido que torch.",
        None,
    ),
    (
        "B",
        "es",
        SM,
        ES
        + " Mi kernel mueve 244 MB de tráfico DRAM (134 MB leídos y 134 MB escritos). Es 1,62 veces más rápido que torch.",
        "110 MB",
    ),
    (
        "B",
        "ko",
        SM,
        KO
        + " 제 커널의 DRAM 트래픽은 총 244 MB(읽기 134 MB, 쓰기 110 MB)이고, torch보다 1.62배 빠릅니다.",
        None,
    ),
    (
        "B",
        "ko",
        SM,
        KO
        + " 제 커널의 DRAM 트래픽은 총 134 MB(읽기 134 MB, 쓰기 110 MB)이고, torch보다 1.62배 빠릅니다.",
        "244 MB",
    ),
    (
        "B",
        "ko",
        SM,
        KO
        + " 제 커널의 DRAM 트래픽은 총 244 MB(읽기 134 MB, 쓰기 134 MB)이고, torch보다 1.62배 빠릅니다.",
        "110 MB",
    ),
    # -- C. "takes N times as long" is a speedup -------------------------------------------
    (
        "C",
        "en",
        RMS,
        "RMSNorm is memory-bound, and fusing everything into one kernel removes the round trips of the intermediates through DRAM. I accumulate in fp32 to keep the sum of squares accurate. I left GEMM alone since cuBLAS is already at peak there. My kernel moves 110 MB of DRAM traffic, and torch takes 1.24 times as long as mine.",
        None,
    ),
    (
        "C",
        "en",
        RMS,
        "RMSNorm is memory-bound, and fusing everything into one kernel removes the round trips of the intermediates through DRAM. I accumulate in fp32 to keep the sum of squares accurate. I left GEMM alone since cuBLAS is already at peak there. My kernel moves 110 MB of DRAM traffic, and torch takes 1.04 times as long as mine.",
        "1.24×",
    ),
    (
        "C",
        "es",
        RMS,
        "RMSNorm está limitada por memoria, y fusionar todo en un kernel elimina los viajes de los intermedios por la DRAM. Acumulo en fp32 para no perder precisión. No hice una GEMM porque cuBLAS ya está al pico. Mi kernel mueve 110 MB de tráfico DRAM, y torch tarda 1,24 veces lo que tarda el mío.",
        None,
    ),
    (
        "C",
        "es",
        RMS,
        "RMSNorm está limitada por memoria, y fusionar todo en un kernel elimina los viajes de los intermedios por la DRAM. Acumulo en fp32 para no perder precisión. No hice una GEMM porque cuBLAS ya está al pico. Mi kernel mueve 110 MB de tráfico DRAM, y torch tarda 1,04 veces lo que tarda el mío.",
        "1.24×",
    ),
    (
        "C",
        "ko",
        RMS,
        "RMSNorm은 메모리 바운드이고, 모든 것을 커널 하나로 융합해서 중간 결과의 DRAM 왕복이 없어집니다. 정밀도를 위해 fp32로 누적합니다. cuBLAS가 GEMM에서는 이미 피크이므로 GEMM은 다루지 않았습니다. 제 커널의 DRAM 트래픽은 110 MB이고, torch는 제 커널보다 1.24배 더 오래 걸립니다.",
        None,
    ),
    (
        "C",
        "ko",
        RMS,
        "RMSNorm은 메모리 바운드이고, 모든 것을 커널 하나로 융합해서 중간 결과의 DRAM 왕복이 없어집니다. 정밀도를 위해 fp32로 누적합니다. cuBLAS가 GEMM에서는 이미 피크이므로 GEMM은 다루지 않았습니다. 제 커널의 DRAM 트래픽은 110 MB이고, torch는 제 커널보다 1.04배 더 오래 걸립니다.",
        "1.24×",
    ),
]

# the report's own texts, by class: each must now get the verdict its truth says
REPORT_IDS = {
    "A": ["en-b17", "es-b22", "ko-b16", "en-b18", "es-b21", "ko-b17", "en-b15", "en-b26", "en-t14"],
    "B": ["en-b19", "es-b20", "ko-b15", "es-b17", "en-b24"],
    "C": ["en-b21"],
}


@pytest.mark.parametrize(
    "case",
    CASES,
    ids=[f"{c[0]}-{c[1]}-{'true' if c[4] is None else 'false'}-{i}" for i, c in enumerate(CASES)],
)
def test_pass2_variants(case: tuple[str, str, str, str, str | None]) -> None:
    _, _, name, text, refusal = case
    c = check(text, name)
    if refusal is None:
        assert c.backed, (c.messages, c.numbers)
    else:
        assert not c.backed
        assert any(refusal in m for m in c.messages), c.messages


@pytest.mark.parametrize("case_id", [i for ids in REPORT_IDS.values() for i in ids])
def test_pass2_report_texts(case_id: str) -> None:
    x = report_case(case_id)
    c = check(str(x["text"]), str(x["grading"]))
    assert c.backed is (x["truth"] == "true"), c.messages
