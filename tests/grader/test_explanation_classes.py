# ruff: noqa: E501  (the cases are sentences, one a line)
"""Issue 30's classes of explanation, true and false, in English, Spanish and Korean, checked
against a recorded H200 grading (tests/grader/recorded.py: the pruned lab file of c3a-softmax).

Each case is a sentence added to an honest base explanation in its language (or, marked
FULL, a whole explanation). A true one must be backed (level 3's explanation part); a false
one refused with a reason that names the measured value."""

from __future__ import annotations

import pytest

from grader import checkpoints
from grader.judge import explanation
from tests.grader.recorded import grading

RUBRIC = checkpoints.get("c3a-softmax").definition.rubric

BASE = {
    "en": (
        "Softmax is memory-bound, so only the bytes moved matter. My fused kernel reads each "
        "row once and writes it once: it moves 244 MB of DRAM traffic, 4.16× less than the "
        "naive version. It is 1.62× faster than torch.softmax. I chose a memory-bound op "
        "rather than a GEMM because cuBLAS already wins dense GEMM on SM_120."
    ),
    "es": (
        "Softmax está limitado por la memoria, así que solo cuentan los bytes movidos. Mi "
        "kernel fusionado lee cada fila una vez y la escribe una vez: mueve 0,244 GB de "
        "tráfico DRAM, 4,16 veces menos que la versión ingenua. Es 1,62 veces más rápido que "
        "torch.softmax. Elegí una operación limitada por memoria en lugar de una GEMM porque "
        "cuBLAS ya gana la GEMM densa en SM_120."
    ),
    "ko": (
        "소프트맥스는 메모리 바운드 연산이므로 옮기는 바이트 수가 전부입니다. 제 융합 커널은 각 "
        "행을 한 번 읽고 한 번 씁니다: DRAM 트래픽은 244 MB로 나이브 버전보다 4.16배 적습니다. "
        "제 커널은 torch.softmax보다 1.62배 빠릅니다. cuBLAS가 SM_120에서 밀집 GEMM을 이미 "
        "이기기 때문에 GEMM 대신 메모리 바운드 연산을 골랐습니다."
    ),
}

