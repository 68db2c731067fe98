# ruff: noqa: E501  (the cases are sentences, one a line)
"""Issue 30's fresh fair/bluff pass (benchmarks/results/2026-12-02-cpu-explanation-fresh-pass.md),
its classes 7-9 and the code block, by class, against the recorded H200 grading of the course's
softmax lab file:

7. a negated consequence is no negation of the point: "융합해서 중간 결과가 DRAM으로 돌아가지
   않습니다" says it is fused; "…이라 다루지 않았습니다" after a reason says why not a GEMM;
8. a visible fenced block (```text, a plain ```) is read like the prose: its false figures are
   refused, its true ones hold; the ```claims block keeps its meaning;
9. a point is not met by a sentence that does not affirm it: a condition ("If softmax were
   memory-bound…", "Si fuera…", "…라면"), someone else's words ("My classmate claims…"), a
   question ("…일까요?", "¿…?")."""

from __future__ import annotations

import pytest

from grader import checkpoints
from grader.judge import explanation
from tests.grader.recorded import grading

RUBRIC = checkpoints.get("c3a-softmax").definition.rubric

HEAD = {
    "en": "My kernel moves 244 MB and is 1.62x faster than torch.",
    "es": "Mi kernel mueve 244 MB y es 1,62 veces más rápido que torch.",
    "ko": "제 커널은 244 MB를 옮기고 torch보다 1.62배 빠릅니다.",
}
# one sentence for each point: memory_bound, mechanism, why_not_gemm
POINTS = {
    "en": [
        "Softmax is memory-bound because its arithmetic intensity is tiny.",
        "My kernel fuses all steps into a single pass, so no intermediate goes back to DRAM.",
        "I chose softmax over a GEMM because cuBLAS already wins dense GEMM.",
    ],
    "es": [
        "El softmax está limitado por memoria porque su intensidad aritmética es muy baja.",
        "Mi kernel fusiona todos los pasos en una sola pasada, así que nada intermedio vuelve a DRAM.",
        "Elegí softmax en lugar de una GEMM porque cuBLAS ya gana la GEMM densa.",
    ],
    "ko": [
        "소프트맥스는 산술 강도가 매우 낮아서 메모리 바운드입니다.",
        "제 커널은 모든 단계를 하나의 패스로 융합하므로 각 행을 DRAM에서 한 번만 읽고 한 번만 씁니다.",
        "cuBLAS가 이미 GEMM에서 이기기 때문에 GEMM 대신 소프트맥스를 골랐습니다.",
    ],
}
WHICH = {"memory_bound": 0, "mechanism": 1, "why_not_gemm": 2}

