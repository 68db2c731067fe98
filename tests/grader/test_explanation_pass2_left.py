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
   the student's own verbs are cues ("muevo 4,16 veces menos", "tardo"), as "mueve", "tarda";
L. a list's items each speak of what its lead-in spoke of ("What I measured for my kernel:"),
   never of the item before's names; a name in a parenthesis is an aside, never a subject
   ("- a single kernel launch (the naive version needs 5)", "it moves 110 MB (the naive version:
   1.24 GB, torch: 114 MB) and takes 36.9 µs, 1.24× faster than torch"); a numbered list
   after a blank line is a list from its first item ("1." is its marker, not a sentence);
   "(~0.25 GB vs ~1 GB)" after "than the naive version" with the subject left implicit is (yours, the naive version's);
F. a comparison's object written first ("Frente a torch es 1,62 veces más rápido …", "torch
   대비 1.65배") is the number's when the object after it belongs to a later ratio ("… y 5,20
   veces más rápido que la versión ingenua"); a sentence whose ratios are yours speaks of
   yours, not of the baseline whose figure it quotes ("(353 µs)"), for the next sentence;
   nothing is compared with itself: a subject-less ratio against torch after a sentence about
   cuBLAS is yours, not torch's against torch;
U. a number written with a unit the reader does not know ("244 MBytes", "68 µsec", "3.5 TB/sec",
   "0.5 seconds", "244메가") is never dropped silently: it is "not read", named, so a false
   figure cannot hide in an unknown spelling, and the student is told to write MB, µs, …;
K. a colon after a compared-with name gives it no figure: "11 times less DRAM traffic than the
   naive version: 110 MB" is the subject's 110 MB ("torch: 110 µs", a label, is still torch's);
R. a bare ratio opening a parenthesis right after a pair of figures of one kind with two owners
   ("68 µs vs 110 µs for torch (1.62×)") is the ratio of that pair: yours against torch, of
   the pair's kind even when a time follows ("110 MB frente a 1,24 GB de la versión ingenua
   (11,21 veces menos) y tarda …" is a traffic ratio against the naive version);
   Korean "나이브 버전의 1.24 GB보다" compares with the naive version through its figure: the
   name is compared with, not the subject of "110 MB로";
Q. a percentage in a parenthesis takes its quantity from the parenthesis's own words first
   ("limitado por memoria (81 % del pico de throughput DRAM)" is % of peak).
Classes H, S, C, M: test_explanation_pass2_left_more.py.

Each case: (class, language, grading, text, what a refusal must name; None: backed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.grader.test_explanation_pass2 import (
    BASE,
    RMS,
    SM,
    check,
    report_case,
    with_figures,
)

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
    ("P", "en", SM, paren("en", "1.02 GB over two kernels"), "measured: 5 (kernels launched"),
    ("P", "en", SM, paren("en", "3.5 GB over five kernels"), "1.02 GB"),
    ("P", "es", SM, paren("es", "1,02 GB en cinco kernels"), None),
    ("P", "es", SM, paren("es", "1,02 GB en dos kernels"), "measured: 5 (kernels launched"),
    ("P", "ko", SM, paren("ko", "커널 5개, 1.02 GB"), None),
    ("P", "ko", SM, paren("ko", "커널 5개, 3.5 GB"), "1.02 GB"),
    ("P", "ko", SM, paren("ko", "커널 2개, 1.02 GB"), "measured: 5 (kernels launched"),
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

LIST = {
    "en": "What I measured for my fused kernel:\n\n- about {t}x less DRAM traffic than the naive PyTorch chain (~0.25 GB vs ~1 GB)\n- roughly 1.6x faster than torch.softmax\n- {k} (the naive version needs 5)\n- ~80 % of peak DRAM throughput\n\n",
    "es": "Lo que medí para mi kernel fusionado:\n\n- unas {t} veces menos tráfico DRAM que la cadena ingenua de PyTorch (~0,25 GB frente a ~1 GB)\n- aproximadamente 1,6 veces más rápido que torch.softmax\n- {k} (la versión ingenua necesita 5)\n- alrededor del 80 % del pico de throughput DRAM\n\n",
    "ko": "제 융합 커널의 측정값:\n\n- 나이브 PyTorch보다 DRAM 트래픽이 약 {t}배 적음 (약 0.25 GB 대 약 1 GB)\n- torch.softmax보다 약 1.6배 빠름\n- {k} (나이브 버전은 5개)\n- DRAM 처리량 피크의 약 80 %\n\n",
}
ONE = {"en": "a single kernel launch", "es": "un solo kernel", "ko": "커널 하나만 실행"}
FIVE = {"en": "five kernel launches", "es": "cinco kernels", "ko": "커널 다섯 개 실행"}


def listed(lang: str, t: str = "4", k: str = "") -> str:
    return LIST[lang].format(t=t, k=k or ONE[lang]) + BASE[lang]


CASES += [
    # -- L. a list's items speak of the lead-in's subject; a parenthesis is an aside --------
    ("L", "en", SM, listed("en"), None),
    ("L", "en", SM, listed("en", t="12"), "4.16×"),
    ("L", "en", SM, listed("en", k=FIVE["en"]), "measured: 1 (kernels launched"),
    (
        "L",
        "en",
        SM,
        "My kernel, on the course shape:\n\n1. moves 244 MB of DRAM traffic, 4.16× less than the naive version\n2. is 1.62× faster than torch (68 µs vs 110 µs)\n3. runs as one kernel (torch.softmax also needs 1)\n\n"
        + BASE["en"],
        None,
    ),
    (
        "L",
        "en",
        SM,
        "My kernel, on the course shape:\n\n1. moves 244 MB of DRAM traffic, 4.16× less than the naive version\n2. is 1.62× faster than torch (68 µs vs 110 µs)\n3. reaches 62 % of peak DRAM throughput\n\n"
        + BASE["en"],
        "81 %",
    ),
    ("L", "es", SM, listed("es"), None),
    ("L", "es", SM, listed("es", t="12"), "4.16×"),
    ("L", "es", SM, listed("es", k=FIVE["es"]), "measured: 1 (kernels launched"),
    ("L", "ko", SM, listed("ko"), None),
    ("L", "ko", SM, listed("ko", t="12"), "4.16×"),
    ("L", "ko", SM, listed("ko", k=FIVE["ko"]), "measured: 1 (kernels launched"),
]

FRONT = {
    "es": "Frente a torch es {a} veces más rápido en la forma del curso (8192×4096 fp32) y {b} veces más rápido que la versión ingenua (353 µs). La media geométrica sobre todas las formas es de {g} veces frente a torch.",
    "en": "Compared with torch it is {a}× faster on the course shape (8192×4096 fp32) and {b}× faster than the naive version (353 µs). The geometric mean over all shapes is {g}× over torch.",
    "ko": "강의 shape(8192×4096 fp32)에서 torch 대비 {a}배, 나이브 버전(353 µs)보다 {b}배 빠릅니다. 모든 벤치마크 shape에 대한 기하 평균은 torch 대비 {g}배입니다.",
}


def front(lang: str, a: str = "1,62", b: str = "5,20", g: str = "1,65") -> str:
    if lang != "es":
        a, b, g = (x.replace(",", ".") for x in (a, b, g))
    return with_figures(lang, FRONT[lang].format(a=a, b=b, g=g))


CASES += [
    # -- F. a front-placed comparison object; a sentence of your ratios speaks of yours ------
    ("F", "es", SM, front("es"), None),
    ("F", "es", SM, front("es", a="5,20", b="1,62"), "1.62×"),
    ("F", "es", SM, front("es", g="2,5"), "1.65×"),
    ("F", "en", SM, front("en"), None),
    ("F", "en", SM, front("en", a="5,20", b="1,62"), "1.62×"),
    ("F", "ko", SM, front("ko"), None),
    ("F", "ko", SM, front("ko", g="2,5"), "1.65×"),
    # right after a sentence about cuBLAS: nothing is compared with itself, the ratio is yours
    (
        "F",
        "es",
        SM,
        f"{BASE['es']} Frente a torch es 1,62 veces más rápido en la forma del curso. Mi kernel mueve 244 MB, 4,16 veces menos que la versión ingenua.",
        None,
    ),
    (
        "F",
        "es",
        SM,
        f"{BASE['es']} Frente a torch es 5,20 veces más rápido en la forma del curso. Mi kernel mueve 244 MB, 4,16 veces menos que la versión ingenua.",
        "measured: 1.62×",
    ),
    (
        "F",
        "en",
        SM,
        f"{BASE['en']} Compared with torch, 1.62× faster on the course shape. My kernel moves 244 MB, 4.16× less than the naive version.",
        None,
    ),
]

CASES += [
    # -- U. an unknown unit is "not read", never dropped -------------------------------------
    ("U", "en", SM, with_figures("en", "The naive version moves 9 GBytes."), "9 GBytes"),
    ("U", "en", SM, with_figures("en", "The naive version moves 1.02 GBytes."), "not read"),
    ("U", "en", SM, with_figures("en", "My kernel takes 20 µsec on the course shape."), "20 µsec"),
    ("U", "en", SM, with_figures("en", "My kernel sustains 9.5 TB/sec."), "9.5 TB/sec"),
    ("U", "en", SM, with_figures("en", "My kernel takes 0.5 seconds."), "0.5 seconds"),
    ("U", "es", SM, with_figures("es", "La versión ingenua mueve 9 GBytes."), "9 GBytes"),
    ("U", "es", SM, with_figures("es", "Mi kernel tarda 20 µseg."), "20 µseg"),
    ("U", "ko", SM, with_figures("ko", "나이브 버전은 9기가를 옮깁니다."), "9기가"),
    ("U", "en", SM, with_figures("en", "My kernel reaches 3 TFLOP/sec."), "3 TFLOP/sec"),
    # a count, a dtype width or a dimension is no unit: still read as before, backed
    ("U", "en", SM, with_figures("en", "Softmax does about 5 flops per element."), None),
    (
        "U",
        "en",
        SM,
        with_figures(
            "en", "Each row holds 4096 values of 32 bits, read in 2 passes by the naive version."
        ),
        None,
    ),
]

RMS_FIG_EN = "It runs at 73% of peak DRAM throughput, taking 31.3 us of kernel time, and it is 1.24x faster than torch."
CASES += [
    # -- K. no figure for the compared-with after a colon ------------------------------------
    (
        "K",
        "en",
        RMS,
        f"{RMS_EN} So it moves 11 times less DRAM traffic than the naive version: 110 MB. {RMS_FIG_EN}",
        None,
    ),
    (
        "K",
        "en",
        RMS,
        f"{RMS_EN} So it moves 11 times less DRAM traffic than the naive version: 1.24 GB. {RMS_FIG_EN}",
        "110 MB",
    ),
    (
        "K",
        "es",
        RMS,
        f"{RMS_ES} Así que mi kernel mueve 11 veces menos tráfico DRAM que la versión ingenua: 110 MB. Mi kernel tarda 36,9 µs, 1,24 veces más rápido que torch.",
        None,
    ),
    (
        "K",
        "es",
        RMS,
        f"{RMS_ES} Así que mi kernel mueve 11 veces menos tráfico DRAM que la versión ingenua: 1,24 GB. Mi kernel tarda 36,9 µs, 1,24 veces más rápido que torch.",
        "110 MB",
    ),
    ("K", "en", SM, with_figures("en", "Measured per implementation: torch: 110 µs."), None),
    ("K", "en", SM, with_figures("en", "Measured per implementation: torch: 68 µs."), "110"),
    # -- R. a bare ratio in a parenthesis after a pair of figures ---------------------------
    (
        "R",
        "en",
        SM,
        f"{BASE['en']} My kernel fuses max, exp, sum and divide into one pass: 244 MB of DRAM traffic vs 1.02 GB for the naive version, and 68 µs vs 110 µs for torch (1.62×).",
        None,
    ),
    (
        "R",
        "en",
        SM,
        f"{BASE['en']} My kernel fuses max, exp, sum and divide into one pass: 244 MB of DRAM traffic vs 1.02 GB for the naive version, and 68 µs vs 110 µs for torch (2.5×).",
        "1.62×",
    ),
    (
        "R",
        "es",
        SM,
        f"{BASE['es']} Mi kernel fusiona todo en una pasada: 244 MB de tráfico DRAM frente a 1,02 GB de la versión ingenua (4,16 veces), y 68 µs frente a 110 µs de torch (1,62 veces).",
        None,
    ),
    (
        "R",
        "es",
        SM,
        f"{BASE['es']} Mi kernel fusiona todo en una pasada: 244 MB de tráfico DRAM frente a 1,02 GB de la versión ingenua (9 veces), y 68 µs frente a 110 µs de torch (1,62 veces).",
        "4.16×",
    ),
    # -- Q. a percentage in a parenthesis: its own words first --------------------------------
    (
        "Q",
        "es",
        SM,
        with_figures(
            "es",
            "Mi kernel está limitado por memoria (81 % del pico de throughput DRAM según Nsight Compute).",
        ),
        None,
    ),
    (
        "Q",
        "es",
        SM,
        with_figures(
            "es",
            "Mi kernel está limitado por memoria (50 % del pico de throughput DRAM según Nsight Compute).",
        ),
        "81 %",
    ),
    (
        "Q",
        "en",
        SM,
        with_figures(
            "en",
            "My kernel is limited by memory (81 % of peak DRAM throughput per Nsight Compute).",
        ),
        None,
    ),
    (
        "Q",
        "en",
        SM,
        with_figures(
            "en",
            "My kernel is limited by memory (50 % of peak DRAM throughput per Nsight Compute).",
        ),
        "81 %",
    ),
]

# the report's own texts, by class: each must now get the verdict its truth says
REPORT = (
    Path(__file__).resolve().parents[2]
    / "benchmarks/results/2026-12-03-cpu-explanation-fresh-pass-2.json"
)
REPORT_IDS = {
    "P": ["en-t07", "es-t07", "ko-t07"],
    "T": ["es-t13", "es-t12", "ko-t12"],
    "L": ["en-t03", "es-t03", "ko-t03", "ko-b22"],
    "F": ["es-t02", "ko-t02"],
    "K": ["en-t13"],
    "R": ["en-t01"],
    "Q": ["es-t04"],
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