# (class, language, text, measured value the refusal must name; None: true, accepted)
CASES: list[tuple[str, str, str, str | None]] = [
    # -- the course's languages: implementation names, possessives ---------------------------
    ("languages", "en", "The naïve version launches 5 kernels and moves 1.02 GB.", None),
    ("languages", "en", "The naive PyTorch code takes 353 µs.", None),
    ("languages", "en", "Torch's softmax takes 110 µs while mine takes 68 µs.", None),
    ("languages", "en", "The naïve version moves 244 MB.", "1.02 GB"),
    ("languages", "en", "Torch's softmax takes 68 µs.", "110.1 µs"),
    ("languages", "en", "My own kernel takes 110 µs.", "68.0 µs"),
    ("languages", "es", "La versión ingenua lanza 5 kernels y mueve 1,02 GB.", None),
    ("languages", "es", "Mi kernel tarda 68 µs frente a 110 µs de torch.", None),
    ("languages", "es", "El kernel de PyTorch tarda 110 µs.", None),
    ("languages", "es", "La versión ingenua mueve 244 MB.", "1.02 GB"),
    ("languages", "es", "Mi kernel tarda 110 µs.", "68.0 µs"),
    ("languages", "es", "El kernel de PyTorch tarda 68 µs.", "110.1 µs"),
    ("languages", "ko", "나이브 버전은 커널 5개를 실행하고 1.02 GB를 옮깁니다.", None),
    ("languages", "ko", "제 커널은 68 µs 걸립니다.", None),
    ("languages", "ko", "파이토치 커널은 110 µs 걸립니다.", None),
    ("languages", "ko", "나이브 버전은 244 MB를 옮깁니다.", "1.02 GB"),
    ("languages", "ko", "제 커널은 110 µs 걸립니다.", "68.0 µs"),
    ("languages", "ko", "파이토치 커널은 68 µs 걸립니다.", "110.1 µs"),
    # -- number formats: decimal comma/point, thousands separators, scientific ---------------
    ("formats", "en", "My kernel reads 0.134 GB and writes 0.110 GB.", None),
    ("formats", "en", "My kernel sustains 3,876 GB/s in Nsight.", None),
    ("formats", "en", "My kernel moves 2.44e8 bytes.", None),
    ("formats", "en", "My kernel moves 1.02e9 bytes.", "244 MB"),
    ("formats", "en", "My kernel sustains 2,332 GB/s in Nsight.", "3876 GB/s"),
    ("formats", "en", "My kernel reads 0.671 GB.", "134 MB"),
    ("formats", "es", "Mi kernel lee 0,134 GB y escribe 0,110 GB.", None),
    ("formats", "es", "Mi kernel alcanza 3.876 GB/s en Nsight.", None),
    ("formats", "es", "Mi kernel mueve 2,44·10^8 bytes.", None),
    ("formats", "es", "Mi kernel mueve 1,02·10^9 bytes.", "244 MB"),
    ("formats", "es", "Mi kernel alcanza 2.332 GB/s en Nsight.", "3876 GB/s"),
    ("formats", "es", "Mi kernel lee 0,671 GB.", "134 MB"),
    ("formats", "ko", "제 커널은 0.134 GB를 읽고 0.110 GB를 씁니다.", None),
    ("formats", "ko", "제 커널의 대역폭은 3,876 GB/s입니다.", None),
    ("formats", "ko", "제 커널은 2.44e8 바이트를 옮깁니다.", None),
    ("formats", "ko", "제 커널은 1.02e9 바이트를 옮깁니다.", "244 MB"),
    ("formats", "ko", "제 커널의 대역폭은 2,332 GB/s입니다.", "3876 GB/s"),
    ("formats", "ko", "제 커널은 0.671 GB를 읽습니다.", "134 MB"),
    # -- everyday phrasing: a number after the compared-with is the subject's; "it" ----------
    ("attribution", "en", "My kernel is 1.62× faster than torch.softmax, at 81 % of peak.", None),
    (
        "attribution",
        "en",
        "Compared with the naive version, my kernel is one kernel and it moves 244 MB.",
        None,
    ),
    ("attribution", "en", "Against the naive version's 1.02 GB, mine moves 244 MB.", None),
    ("attribution", "en", "My kernel is 1.62× faster than torch.softmax, at 48 % of peak.", "81 %"),
    (
        "attribution",
        "en",
        "Compared with the naive version, my kernel is fused and it moves 1.02 GB.",
        "244 MB",
    ),
    ("attribution", "en", "Against the naive version's 244 MB, mine moves 1.02 GB.", "1.02 GB"),
    (
        "attribution",
        "es",
        "Mi kernel es 1,62 veces más rápido que torch, con un 81 % del pico.",
        None,
    ),
    (
        "attribution",
        "es",
        "Comparado con la versión ingenua, mi kernel usa un solo kernel y mueve 244 MB.",
        None,
    ),
    ("attribution", "es", "Frente a los 1,02 GB de la versión ingenua, el mío mueve 244 MB.", None),
    (
        "attribution",
        "es",
        "Mi kernel es 1,62 veces más rápido que torch, con un 48 % del pico.",
        "81 %",
    ),
    ("attribution", "es", "Comparado con la versión ingenua, mi kernel mueve 1,02 GB.", "244 MB"),
    (
        "attribution",
        "es",
        "Frente a los 244 MB de la versión ingenua, el mío mueve 1,02 GB.",
        "1.02 GB",
    ),
    ("attribution", "ko", "제 커널은 torch보다 1.62배 빠르고 피크의 81 %에 도달합니다.", None),
    ("attribution", "ko", "나이브 버전에 비해 제 커널은 244 MB만 옮깁니다.", None),
    ("attribution", "ko", "나이브 버전의 1.02 GB에 비해 제 커널은 244 MB를 옮깁니다.", None),
    ("attribution", "ko", "제 커널은 torch보다 1.62배 빠르고 피크의 48 %에 도달합니다.", "81 %"),
    ("attribution", "ko", "나이브 버전에 비해 제 커널은 1.02 GB를 옮깁니다.", "244 MB"),
    ("attribution", "ko", "나이브 버전의 244 MB에 비해 제 커널은 1.02 GB를 옮깁니다.", "1.02 GB"),
    # -- Nsight's own names -----------------------------------------------------------------
    ("nsight", "en", "For my kernel, dram__bytes_read.sum is 134 MB.", None),
    ("nsight", "en", "For my kernel, dram__bytes_write.sum is 110 MB.", None),
    ("nsight", "en", "For my kernel, gpu__time_duration.sum is 63 µs.", None),
    ("nsight", "en", "For my kernel, dram__bytes_read.sum is 244 MB.", "134 MB"),
    ("nsight", "en", "For my kernel, dram__bytes_write.sum is 134 MB.", "110 MB"),
    (
        "nsight",
        "en",
        "For my kernel, sm__warps_active.avg.pct_of_peak_sustained_active is 50 %.",
        "92 %",
    ),
    ("nsight", "es", "En mi kernel, dram__bytes_read.sum vale 134 MB.", None),
    ("nsight", "es", "En mi kernel, dram__bytes_write.sum vale 110 MB.", None),
    ("nsight", "es", "En mi kernel, lts__t_sector_hit_rate.pct vale 50 %.", None),
    ("nsight", "es", "En mi kernel, dram__bytes_read.sum vale 244 MB.", "134 MB"),
    ("nsight", "es", "En mi kernel, dram__bytes_write.sum vale 134 MB.", "110 MB"),
    ("nsight", "es", "En mi kernel, lts__t_sector_hit_rate.pct vale 92 %.", "50 %"),
    ("nsight", "ko", "제 커널의 dram__bytes_read.sum은 134 MB입니다.", None),
    ("nsight", "ko", "제 커널의 dram__bytes_write.sum은 110 MB입니다.", None),
    ("nsight", "ko", "제 커널의 gpu__time_duration.sum은 63 µs입니다.", None),
    ("nsight", "ko", "제 커널의 dram__bytes_read.sum은 244 MB입니다.", "134 MB"),
    ("nsight", "ko", "제 커널의 dram__bytes_write.sum은 134 MB입니다.", "110 MB"),
    ("nsight", "ko", "제 커널의 gpu__time_duration.sum은 340 µs입니다.", "63.0 µs"),
    # -- numbers in words, ratio words ------------------------------------------------------
    ("words", "en", "It launches one kernel where the naive version launches five kernels.", None),
    ("words", "en", "My kernel is about five times faster than the naive version.", None),
    ("words", "en", "My kernel moves about two hundred and forty megabytes.", None),
    ("words", "en", "My kernel is three times faster than torch.", "1.62×"),
    ("words", "en", "My kernel moves five hundred megabytes.", "244 MB"),
    ("words", "en", "My kernel launches two kernels.", "1"),
    ("words", "es", "Mi kernel lanza un solo kernel y la versión ingenua cinco kernels.", None),
    ("words", "es", "Mi kernel es unas cinco veces más rápido que la versión ingenua.", None),
    ("words", "es", "La versión ingenua lanza cinco kernels.", None),
    ("words", "es", "Mi kernel es tres veces más rápido que torch.", "1.62×"),
    ("words", "es", "Mi kernel mueve quinientos megabytes.", "244 MB"),
    ("words", "es", "Mi kernel lanza dos kernels.", "1"),
    ("words", "ko", "제 커널은 단일 커널이고 나이브 버전은 다섯 개의 커널을 실행합니다.", None),
    ("words", "ko", "제 커널은 나이브 버전보다 약 다섯 배 빠릅니다.", None),
    ("words", "ko", "나이브 버전은 커널 다섯 개를 실행합니다.", None),
    ("words", "ko", "제 커널은 torch보다 세 배 빠릅니다.", "1.62×"),
    ("words", "ko", "제 커널은 torch보다 3배 빠릅니다.", "1.62×"),
    ("words", "ko", "제 커널은 두 개의 커널을 실행합니다.", "1"),
    # -- bounds and ranges ------------------------------------------------------------------
    ("bounds", "en", "My kernel is at least 1.5× faster than torch.", None),
    ("bounds", "en", "My kernel moves between 200 and 250 MB.", None),
    ("bounds", "en", "My kernel takes no more than 70 µs.", None),
    ("bounds", "en", "My kernel is no less than 3× faster than torch.", "1.62×"),
    ("bounds", "en", "My kernel moves 100-200 MB.", "244 MB"),
    ("bounds", "en", "My kernel takes at most 40 µs.", "68.0 µs"),
    ("bounds", "es", "Mi kernel es al menos 1,5 veces más rápido que torch.", None),
    ("bounds", "es", "Mi kernel mueve entre 200 y 250 MB.", None),
    ("bounds", "es", "Mi kernel tarda como máximo 70 µs.", None),
    ("bounds", "es", "Mi kernel es más de 3 veces más rápido que torch.", "1.62×"),
    ("bounds", "es", "Mi kernel mueve entre 100 y 200 MB.", "244 MB"),
    ("bounds", "es", "Mi kernel tarda menos de 40 µs.", "68.0 µs"),
    ("bounds", "ko", "제 커널은 torch보다 1.5배 이상 빠릅니다.", None),
    ("bounds", "ko", "제 커널은 200~250 MB를 옮깁니다.", None),
    ("bounds", "ko", "제 커널은 70 µs 이하가 걸립니다.", None),
    ("bounds", "ko", "제 커널은 torch보다 3배 이상 빠릅니다.", "1.62×"),
    ("bounds", "ko", "제 커널은 100~200 MB를 옮깁니다.", "244 MB"),
    ("bounds", "ko", "제 커널은 40 µs 이하가 걸립니다.", "68.0 µs"),
    # -- loose matching: a percentage's kind, kernel counts, claims without a number --------
    ("loose", "en", "My kernel's L2 hit rate is 50 %.", None),
    ("loose", "en", "My kernel moves fewer bytes than the naive version.", None),
    ("loose", "en", "PyTorch is slower than my kernel.", None),
    ("loose", "en", "Cache reuse in my kernel is 92 %.", "92 %"),
    ("loose", "en", "My kernel also launches 5 kernels.", "1"),
    ("loose", "en", "PyTorch is faster than my kernel.", "1.62×"),
    ("loose", "es", "La tasa de aciertos en L2 de mi kernel es del 50 %.", None),
    ("loose", "es", "Mi kernel mueve menos tráfico que la versión ingenua.", None),
    ("loose", "es", "PyTorch es más lento que mi kernel.", None),
    ("loose", "es", "La reutilización de caché de mi kernel es del 92 %.", "92 %"),
    ("loose", "es", "Mi kernel también lanza 5 kernels.", "1"),
    ("loose", "es", "PyTorch es más rápido que mi kernel.", "1.62×"),
    ("loose", "ko", "제 커널의 L2 적중률은 50 %입니다.", None),
    ("loose", "ko", "제 커널은 나이브 버전보다 트래픽이 적습니다.", None),
    ("loose", "ko", "파이토치는 제 커널보다 느립니다.", None),
    ("loose", "ko", "제 커널의 캐시 재사용은 92 %입니다.", "92 %"),
    ("loose", "ko", "제 커널도 커널 5개를 실행합니다.", "1"),
    ("loose", "ko", "파이토치는 제 커널보다 빠릅니다.", "1.62×"),
]

