# ruff: noqa: E501  (the cases are explanations, one a line)
"""Issue 30's second blind pass, the true texts still refused after classes A-G
(benchmarks/results/2026-12-03-cpu-explanation-fresh-pass-2.md). Classes here:

P. a parenthesis right after a compared-with baseline holds that baseline's figures, all of
   them when they are of different quantities ("than the naive version (1.24 GB over nine
   kernels)", "나이브 버전(커널 9개, 1.24 GB)보다"); two figures of one quantity there are
   still the two sides of the comparison;
T. a bare "N× less/more than torch" takes its quantity from the nearest cue around it, the
   clause's own first ("tarda 0,0369 ms, 1,24 veces menos que torch": its time, a speedup;
   "… veces más que torch" there: slower), then the figures of its clause when all are of one
   kind ("los 1,02 GB … son 4,16 veces más que los 244 MB"); only with no cue at all is it bytes;

Each case: (class, language, grading, text, what a refusal must name; None: backed)."""

from __future__ import annotations

import pytest

from tests.grader.test_explanation_pass2 import BASE, RMS, SM, check, report_case

FIG_PAREN = {
    "en": "On the course shape my kernel moves 244 MB, 4.16× less than the naive version ({x}), and it is 1.62× faster than torch.",
    "es": "En la forma del curso mi kernel mueve 244 MB, 4,16 veces menos que la versión ingenua ({x}), y es 1,62 veces más rápido que torch.",
    "ko": "강의 shape에서 제 커널의 DRAM 트래픽은 244 MB로 나이브 버전({x})보다 4.16배 적고, torch보다 1.62배 빠릅니다.",
}


def paren(lang: str, inside: str) -> str:
    return f"{BASE[lang]} {FIG_PAREN[lang].format(x=inside)}"


CASES: list[tuple[str, str, str, str, str | None]] = [
    # -- P. a parenthesis after the compared-with baseline is the baseline's -----------------
    ("P", "en", SM, paren("en", "1.02 GB over five kernels"), None),
    ("P", "en", SM, paren("en", "five kernels, 1.02 GB"), None),
    ("P", "en", SM, paren("en", "1.02 GB over two kernels"), "5"),
    ("P", "en", SM, paren("en", "3.5 GB over five kernels"), "1.02 GB"),
    ("P", "es", SM, paren("es", "1,02 GB en cinco kernels"), None),
    ("P", "es", SM, paren("es", "1,02 GB en dos kernels"), "5"),
    ("P", "ko", SM, paren("ko", "커널 5개, 1.02 GB"), None),
    ("P", "ko", SM, paren("ko", "커널 5개, 3.5 GB"), "1.02 GB"),
    ("P", "ko", SM, paren("ko", "커널 2개, 1.02 GB"), "5"),
]

RMS_ES = "RMSNorm está limitado por memoria porque hace una sola reducción por fila. Mi kernel fusiona todo en una sola pasada y acumula en fp32 para evitar el desbordamiento, así que ningún intermedio vuelve a la DRAM. Elegí una operación limitada por memoria en lugar de una GEMM porque cuBLAS ya gana la GEMM densa."
RMS_EN = "RMSNorm is memory-bound because it does one reduction per row. My kernel fuses everything into one pass and accumulates in fp32 to avoid overflow, so no intermediate goes back to DRAM. I chose a memory-bound op rather than a GEMM because cuBLAS already wins dense GEMM."
RMS_KO = "RMSNorm은 행마다 리덕션 한 번뿐이라 메모리 바운드입니다. 제 커널은 모든 단계를 한 번의 패스로 융합하고 fp32로 누적해서 오버플로를 막기 때문에 중간 결과가 DRAM을 왕복하지 않습니다. cuBLAS가 이미 GEMM을 이기기 때문에 GEMM 대신 메모리 바운드 연산을 골랐습니다."
CASES += [
    # -- T. a bare "N× less/more" after a time is about time -----------------------------------
    (
        "T",
        "es",
        RMS,
        f"{RMS_ES} Mi kernel mueve 110 MB de tráfico DRAM, 11,21 veces menos que la versión ingenua, y tarda 36,9 µs, 1,24 veces menos que torch.",
        None,
    ),
    (
        "T",
        "es",
        RMS,
        f"{RMS_ES} Mi kernel mueve 110 MB de tráfico DRAM, 11,21 veces menos que la versión ingenua, y tarda 36,9 µs, 1,24 veces más que torch.",
        "1.24×",
    ),
    (
        "T",
        "es",
        RMS,
        f"{RMS_ES} Mi kernel mueve 110 MB de tráfico DRAM, 11,21 veces menos que la versión ingenua, y tarda 36,9 µs, 2,5 veces menos que torch.",
        "1.24×",
    ),
    (
        "T",
        "en",
        RMS,
        f"{RMS_EN} My kernel moves 110 MB of DRAM traffic, 11.21× less than the naive version, and takes 36.9 µs, 1.24× less than torch.",
        None,
    ),
    (
        "T",
        "en",
        RMS,
        f"{RMS_EN} My kernel moves 110 MB of DRAM traffic, 11.21× less than the naive version, and takes 36.9 µs, 1.24× more than torch.",
        "1.24×",
    ),
    (
        "T",
        "es",
        SM,
        f"{BASE['es']} Los 1,02 GB de la versión ingenua son 4,16 veces más que los 244 MB de mi kernel, y torch.softmax es 1,62 veces más lento que el mío.",
        None,
    ),
    (
        "T",
        "es",
        SM,
        f"{BASE['es']} Los 1,02 GB de la versión ingenua son 6 veces más que los 244 MB de mi kernel, y torch.softmax es 1,62 veces más lento que el mío.",
        "4.16×",
    ),
    (
        "T",
        "ko",
        RMS,
        f"{RMS_KO} 제 커널의 DRAM 트래픽은 110 MB로 나이브 버전보다 11.21배 적고, 시간은 36.9 µs로 torch보다 1.24배 빠릅니다.",
        None,
    ),
]

# the report's own texts, by class: each must now get the verdict its truth says
REPORT_IDS = {
    "P": ["en-t07", "es-t07", "ko-t07"],
    "T": ["es-t13", "es-t12", "ko-t12"],
}


@pytest.mark.parametrize(
    "case",
    CASES,
    ids=[f"{c[0]}-{c[1]}-{'true' if c[4] is None else 'false'}-{i}" for i, c in enumerate(CASES)],
)
def test_pass2_left_variants(case: tuple[str, str, str, str, str | None]) -> None:
    _, _, name, text, refusal = case
    c = check(text, name)
    if refusal is None:
        assert c.backed, (c.messages, c.numbers)
    else:
        assert not c.backed
        assert any(refusal in m for m in c.messages), c.messages


@pytest.mark.parametrize("case_id", [i for ids in REPORT_IDS.values() for i in ids])
def test_pass2_left_report_texts(case_id: str) -> None:
    x = report_case(case_id)
    c = check(str(x["text"]), str(x["grading"]))
    assert c.backed is (x["truth"] == "true"), c.messages
