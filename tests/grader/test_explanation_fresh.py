# ruff: noqa: E501  (the cases are explanations, one a line)
"""Fresh fair and bluff explanations (issue 30's last check), written without looking at the
class tests, in English, Spanish and Korean, against another recorded H200 grading: the
RMSNorm reference on llama-8192x4096-bf16 (yours 110 MB, naive 1.24 GB and 9 kernels, 11.21×
less traffic, 36.9 µs, 1.24× over torch there, 1.34× geometric mean). What got through when
they were written was fixed by class (ratios with "less" and no cue word, a name that only
says whose a number is taken for the sentence's subject, "beats torch" as a comparison)."""

from __future__ import annotations

import pytest

from grader import checkpoints
from grader.judge import explanation
from tests.grader.recorded import grading

CASES = [
    (
        "fair-en",
        True,
        "RMSNorm is bandwidth-bound: each row is read once and written once, and my Triton kernel fuses the square, the mean, the rsqrt and the scale into one pass. Nsight shows it moving 110 MB against the naive version's 1.24 GB, about 11× less, in a single kernel instead of nine. The timed median is 36.9 µs, so it beats torch by 1.24×. I accumulate the sum of squares in fp32 to avoid overflow in bf16. A GEMM would have been a poor choice since cuBLAS owns matrix multiplication on SM_120.",
    ),
    (
        "fair-es",
        True,
        "RMSNorm está limitada por el ancho de banda: mi kernel fusiona el cuadrado, la media y el escalado en una sola pasada. Según Nsight, mueve 110 MB frente a los 1,24 GB de la versión ingenua, unas 11 veces menos, con un solo kernel en vez de nueve. Su mediana es de 36,9 µs y es 1,24 veces más rápido que torch. Acumulo la suma de cuadrados en fp32 para evitar el desbordamiento en bf16. No elegí una GEMM porque cuBLAS ya domina la multiplicación de matrices en SM_120.",
    ),
    (
        "fair-ko",
        True,
        "RMSNorm은 메모리 대역폭에 의해 제한되는 연산입니다. 제 커널은 제곱, 평균, 스케일을 한 번의 패스로 융합합니다. Nsight 기준으로 제 커널은 110 MB를 옮기고 나이브 버전은 1.24 GB를 옮기므로 약 11배 적습니다. 제 커널은 torch보다 1.24배 빠르고 중간값은 36.9 µs입니다. bf16 오버플로를 막기 위해 fp32로 누적합니다. cuBLAS가 SM_120에서 행렬 곱셈을 이기기 때문에 GEMM을 고르지 않았습니다.",
    ),
    (
        "bluff-en-baseline",
        False,
        "RMSNorm is bandwidth-bound and fusion is the mechanism: one pass instead of nine kernels. The naive version moves 1.24 GB and takes 456 µs, while torch moves 114 MB in 45.6 µs. I accumulate in fp32 against overflow. cuBLAS wins GEMM on SM_120, so I skipped it.",
    ),
    (
        "bluff-en-words",
        False,
        "RMSNorm is memory-bound and my fused kernel does one pass, moving 110 MB. It is twenty times faster than torch. I accumulate in fp32 against overflow; cuBLAS wins GEMM on SM_120, so I avoided it.",
    ),
    (
        "bluff-es-range",
        False,
        "RMSNorm está limitada por la memoria y mi kernel fusionado hace una sola pasada: mueve entre 10 y 500 MB. Es al menos 2 veces más rápido que torch. Acumulo en fp32 para evitar el desbordamiento. cuBLAS gana la GEMM en SM_120, por eso la evité.",
    ),
    (
        "bluff-es-pct",
        False,
        "RMSNorm está limitada por la memoria y mi kernel fusionado hace una sola pasada: mueve 110 MB y es 1,24 veces más rápido que torch. La eficiencia de mi caché es del 90 %. Acumulo en fp32 para evitar el desbordamiento. cuBLAS gana la GEMM en SM_120, por eso la evité.",
    ),
    (
        "bluff-ko-swap",
        False,
        "RMSNorm은 메모리 바운드입니다. 제 커널은 한 번의 패스로 융합하며 1.24 GB를 옮기고 나이브 버전은 110 MB를 옮깁니다. 제 커널은 torch보다 1.24배 빠릅니다. fp32로 누적해서 오버플로를 막습니다. cuBLAS가 SM_120에서 GEMM을 이기기 때문에 GEMM을 피했습니다.",
    ),
    (
        "bluff-ko-hidden",
        False,
        "제 커널은 110 MB를 옮기고 torch보다 1.24배 빠릅니다. <!-- 메모리 바운드 융합 GEMM cuBLAS SM_120 fp32로 누적 오버플로 때문 --> 끝입니다.",
    ),
    (
        "bluff-en-kernels",
        False,
        "RMSNorm is memory-bound and my fused kernel does one pass, moving 110 MB and running 1.24x faster than torch, though it launches three kernels. I accumulate in fp32 against overflow; cuBLAS wins GEMM on SM_120, so I avoided it.",
    ),
    (
        "bluff-es-neg",
        False,
        "Mi kernel fusionado mueve 110 MB y es 1,24 veces más rápido que torch. No creo que esté limitado por la memoria. Acumulo en fp32 para evitar el desbordamiento. cuBLAS gana la GEMM en SM_120, por eso la evité.",
    ),
]


@pytest.mark.parametrize(("name", "fair", "text"), CASES, ids=[c[0] for c in CASES])
def test_fresh_explanations(name: str, fair: bool, text: str) -> None:
    result = grading("c3a-rmsnorm-1")
    rubric = checkpoints.get("c3a-rmsnorm").definition.rubric
    check = explanation.check(text, rubric, result.citable)
    assert check.backed is fair, check.messages
    if not fair:  # refused with what was measured, or the point it misses
        assert any(
            any(
                v in m
                for v in ("110 MB", "1.24 GB", "1.34×", "1.24×", "73 %", " 1 (", "does not address")
            )
            for m in check.messages
        ), check.messages


@pytest.mark.parametrize(
    ("checkpoint", "name"),
    [
        ("c3a-softmax", "c3a-softmax-3"),
        ("c3a-rmsnorm", "c3a-rmsnorm-1"),
        ("c3a-cross-entropy", "c3a-cross-entropy-1"),
        ("c3a-vector-add", "c3a-vector-add-1"),
    ],
)
def test_the_gpu_tests_explanations_hold_on_the_recorded_gradings(
    checkpoint: str, name: str
) -> None:
    """tests/gpu/explain.from_result (what the GPU tests submit) on each recorded reference
    grading: backed; off by 30 %, swapped or citing only a time: refused, one reason each."""
    from tests.gpu.explain import from_result

    result = grading(name)
    rubric = checkpoints.get(checkpoint).definition.rubric
    assert explanation.check(from_result(result), rubric, result.citable).backed
    variants: list[tuple[dict[str, object], int]] = [
        ({"traffic_scale": 1.3}, 1),
        ({"only_time": True}, 1),
    ]
    if checkpoint != "c3a-vector-add":  # its naive version moves the same bytes: no swap
        variants.append(({"swap": True}, 2))
    for variant, reasons in variants:
        check = explanation.check(from_result(result, **variant), rubric, result.citable)  # type: ignore[arg-type]
        assert not check.backed and len(check.messages) == reasons, check.messages