# whole explanations: the baseline's figures only (one fixed text for every submission), and
# points met by keywords, hidden text or negations; their true twins
FULL: list[tuple[str, str, str, str | None]] = [
    (
        "baseline",
        "en",
        "Softmax is memory-bound, so fusion matters. The naive version launches 5 kernels and moves 1.02 GB; torch.softmax takes 110 µs and moves 248 MB. Dense GEMM is cuBLAS's job on SM_120, so I chose softmax instead.",
        "244 MB",
    ),
    (
        "baseline",
        "en",
        "The fused approach is memory-bound. The naive version takes 353 µs and torch takes 110 µs, a 3.2× gap. I avoided GEMM because cuBLAS wins it on SM_120.",
        "244 MB",
    ),
    (
        "baseline",
        "en",
        "Because softmax is memory-bound, one fused pass wins. PyTorch reaches 48 % of peak and the naive version 62 %. GEMM is left to cuBLAS on SM_120.",
        "244 MB",
    ),
    (
        "baseline",
        "es",
        "Softmax está limitado por la memoria, así que la fusión importa. La versión ingenua lanza 5 kernels y mueve 1,02 GB; torch tarda 110 µs. Dejé la GEMM a cuBLAS en SM_120 porque la gana.",
        "244 MB",
    ),
    (
        "baseline",
        "es",
        "La fusión importa porque softmax está limitado por la memoria. La versión ingenua tarda 353 µs y torch 110 µs. Elegí softmax en lugar de una GEMM porque cuBLAS la gana en SM_120.",
        "244 MB",
    ),
    (
        "baseline",
        "es",
        "Un kernel fusionado gana porque la operación está limitada por la memoria. PyTorch alcanza un 48 % del pico. La GEMM densa es terreno de cuBLAS en SM_120, por eso no la elegí.",
        "244 MB",
    ),
    (
        "baseline",
        "ko",
        "소프트맥스는 메모리 바운드라서 융합이 중요합니다. 나이브 버전은 커널 5개를 실행하고 1.02 GB를 옮기며 torch는 110 µs가 걸립니다. cuBLAS가 SM_120에서 GEMM을 이기기 때문에 소프트맥스를 골랐습니다.",
        "244 MB",
    ),
    (
        "baseline",
        "ko",
        "융합이 중요한 이유는 메모리 바운드 연산이기 때문입니다. 나이브 버전은 353 µs, torch는 110 µs가 걸립니다. cuBLAS가 SM_120에서 GEMM을 이기므로 GEMM 대신 소프트맥스를 골랐습니다.",
        "244 MB",
    ),
    (
        "baseline",
        "ko",
        "한 번의 패스로 융합하면 메모리 바운드 연산에서 이깁니다. 파이토치는 피크의 48 %에 도달합니다. cuBLAS가 SM_120에서 GEMM을 이기기 때문에 GEMM은 고르지 않았습니다.",
        "244 MB",
    ),
]

