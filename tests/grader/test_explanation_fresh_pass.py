# ruff: noqa: E501  (the cases are explanations, one a line)
"""Issue 30's fresh fair/bluff pass (benchmarks/results/2026-12-02-cpu-explanation-fresh-pass.md),
its number classes 1-6, by class (4-6: test_explanation_fresh_pass_more.py): each class's examples from the report (FULL: the whole text
as written) and variants of our own in every language where the class applies, against the
recorded H200 grading of the course's softmax lab file (tests/grader/recorded.py).

1. a pronoun after a compared-with baseline ("than X", "against X", "frente a X") binds to the
   subject implementation, never to the baseline; "the kernel", "this kernel", "este kernel",
   "이 커널" are the student's kernel;
2. a parenthesis or a "frente a" pair: the number before it is the subject's, the one inside
   the implementation's named inside; after "faster than torch", (a frente a b): a is the
   subject's, b torch's; a swapped pair is refused;
3. Korean "N배 적습니다" (N times less) and "N배 많습니다" (more) read in their direction; "N배
   느립니다" is a speedup (slower);
4. an implementation that is none of ours ("a classmate's kernel") owns its numbers: never the
   student's;
5. Nsight metric names each tied to the number that follows it;
6. scientific notation written 10<sup>8</sup>, 10^8, ×10⁸, 1e8."""

from __future__ import annotations

import pytest

from grader import checkpoints
from grader.judge import explanation
from tests.grader.recorded import grading

RUBRIC = checkpoints.get("c3a-softmax").definition.rubric

# the three points said plainly, with no figure: appended to a case that is not FULL
TAIL = {
    "en": (
        "Softmax is memory-bound because its arithmetic intensity is tiny. My kernel fuses all "
        "steps into a single pass, so no intermediate goes back to DRAM. I chose softmax over a "
        "GEMM because cuBLAS already wins dense GEMM."
    ),
    "es": (
        "El softmax está limitado por memoria porque su intensidad aritmética es muy baja. Mi "
        "kernel fusiona todos los pasos en una sola pasada, así que nada intermedio vuelve a "
        "DRAM. Elegí softmax en lugar de una GEMM porque cuBLAS ya gana la GEMM densa."
    ),
    "ko": (
        "소프트맥스는 산술 강도가 매우 낮아서 메모리 바운드입니다. 제 커널은 모든 단계를 하나의 "
        "패스로 융합하므로 각 행을 DRAM에서 한 번만 읽고 한 번만 씁니다. cuBLAS가 이미 GEMM에서 "
        "이기기 때문에 GEMM 대신 소프트맥스를 골랐습니다."
    ),
}
FULL = "FULL"