# (class, language, point whose sentence is replaced, the replacement, True: the point met)
REPLACED: list[tuple[str, str, str, str, bool]] = [
    # -- 7. a negated consequence ------------------------------------------------------------
    (
        "consequence",
        "ko",
        "mechanism",
        "제 커널은 모든 단계를 한 번의 패스로 융합해서 중간 결과가 DRAM으로 돌아가지 않습니다.",
        True,
    ),
    (
        "consequence",
        "ko",
        "mechanism",
        "제 커널은 융합되어 있어서 중간 값을 DRAM에 쓰지 않습니다.",
        True,
    ),
    (
        "consequence",
        "ko",
        "mechanism",
        "모든 단계를 융합했기 때문에 중간 결과가 DRAM을 왕복하지 않습니다.",
        True,
    ),
    ("consequence", "ko", "mechanism", "제 커널은 단계들을 융합하지 않았습니다.", False),
    (
        "consequence",
        "ko",
        "why_not_gemm",
        "GEMM은 SM_120에서 cuBLAS가 이미 최적이라 다루지 않았습니다.",
        True,
    ),
    (
        "consequence",
        "ko",
        "why_not_gemm",
        "GEMM은 cuBLAS가 이미 최적화되어 있어서 고르지 않았습니다.",
        True,
    ),
    ("consequence", "ko", "why_not_gemm", "GEMM은 다루지 않았습니다.", False),
    (
        "consequence",
        "ko",
        "memory_bound",
        "소프트맥스는 메모리 바운드라서 연산 유닛이 병목이 되지 않습니다.",
        True,
    ),
    ("consequence", "ko", "memory_bound", "소프트맥스는 메모리 바운드가 아닙니다.", False),
    (
        "consequence",
        "en",
        "mechanism",
        "My kernel fuses every step so that no intermediate result returns to DRAM.",
        True,
    ),
    (
        "consequence",
        "en",
        "mechanism",
        "My kernel is fused, which means intermediates never round-trip through DRAM.",
        True,
    ),
    (
        "consequence",
        "en",
        "mechanism",
        "My kernel does not fuse anything, so intermediates go back to DRAM.",
        False,
    ),
    (
        "consequence",
        "es",
        "mechanism",
        "Fusioné los pasos para que los resultados intermedios no vuelvan a DRAM.",
        True,
    ),
    (
        "consequence",
        "es",
        "mechanism",
        "Mi kernel está fusionado de modo que los intermedios no pasan por la DRAM.",
        True,
    ),
    (
        "consequence",
        "es",
        "mechanism",
        "No fusioné los pasos, así que los intermedios vuelven a DRAM.",
        False,
    ),
    # -- 9. conditions, someone else's words, questions --------------------------------------
    (
        "condition",
        "en",
        "memory_bound",
        "If softmax were memory-bound, fusion into a single pass would help.",
        False,
    ),
    ("condition", "en", "why_not_gemm", "Had I written a GEMM, cuBLAS would have won.", False),
    (
        "condition",
        "en",
        "mechanism",
        "If I had fused the steps into a single pass, the traffic would drop.",
        False,
    ),
    (
        "condition",
        "en",
        "memory_bound",
        "Were softmax memory-bound, only the bytes would matter.",
        False,
    ),
    (
        "condition",
        "en",
        "why_not_gemm",
        "A GEMM would lose to cuBLAS anyway, so I chose softmax.",
        True,
    ),
    (
        "condition",
        "en",
        "memory_bound",
        "Even if it looks heavy, softmax is memory-bound because its arithmetic intensity is tiny.",
        True,
    ),
    (
        "condition",
        "es",
        "memory_bound",
        "Incluso si parece pesado, el softmax está limitado por memoria porque su intensidad aritmética es baja.",
        True,
    ),
    (
        "condition",
        "es",
        "memory_bound",
        "Si el softmax fuera limitado por memoria, la fusión ayudaría.",
        False,
    ),
    (
        "condition",
        "es",
        "why_not_gemm",
        "Si hubiera escrito una GEMM, cuBLAS habría ganado.",
        False,
    ),
    (
        "condition",
        "es",
        "mechanism",
        "Si fusionara los pasos en una sola pasada, el tráfico bajaría.",
        False,
    ),
    (
        "condition",
        "es",
        "why_not_gemm",
        "Una GEMM perdería contra cuBLAS, por eso elegí softmax.",
        True,
    ),
    (
        "condition",
        "ko",
        "memory_bound",
        "소프트맥스가 메모리 바운드라면 융합이 도움이 될 것입니다.",
        False,
    ),
    ("condition", "ko", "why_not_gemm", "GEMM을 골랐다면 cuBLAS가 이겼을 것입니다.", False),
    ("condition", "ko", "mechanism", "만약 단계를 융합한다면 트래픽이 줄 것입니다.", False),
    (
        "reported",
        "en",
        "memory_bound",
        "My classmate claims softmax is memory-bound; I do not agree.",
        False,
    ),
    (
        "reported",
        "en",
        "memory_bound",
        "According to my classmate, softmax is memory-bound.",
        False,
    ),
    (
        "reported",
        "en",
        "why_not_gemm",
        "Some people say that cuBLAS wins every GEMM, but I disagree.",
        False,
    ),
    (
        "reported",
        "en",
        "memory_bound",
        "I think softmax is memory-bound because its arithmetic intensity is tiny.",
        True,
    ),
    (
        "reported",
        "es",
        "memory_bound",
        "Mi compañero dice que el softmax está limitado por memoria; no estoy de acuerdo.",
        False,
    ),
    ("reported", "es", "why_not_gemm", "Según un compañero, cuBLAS gana toda GEMM.", False),
    (
        "reported",
        "es",
        "memory_bound",
        "Creo que el softmax está limitado por memoria porque su intensidad aritmética es baja.",
        True,
    ),
    ("reported", "ko", "memory_bound", "친구는 소프트맥스가 메모리 바운드라고 합니다.", False),
    (
        "reported",
        "ko",
        "why_not_gemm",
        "다른 학생들은 cuBLAS가 GEMM에서 이긴다고 주장하지만 저는 동의하지 않습니다.",
        False,
    ),
    (
        "reported",
        "ko",
        "memory_bound",
        "저는 소프트맥스가 산술 강도가 낮아서 메모리 바운드라고 생각합니다.",
        True,
    ),
    ("question", "en", "mechanism", "Does fusion into a single pass matter?", False),
    ("question", "en", "memory_bound", "Is softmax memory-bound?", False),
    ("question", "es", "memory_bound", "¿Está el softmax limitado por memoria?", False),
    ("question", "es", "mechanism", "¿Importa la fusión en una sola pasada?", False),
    ("question", "ko", "memory_bound", "소프트맥스가 메모리 바운드일까요?", False),
    ("question", "ko", "why_not_gemm", "왜 GEMM이 아닐까요?", False),
    ("question", "ko", "mechanism", "융합이 중요합니까?", False),
]