# points: the base's point sentences replaced (class "points": vocabulary and shapes in
# words meet a point; keywords alone, hidden, listed or negated do not)
POINTS: list[tuple[str, str, str, str, str | None]] = [
    # (class, language, sentence of the base to replace, its replacement, refusal must name)
    (
        "points",
        "en",
        "I chose a memory-bound op rather than a GEMM because cuBLAS already wins dense GEMM on SM_120.",
        "I left matrix multiplication alone: on an SM 120 card without tensor memory the BLAS library wins it.",
        None,
    ),
    (
        "points",
        "en",
        "I chose a memory-bound op rather than a GEMM because cuBLAS already wins dense GEMM on SM_120.",
        "A matmul is cuBLAS's home ground, so I picked a bandwidth-bound op where fusion pays.",
        None,
    ),
    (
        "points",
        "en",
        "I chose a memory-bound op rather than a GEMM because cuBLAS already wins dense GEMM on SM_120.",
        "On the short rows of 600 columns my kernel is 1.18× faster than torch; a GEMM would lose to cuBLAS anyway.",
        None,
    ),
    (
        "points",
        "en",
        "I chose a memory-bound op rather than a GEMM because cuBLAS already wins dense GEMM on SM_120.",
        "<!-- GEMM cuBLAS TMEM SM_120 -->",
        "does not address 'why not gemm'",
    ),
    (
        "points",
        "en",
        "I chose a memory-bound op rather than a GEMM because cuBLAS already wins dense GEMM on SM_120.",
        "GEMM. cuBLAS. TMEM. SM_120.",
        "does not address 'why not gemm'",
    ),
    (
        "points",
        "en",
        "Softmax is memory-bound, so only the bytes moved matter.",
        "I did not look at the arithmetic intensity.",
        "94 %",
    ),
    (
        "points",
        "es",
        "Elegí una operación limitada por memoria en lugar de una GEMM porque cuBLAS ya gana la GEMM densa en SM_120.",
        "Dejé la multiplicación de matrices a la biblioteca BLAS: en una tarjeta SM 120 sin memoria de tensores gana cuBLAS.",
        None,
    ),
    (
        "points",
        "es",
        "Elegí una operación limitada por memoria en lugar de una GEMM porque cuBLAS ya gana la GEMM densa en SM_120.",
        "Un producto de matrices es terreno de cuBLAS, así que elegí una operación limitada por el ancho de banda.",
        None,
    ),
    (
        "points",
        "es",
        "Elegí una operación limitada por memoria en lugar de una GEMM porque cuBLAS ya gana la GEMM densa en SM_120.",
        "En las filas cortas de 600 columnas mi kernel es 1,18 veces más rápido que torch; una GEMM perdería contra cuBLAS.",
        None,
    ),
    (
        "points",
        "es",
        "Elegí una operación limitada por memoria en lugar de una GEMM porque cuBLAS ya gana la GEMM densa en SM_120.",
        '<span style="display:none">GEMM cuBLAS TMEM SM_120 porque gana</span>',
        "does not address 'why not gemm'",
    ),
    (
        "points",
        "es",
        "Elegí una operación limitada por memoria en lugar de una GEMM porque cuBLAS ya gana la GEMM densa en SM_120.",
        "GEMM, cuBLAS, TMEM, SM_120.",
        "does not address 'why not gemm'",
    ),
    (
        "points",
        "es",
        "Softmax está limitado por la memoria, así que solo cuentan los bytes movidos.",
        "No miré la intensidad aritmética ni si está limitado por memoria.",
        "94 %",
    ),
    (
        "points",
        "ko",
        "cuBLAS가 SM_120에서 밀집 GEMM을 이미 이기기 때문에 GEMM 대신 메모리 바운드 연산을 골랐습니다.",
        "텐서 메모리가 없는 SM 120 카드에서는 BLAS 라이브러리가 행렬 곱셈을 이기므로 다른 연산을 골랐습니다.",
        None,
    ),
    (
        "points",
        "ko",
        "cuBLAS가 SM_120에서 밀집 GEMM을 이미 이기기 때문에 GEMM 대신 메모리 바운드 연산을 골랐습니다.",
        "행렬곱은 cuBLAS가 잘하는 영역이라서 대역폭에 의해 제한되는 연산을 골랐습니다.",
        None,
    ),
    (
        "points",
        "ko",
        "cuBLAS가 SM_120에서 밀집 GEMM을 이미 이기기 때문에 GEMM 대신 메모리 바운드 연산을 골랐습니다.",
        "600열의 짧은 행에서 제 커널은 torch보다 1.18배 빠르고, GEMM은 어차피 cuBLAS가 이깁니다.",
        None,
    ),
    (
        "points",
        "ko",
        "cuBLAS가 SM_120에서 밀집 GEMM을 이미 이기기 때문에 GEMM 대신 메모리 바운드 연산을 골랐습니다.",
        "<!-- GEMM cuBLAS TMEM SM_120 때문 -->",
        "does not address 'why not gemm'",
    ),
    (
        "points",
        "ko",
        "cuBLAS가 SM_120에서 밀집 GEMM을 이미 이기기 때문에 GEMM 대신 메모리 바운드 연산을 골랐습니다.",
        "GEMM. cuBLAS. TMEM. SM_120.",
        "does not address 'why not gemm'",
    ),
    (
        "points",
        "ko",
        "소프트맥스는 메모리 바운드 연산이므로 옮기는 바이트 수가 전부입니다.",
        "산술 강도는 보지 않았습니다.",
        "94 %",
    ),
]