# (class, language, text, what the refusal must name; None: true, backed[, FULL])
CASES: list[tuple[str, ...] | tuple[str, str, str, None] | tuple[str, str, str, None, str]] = [
    # -- 1. a pronoun binds to the subject, never to the compared-with baseline --------------
    (
        "pronoun",
        "en",
        "Softmax has a very low arithmetic intensity (a handful of flops per element), so it is memory-bound: what matters is how many bytes cross DRAM. My Triton kernel fuses the max, the exp, the sum and the division into a single pass that loads each row once into registers and stores it once. Nsight Compute shows it moving 244 MB in total (134 MB read, 110 MB written), which is 4.16x less than the naive five-kernel version. It runs in 68 µs, 1.62x faster than torch.softmax. I picked softmax rather than a GEMM because cuBLAS already sits near the tensor-core peak for dense matrix multiply.",
        None,
        FULL,
    ),
    (
        "pronoun",
        "en",
        "My kernel is fused. It reads every row of the 8192×4096 fp32 input once and writes the result once, so it moves only 244 MB of DRAM traffic against 1.02 GB for the naive version. Its Nsight kernel time is 63 µs, versus 106 µs for torch. Since the arithmetic intensity is tiny, the kernel is memory-bound and only traffic matters. I did not pick a GEMM because cuBLAS is very hard to beat at GEMM.",
        None,
        FULL,
    ),
    (
        "pronoun",
        "en",
        "My kernel is 1.62x faster than torch. It reads every row once, so it moves only 244 MB of DRAM traffic against 1.02 GB for the naive version. Its Nsight kernel time is 340 µs.",
        "68.0 µs",
    ),
    (
        "pronoun",
        "en",
        "My kernel moves 244 MB, 4.16x less than the naive version. It takes 68 µs and it is 1.62x faster than torch.",
        None,
    ),
    ("pronoun", "en", "Mine is 1.62x faster than the torch op. Its DRAM traffic is 244 MB.", None),
    (
        "pronoun",
        "en",
        "My kernel is 1.62x faster than torch. It moves 1.02 GB of DRAM traffic.",
        "244 MB",
    ),
    (
        "pronoun",
        "en",
        "My kernel moves 244 MB against 1.02 GB for the naive version. It takes 353 µs.",
        "68.0 µs",
    ),
    (
        "pronoun",
        "en",
        "Torch.softmax launches one kernel. This kernel moves 244 MB and is 1.62x faster than torch.",
        None,
    ),
    (
        "pronoun",
        "en",
        "The naive version launches five kernels. The kernel takes 353 µs and moves 244 MB.",
        "68.0 µs",
    ),
    (
        "pronoun",
        "es",
        "Mi kernel hace todo en una sola pasada por fila. Él lee 134 MB y escribe 110 MB, en total unos 0,24 GB, frente a 1,02 GB de la versión ingenua. Él es 1,62 veces más rápido que torch en la forma del curso (8192×4096 fp32). El softmax es memory-bound porque hace pocas operaciones por byte. No hice una GEMM porque cuBLAS es casi imposible de ganar en GEMM.",
        None,
        FULL,
    ),
    (
        "pronoun",
        "es",
        "Mi kernel es 1,62 veces más rápido que torch. Él lee 134 MB, frente a 1,02 GB de la versión ingenua. Él tarda 353 µs.",
        "68.0 µs",
    ),
    (
        "pronoun",
        "es",
        "Mi kernel mueve 244 MB, 4,16 veces menos que la versión ingenua. Su tiempo es de 68 µs y es 1,62 veces más rápido que torch.",
        None,
    ),
    ("pronoun", "es", "Mi kernel es 1,62 veces más rápido que torch. Él mueve 244 MB.", None),
    (
        "pronoun",
        "es",
        "Mi kernel mueve 244 MB frente a 1,02 GB de la versión ingenua. Su tiempo es de 340 µs.",
        "68.0 µs",
    ),
    (
        "pronoun",
        "es",
        "Mi kernel es 1,62 veces más rápido que torch. Él tarda 110 µs y mueve 244 MB.",
        "68.0 µs",
    ),
    ("pronoun", "es", "Torch lanza un solo kernel. Este kernel mueve 244 MB y tarda 68 µs.", None),
    (
        "pronoun",
        "ko",
        "naive 버전은 커널 5개를 실행하고 1.02 GB를 옮기며 353 µs가 걸립니다. 이 커널은 한 번의 패스로 0.244 GB만 옮기고 68 µs에 끝나서, naive보다 약 5.2배, torch보다 약 1.6배 빠릅니다. DRAM 처리량이 피크의 81 %에 달하므로 이 커널은 메모리 바운드입니다. 행렬 곱(GEMM)은 cuBLAS가 이미 이기기 때문에 소프트맥스를 골랐습니다.",
        None,
        FULL,
    ),
    (
        "pronoun",
        "ko",
        "제 커널은 244 MB를 옮기고 torch보다 1.62배 빠릅니다. torch는 커널 1개로 248 MB를 옮깁니다. 이 커널은 110 µs가 걸립니다.",
        "68.0 µs",
    ),
    ("pronoun", "ko", "제 커널은 torch보다 1.62배 빠릅니다. 이 커널은 244 MB를 옮깁니다.", None),
    (
        "pronoun",
        "ko",
        "torch는 110 µs가 걸립니다. 이 커널은 68 µs가 걸리고 244 MB를 옮깁니다.",
        None,
    ),
    (
        "pronoun",
        "ko",
        "나이브 버전은 1.02 GB를 옮깁니다. 이 커널은 353 µs가 걸리고 244 MB를 옮깁니다.",
        "68.0 µs",
    ),
    (
        "pronoun",
        "ko",
        "제 커널은 torch보다 1.62배 빠릅니다. 이 커널은 1.02 GB를 옮깁니다.",
        "244 MB",
    ),
    # the trap stays a trap: "it" after a sentence whose subject is the naive version
    (
        "pronoun",
        "en",
        "The naive version needs five kernels. It moves 244 MB and runs in 68 µs. My kernel is 1.62x faster than torch and moves 244 MB.",
        "1.02 GB",
    ),
    (
        "pronoun",
        "es",
        "La versión ingenua lanza cinco kernels. Su tráfico es de 244 MB. Mi kernel mueve 244 MB y es 1,62 veces más rápido que torch.",
        "1.02 GB",
    ),
    # -- 2. a parenthesis, a "frente a" pair -------------------------------------------------
    (
        "paren",
        "es",
        "Mi kernel fusionado tiene un 92 % de ocupación y una tasa de aciertos en L2 del 50 %, pero eso importa poco: el softmax está limitado por memoria. Lo que cuenta es que mi kernel mueve 244 MB de tráfico DRAM (la versión ingenua, 1,02 GB) y tarda 63 µs en Nsight, frente a 106 µs de torch. Elegí softmax y no una GEMM, porque cuBLAS ya gana la GEMM densa.",
        None,
        FULL,
    ),
    (
        "paren",
        "es",
        "Como el softmax está limitado por el ancho de banda de memoria, lo importante es mover pocos bytes. Fusioné todo en un solo kernel. Mi kernel mueve unos 0,25 GB, unas 4 veces menos tráfico que la versión ingenua, y es unas 1,6 veces más rápido que torch (68 µs frente a 110 µs). Para una GEMM, cuBLAS ya es imbatible, por eso elegí softmax.",
        None,
        FULL,
    ),
    (
        "paren",
        "es",
        "Mi kernel mueve 1,02 GB de tráfico DRAM (la versión ingenua, 244 MB) y es 1,62 veces más rápido que torch.",
        "244 MB",
    ),
    (
        "paren",
        "es",
        "Mi kernel mueve 0,244 GB (la versión ingenua, 1,02 GB) y tarda 68 µs (torch, 110 µs).",
        None,
    ),
    (
        "paren",
        "es",
        "Mi kernel mueve 244 MB y es unas 5 veces más rápido que la versión ingenua (68 µs frente a 353 µs).",
        None,
    ),
    (
        "paren",
        "es",
        "Mi kernel mueve 244 MB y es 1,62 veces más rápido que torch (110 µs frente a 68 µs).",
        "68.0 µs",
    ),
    (
        "paren",
        "es",
        "Mi kernel tarda 353 µs (la versión ingenua, 68 µs) y mueve 244 MB.",
        "68.0 µs",
    ),
    (
        "paren",
        "en",
        "My kernel moves 244 MB (the naive version, 1.02 GB) and takes 68 µs (torch, 110 µs).",
        None,
    ),
    (
        "paren",
        "en",
        "My kernel moves 244 MB and is 1.62x faster than torch (68 µs against 110 µs).",
        None,
    ),
    (
        "paren",
        "en",
        "My kernel moves 1.02 GB (the naive version, 244 MB) and is 1.62x faster than torch.",
        "244 MB",
    ),
    (
        "paren",
        "en",
        "My kernel moves 244 MB and is 1.62x faster than torch (110 µs against 68 µs).",
        "68.0 µs",
    ),
    (
        "paren",
        "ko",
        "제 커널은 244 MB를 옮기고 (나이브 버전은 1.02 GB) torch보다 1.62배 빠릅니다.",
        None,
    ),
    (
        "paren",
        "ko",
        "제 커널은 1.02 GB를 옮기고 (나이브 버전은 244 MB) torch보다 1.62배 빠릅니다.",
        "244 MB",
    ),
    ("paren", "es", "Mi kernel tarda 68 µs (frente a 110 µs de torch) y mueve 244 MB.", None),
    ("paren", "es", "Mi kernel tarda 68 µs (frente a 110 µs de torch) y mueve 1,02 GB.", "244 MB"),
    (
        "paren",
        "ko",
        "제 커널은 나이브 버전(1.02 GB)보다 트래픽이 4.16배 적고 68 µs가 걸립니다.",
        None,
    ),
    (
        "paren",
        "ko",
        "제 커널은 나이브 버전(1.02 GB)보다 트래픽이 4.16배 적고 353 µs가 걸립니다.",
        "68.0 µs",
    ),
    # -- 3. Korean N배 적습니다 / 많습니다 / 느립니다 ------------------------------------------
    (
        "ko-ratio",
        "ko",
        "소프트맥스는 산술 강도가 매우 낮아서 메모리 바운드입니다. 제 커널은 max, exp, sum, 나눗셈을 하나의 커널로 융합해서 각 행을 한 번 읽고 한 번 씁니다. Nsight Compute 기준으로 제 커널의 DRAM 트래픽은 244 MB로, naive 버전보다 4.16배 적습니다. 또한 제 커널은 torch보다 1.62배 빠릅니다. GEMM 대신 소프트맥스를 고른 이유는 cuBLAS가 이미 GEMM에서 거의 최고 성능을 내기 때문입니다.",
        None,
        FULL,
    ),
    (
        "ko-ratio",
        "ko",
        "제 커널은 naive 버전보다 트래픽이 4.16배 적고, torch보다 1.62배 빠릅니다.",
        None,
    ),
    (
        "ko-ratio",
        "ko",
        "제 커널의 DRAM 트래픽은 244 MB로, naive 버전보다 4.16배 많습니다. 제 커널은 torch보다 1.62배 빠릅니다.",
        "4.16×",
    ),
    (
        "ko-ratio",
        "ko",
        "제 커널의 트래픽은 나이브 버전보다 4배 적습니다. 제 커널은 68 µs가 걸립니다.",
        None,
    ),
    (
        "ko-ratio",
        "ko",
        "제 커널은 나이브 버전보다 4.16배 적은 트래픽을 옮기고 torch보다 1.62배 빠릅니다.",
        None,
    ),
    (
        "ko-ratio",
        "ko",
        "제 커널은 나이브 버전보다 트래픽이 4.16배 많고, torch보다 1.62배 빠릅니다.",
        "4.16×",
    ),
    ("ko-ratio", "ko", "제 커널은 244 MB를 옮기지만 torch보다 1.62배 느립니다.", "1.62×"),
    ("ko-ratio", "ko", "파이토치는 제 커널보다 1.62배 느리고, 제 커널은 244 MB를 옮깁니다.", None),
    (
        "ko-ratio",
        "ko",
        "제 커널은 나이브 버전보다 트래픽이 2배 적고, torch보다 1.62배 빠릅니다.",
        "4.16×",
    ),
]