# whole texts from the report: (class, language, text, what the refusal must name; None: backed)
FULL: list[tuple[str, str, str, str | None]] = [
    (
        "consequence",
        "ko",
        "제 커널은 torch 대비 1.62배 빠르고, 트래픽은 naive 버전의 1.02 GB에서 244 MB로 줄었습니다. 소프트맥스는 산술 강도가 매우 낮아서 메모리 바운드입니다. 제 커널은 모든 단계를 한 번의 패스로 융합해서 중간 결과가 DRAM으로 돌아가지 않습니다. cuBLAS가 이미 GEMM에서 이기기 때문에 GEMM 대신 소프트맥스를 골랐습니다.",
        None,
    ),
    (
        "consequence",
        "ko",
        "내 커널은 68 µs가 걸리고 244 MB를 옮깁니다. torch는 110 µs가 걸립니다. 소프트맥스는 산술 강도가 매우 낮아서 메모리 바운드입니다. 제 커널은 모든 단계를 한 번의 패스로 융합해서 중간 결과가 DRAM으로 돌아가지 않습니다. cuBLAS가 이미 GEMM에서 이기기 때문에 GEMM 대신 소프트맥스를 골랐습니다.",
        None,
    ),
    (
        "consequence",
        "ko",
        "제 커널은 naive 버전보다 트래픽이 4.16배 적고, torch보다 1.62배 빠릅니다. 소프트맥스는 산술 강도가 매우 낮아서 메모리 바운드입니다. 제 커널은 모든 단계를 한 번의 패스로 융합해서 중간 결과가 DRAM으로 돌아가지 않습니다. cuBLAS가 이미 GEMM에서 이기기 때문에 GEMM 대신 소프트맥스를 골랐습니다.",
        None,
    ),
    (
        "consequence",
        "ko",
        "제 커널은 torch.softmax보다 1.6배 빠르고, 트래픽은 244 MB로 torch(248 MB)와 거의 같습니다. 빠른 이유는 DRAM 대역폭을 3,876 GB/s까지 쓰기 때문입니다. 융합된 단일 패스 커널이라 naive보다 트래픽이 약 4배 적습니다. 소프트맥스는 메모리 바운드이고, GEMM은 SM_120에서 cuBLAS가 이미 최적이라 다루지 않았습니다.",
        None,
    ),
    (
        "condition",
        "en",
        "My kernel moves 244 MB and is 1.62x faster than torch. If softmax were memory-bound, fusion into a single pass would help. Had I written a GEMM, cuBLAS would have won.",
        "does not address",
    ),
    (
        "reported",
        "en",
        "My kernel moves 244 MB and is 1.62x faster than torch. My classmate claims softmax is memory-bound, that fusion into a single pass is the trick, and that cuBLAS wins GEMM; I do not agree with any of it.",
        "does not address",
    ),
    (
        "question",
        "ko",
        "제 커널은 244 MB를 옮기고 torch보다 1.62배 빠릅니다. 소프트맥스가 메모리 바운드일까요? 융합이 중요할까요? 왜 GEMM이 아닐까요?",
        "does not address",
    ),
    # -- 8. a visible code block is read ------------------------------------------------------
    (
        "code",
        "en",
        "My kernel moves 244 MB and is 1.62x faster than torch.\n\n```\nncu summary (my kernel): 30 us, 3.6x faster than torch, 100 MB DRAM\n```\n Softmax is memory-bound because its arithmetic intensity is tiny. My kernel fuses all steps into a single pass, so no intermediate goes back to DRAM. I chose softmax over a GEMM because cuBLAS already wins dense GEMM.",
        "68.0 µs",
    ),
    (
        "code",
        "en",
        "My kernel is fused.\n\n```text\nncu (my kernel): 63 us, 244 MB of DRAM traffic, 1.62x faster than torch\n```\n\nSoftmax is memory-bound because its arithmetic intensity is tiny. My kernel fuses all steps into a single pass, so no intermediate goes back to DRAM. I chose softmax over a GEMM because cuBLAS already wins dense GEMM.",
        None,
    ),
    (
        "code",
        "en",
        "My kernel moves 244 MB and is 1.62x faster than torch.\n\n```text\nmy kernel: 244 MB\nnaive:     100 MB\n```\n\nSoftmax is memory-bound because its arithmetic intensity is tiny. My kernel fuses all steps into a single pass, so no intermediate goes back to DRAM. I chose softmax over a GEMM because cuBLAS already wins dense GEMM.",
        "1.02 GB",
    ),
    (
        "code",
        "en",
        "My kernel moves 244 MB and is 1.62x faster than torch.\n\n```python\nBLOCK = 4096\nx = tl.load(ptr + offs, mask=offs < n)\n```\n\nSoftmax is memory-bound because its arithmetic intensity is tiny. My kernel fuses all steps into a single pass, so no intermediate goes back to DRAM. I chose softmax over a GEMM because cuBLAS already wins dense GEMM.",
        None,
    ),
    (
        "code",
        "en",
        "My kernel moves 244 MB and is 1.62x faster than torch.\n\n<!--\n```\nmy kernel: 30 us\n```\n-->\n\nSoftmax is memory-bound because its arithmetic intensity is tiny. My kernel fuses all steps into a single pass, so no intermediate goes back to DRAM. I chose softmax over a GEMM because cuBLAS already wins dense GEMM.",
        None,
    ),
    (
        "code",
        "en",
        "```\nmy kernel: 244 MB, 1.62x faster than torch\n```\n\nThe reasons are in the block below.\n\n```text\nSoftmax is memory-bound. My kernel fuses all steps into a single pass. I chose softmax over a GEMM because cuBLAS already wins dense GEMM.\n```",
        "does not address",
    ),
    (
        "code",
        "es",
        "Mi kernel mueve 244 MB y es 1,62 veces más rápido que torch.\n\n```\nmi kernel: 30 µs, 100 MB\n```\n\nEl softmax está limitado por memoria porque su intensidad aritmética es muy baja. Mi kernel fusiona todos los pasos en una sola pasada, así que nada intermedio vuelve a DRAM. Elegí softmax en lugar de una GEMM porque cuBLAS ya gana la GEMM densa.",
        "68.0 µs",
    ),
    (
        "code",
        "es",
        "Mi kernel está fusionado.\n\n~~~text\nmi kernel: 68 µs, 244 MB, 1,62 veces más rápido que torch\n~~~\n\nEl softmax está limitado por memoria porque su intensidad aritmética es muy baja. Mi kernel fusiona todos los pasos en una sola pasada, así que nada intermedio vuelve a DRAM. Elegí softmax en lugar de una GEMM porque cuBLAS ya gana la GEMM densa.",
        None,
    ),
    (
        "code",
        "ko",
        "제 커널은 244 MB를 옮기고 torch보다 1.62배 빠릅니다.\n\n```\n제 커널: 30 µs, 100 MB\n```\n\n소프트맥스는 산술 강도가 매우 낮아서 메모리 바운드입니다. 제 커널은 모든 단계를 하나의 패스로 융합하므로 각 행을 DRAM에서 한 번만 읽고 한 번만 씁니다. cuBLAS가 이미 GEMM에서 이기기 때문에 GEMM 대신 소프트맥스를 골랐습니다.",
        "68.0 µs",
    ),
    (
        "code",
        "ko",
        "제 커널은 융합되어 있습니다.\n\n```text\n제 커널: 68 µs, 244 MB, torch보다 1.62배 빠름\n```\n\n소프트맥스는 산술 강도가 매우 낮아서 메모리 바운드입니다. 제 커널은 모든 단계를 하나의 패스로 융합하므로 각 행을 DRAM에서 한 번만 읽고 한 번만 씁니다. cuBLAS가 이미 GEMM에서 이기기 때문에 GEMM 대신 소프트맥스를 골랐습니다.",
        None,
    ),
]