def _check(text: str) -> explanation.ExplanationCheck:
    result = grading()
    return explanation.check(text, RUBRIC, result.citable)


def _id(case: tuple) -> str:  # type: ignore[type-arg]
    return f"{case[0]}-{case[1]}-{'true' if case[-1] is None else 'false'}"


def test_each_base_explanation_is_backed() -> None:
    for lang, text in BASE.items():
        check = _check(text)
        assert check.backed, (lang, check.messages)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_a_sentence_of_each_class(case: tuple[str, str, str, str | None]) -> None:
    _, lang, sentence, measured = case
    check = _check(BASE[lang] + " " + sentence)
    if measured is None:
        assert check.backed, check.messages
    else:
        assert not check.backed, [n for n in check.numbers if n["sentence"] == sentence]
        assert any(measured in m for m in check.messages), check.messages


@pytest.mark.parametrize("case", FULL, ids=[_id(c) for c in FULL])
def test_baseline_figures_never_earn_level_3(case: tuple[str, str, str, str | None]) -> None:
    _, _, text, measured = case
    check = _check(text)
    assert not check.backed
    assert any("cites no checked figure of your kernel's DRAM traffic" in m for m in check.messages)
    assert measured is not None and any(measured in m for m in check.messages), check.messages


@pytest.mark.parametrize(
    "case",
    POINTS,
    ids=[f"{c[0]}-{c[1]}-{'true' if c[-1] is None else 'false'}-{i}" for i, c in enumerate(POINTS)],
)
def test_points_are_met_by_sentences_not_words(case: tuple[str, str, str, str, str | None]) -> None:
    _, lang, old, new, refusal = case
    assert old in BASE[lang]
    text = BASE[lang].replace(old, new)
    if "did not" in new or "No miré" in new or "보지 않았" in new:  # the base's other mention
        text = text.replace("a memory-bound op rather", "softmax rather")
        text = text.replace("una operación limitada por memoria en lugar", "softmax en lugar")
        text = text.replace("GEMM 대신 메모리 바운드 연산을", "GEMM 대신 소프트맥스를")
    check = _check(text)
    if refusal is None:
        assert check.backed, check.messages
    else:
        assert not check.backed
        assert any(refusal in m for m in check.messages), check.messages


def test_a_flood_of_claims_or_text_is_read_in_part_and_said_so() -> None:
    """An explanation is read up to 32 KiB of text and 200 claims (a hostile one of
    thousands of numbers in one sentence must not hold a worker or the page); beyond, the
    explanation is not backed and says why."""
    flood = BASE["en"] + " " + "my kernel moves 244 MB against 1.02 GB for torch, " * 300
    check = _check(flood)
    assert not check.backed and len(check.numbers) <= 200
    assert any("at most 200 claims" in m for m in check.messages)
    long = BASE["en"] + " It is fast." * 5000
    check = _check(long)
    assert not check.backed and any("longer than 32 KiB" in m for m in check.messages)