def _text(case: tuple[str, ...]) -> str:
    _, lang, text, *rest = case
    return text if rest[1:] == [FULL] else text + " " + TAIL[lang]


def _id(i: int, case: tuple[str, ...]) -> str:
    return f"{case[0]}-{case[1]}-{'true' if case[3] is None else 'false'}-{i}"


def check(text: str) -> explanation.ExplanationCheck:
    return explanation.check(text, RUBRIC, grading().citable)


def test_the_tails_are_backed_with_a_plain_figure() -> None:
    head = {
        "en": "My kernel moves 244 MB and is 1.62x faster than torch.",
        "es": "Mi kernel mueve 244 MB y es 1,62 veces más rápido que torch.",
        "ko": "제 커널은 244 MB를 옮기고 torch보다 1.62배 빠릅니다.",
    }
    for lang, tail in TAIL.items():
        c = check(head[lang] + " " + tail)
        assert c.backed, (lang, c.messages)


@pytest.mark.parametrize("case", CASES, ids=[_id(i, c) for i, c in enumerate(CASES)])
def test_fresh_pass_number_classes(case: tuple[str, ...]) -> None:
    c = check(_text(case))
    measured = case[3]
    if measured is None:
        assert c.backed, (c.messages, c.numbers)
    else:
        assert not c.backed, c.numbers
        assert any(measured in m for m in c.messages), c.messages