def check(text: str) -> explanation.ExplanationCheck:
    return explanation.check(text, RUBRIC, grading().citable)


def test_the_base_texts_are_backed() -> None:
    for lang in HEAD:
        c = check(" ".join([HEAD[lang], *POINTS[lang]]))
        assert c.backed, (lang, c.messages)


@pytest.mark.parametrize(
    "case",
    REPLACED,
    ids=[f"{c[0]}-{c[1]}-{c[2]}-{'met' if c[4] else 'not'}-{i}" for i, c in enumerate(REPLACED)],
)
def test_a_point_is_met_only_when_affirmed(case: tuple[str, str, str, str, bool]) -> None:
    _, lang, point, sentence, met = case
    said = list(POINTS[lang])
    said[WHICH[point]] = sentence
    c = check(" ".join([HEAD[lang], *said]))
    assert c.points[point] is met, (c.point_sentences, c.messages)
    assert c.backed is met, c.messages
    if not met:
        assert any(f"does not address '{point.replace('_', ' ')}'" in m for m in c.messages)


@pytest.mark.parametrize(
    "case",
    FULL,
    ids=[f"{c[0]}-{c[1]}-{'true' if c[3] is None else 'false'}-{i}" for i, c in enumerate(FULL)],
)
def test_fresh_pass_whole_texts(case: tuple[str, str, str, str | None]) -> None:
    _, _, text, refusal = case
    c = check(text)
    if refusal is None:
        assert c.backed, (c.messages, c.numbers)
    else:
        assert not c.backed
        assert any(refusal in m for m in c.messages), c.messages
