# ruff: noqa: E501  (the cases are explanations, one a line)
"""Issue 30's fresh fair/bluff pass, number classes 4-6 (1-3 and the shared tails:
test_explanation_fresh_pass.py): an implementation none of ours owns its figures, and "the
kernel" with nothing else named is yours; Nsight metric names each with its own number;
scientific notation as it renders (10<sup>8</sup>, 10^8, ×10⁸, 1e8)."""

from __future__ import annotations

import pytest

from tests.grader.test_explanation_fresh_pass import FULL, _id, _text, check

CASES: list[tuple[str, ...] | tuple[str, str, str, None] | tuple[str, str, str, None, str]] = [
    # -- 4. no implementation named: the student's; one not ours: never the student's --------
    (
        "unnamed",
        "en",
        "Why not a GEMM? cuBLAS is already close to optimal for dense GEMMs, so I wrote a softmax, which is bandwidth-bound.\nThe speed comes from fusion: one kernel instead of five, so intermediate results never round-trip through DRAM.\n\n```claims\ntraffic, mine: ~0.24 GB\nspeedup, mine vs torch: 1.6x\ntraffic ratio, mine vs naive: 4.2x\nkernels, mine: 1\n```\n\nThe kernel is memory-bound: Nsight reports 81% of peak DRAM throughput for it.",
        None,
        FULL,
    ),
    (
        "unnamed",
        "en",
        "My kernel moves 244 MB and is 1.62x faster than torch. Torch takes 110 µs. The kernel reaches 81 % of peak DRAM throughput.",
        None,
    ),
    (
        "unnamed",
        "en",
        "My kernel moves 244 MB and is 1.62x faster than torch. Torch takes 110 µs. The kernel reaches 48 % of peak DRAM throughput.",
        "81 %",
    ),
    (
        "unnamed",
        "en",
        "A classmate's kernel moves 244 MB and is 1.62x faster than torch; mine is built the same way.",
        "Not read",
    ),
    ("unnamed", "en", "My friend's kernel takes 68 µs and moves 244 MB.", "Not read"),
    (
        "unnamed",
        "en",
        "My kernel moves 244 MB and is 1.62x faster than torch. Another student's kernel takes 40 µs.",
        "Not read",
    ),
    (
        "unnamed",
        "es",
        "Mi kernel mueve 244 MB y es 1,62 veces más rápido que torch. Torch tarda 110 µs. Este kernel alcanza el 81 % del pico de ancho de banda.",
        None,
    ),
    (
        "unnamed",
        "es",
        "El kernel de un compañero mueve 244 MB y es 1,62 veces más rápido que torch; el mío está hecho igual.",
        "Not read",
    ),
    ("unnamed", "es", "Mi compañero tiene un kernel que tarda 68 µs y mueve 244 MB.", "Not read"),
    (
        "unnamed",
        "ko",
        "제 커널은 244 MB를 옮기고 torch보다 1.62배 빠릅니다. torch는 110 µs가 걸립니다. 이 커널은 피크의 81 %에 도달합니다.",
        None,
    ),
    ("unnamed", "ko", "친구의 커널은 244 MB를 옮기고 torch보다 1.62배 빠릅니다.", "Not read"),
    ("unnamed", "ko", "다른 학생의 커널은 68 µs가 걸리고 244 MB를 옮깁니다.", "Not read"),
    # -- 5. Nsight metric names, each with the number after it -------------------------------
    (
        "metric",
        "en",
        "For my kernel, Nsight Compute gives dram__bytes_read.sum = 134 MB and dram__bytes_write.sum = 110 MB, so my kernel's total traffic is 244 MB. The naive version reads 671 MB because every one of its 5 kernels goes back to DRAM; my single fused pass avoids those round trips. My kernel runs at 81 % of peak DRAM throughput and is 1.62× faster than torch.softmax, which is what you expect from a memory-bound kernel. I chose softmax instead of a GEMM since cuBLAS dominates GEMM on SM_120.",
        None,
        FULL,
    ),
    (
        "metric",
        "en",
        "For my kernel, dram__bytes_read.sum = 110 MB and dram__bytes_write.sum = 134 MB; it is 1.62x faster than torch.",
        "134 MB",
    ),
    (
        "metric",
        "en",
        "For my kernel, gpu__time_duration.sum = 63 µs and dram__bytes_write.sum = 110 MB, dram__bytes_read.sum = 134 MB; it is 1.62x faster than torch.",
        None,
    ),
    (
        "metric",
        "en",
        "My kernel moves 134 MB (dram__bytes_read.sum) and 110 MB (dram__bytes_write.sum), and it is 1.62x faster than torch.",
        None,
    ),
    (
        "metric",
        "en",
        "My kernel moves 110 MB (dram__bytes_read.sum) and 134 MB (dram__bytes_write.sum), and it is 1.62x faster than torch.",
        "134 MB",
    ),
    (
        "metric",
        "es",
        "En mi kernel, dram__bytes_read.sum vale 134 MB y dram__bytes_write.sum vale 110 MB; es 1,62 veces más rápido que torch.",
        None,
    ),
    (
        "metric",
        "es",
        "En mi kernel, dram__bytes_read.sum vale 110 MB y dram__bytes_write.sum vale 134 MB; es 1,62 veces más rápido que torch.",
        "134 MB",
    ),
    (
        "metric",
        "ko",
        "제 커널의 dram__bytes_read.sum은 134 MB, dram__bytes_write.sum은 110 MB이고 torch보다 1.62배 빠릅니다.",
        None,
    ),
    (
        "metric",
        "ko",
        "제 커널의 dram__bytes_read.sum은 110 MB, dram__bytes_write.sum은 134 MB이고 torch보다 1.62배 빠릅니다.",
        "134 MB",
    ),
    # -- 6. scientific notation as it renders -------------------------------------------------
    (
        "sci",
        "en",
        "My kernel moves 2.44 × 10<sup>8</sup> bytes of DRAM traffic and is 1.62x faster than torch.",
        None,
    ),
    (
        "sci",
        "en",
        "My kernel moves 2.44 × 10<sup>9</sup> bytes and is 1.62x faster than torch.",
        "244 MB",
    ),
    ("sci", "en", "My kernel moves 2.44 x 10^8 bytes and is 1.62x faster than torch.", None),
    ("sci", "en", "My kernel moves 2.44×10⁸ bytes and is 1.62x faster than torch.", None),
    (
        "sci",
        "en",
        "My kernel moves 1.02 × 10<sup>9</sup> bytes and is 1.62x faster than torch.",
        "244 MB",
    ),
    (
        "sci",
        "es",
        "Mi kernel mueve 2,44 × 10<sup>8</sup> bytes y es 1,62 veces más rápido que torch.",
        None,
    ),
    (
        "sci",
        "es",
        "Mi kernel mueve 2,44·10<sup>9</sup> bytes y es 1,62 veces más rápido que torch.",
        "244 MB",
    ),
    ("sci", "es", "Mi kernel mueve 2,44e8 bytes y es 1,62 veces más rápido que torch.", None),
    (
        "sci",
        "ko",
        "제 커널은 2.44 × 10<sup>8</sup> 바이트를 옮기고 torch보다 1.62배 빠릅니다.",
        None,
    ),
    (
        "sci",
        "ko",
        "제 커널은 2.44 × 10<sup>9</sup> 바이트를 옮기고 torch보다 1.62배 빠릅니다.",
        "244 MB",
    ),
    ("sci", "ko", "제 커널은 2.44×10^8 바이트를 옮기고 torch보다 1.62배 빠릅니다.", None),
]


@pytest.mark.parametrize("case", CASES, ids=[_id(i, c) for i, c in enumerate(CASES)])
def test_fresh_pass_number_classes_4_to_6(case: tuple[str, ...]) -> None:
    c = check(_text(case))
    measured = case[3]
    if measured is None:
        assert c.backed, (c.messages, c.numbers)
    else:
        assert not c.backed, c.numbers
        assert any(measured in m for m in c.messages), c.messages


def test_a_metric_name_is_the_quantity_of_its_own_number_only() -> None:
    from grader.judge import claims

    got = claims.read("My kernel moves 244 MB, and dram__bytes_read.sum is 134 MB.")
    assert [(c.quote, c.direction) for c in got] == [("244 MB", None), ("134 MB", "read")]
    got = claims.read("My kernel moves 244 MB and dram__bytes_write.sum = 110 MB.")
    assert [(c.quote, c.direction) for c in got] == [("244 MB", None), ("110 MB", "write")]
