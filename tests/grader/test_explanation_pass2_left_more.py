# ruff: noqa: E501  (the cases are explanations, one a line)
"""Issue 30's second blind pass, the true texts still refused after classes A-G, continued
(test_explanation_pass2_left.py has classes P, T, L, F, U, K, R, Q). Classes here:

H. a comparison said as a hypothesis is no claim: "beating it would need TMA", "ganarle a
   cuBLAS requeriría TMA", "cuBLAS를 이기려면 TMA가 필요합니다" (a comparison said as a fact is
   still checked: "torch is faster than my kernel" is refused);
S. "that shape", "esa forma", "그 shape" is the one shape (and dtype) a sentence before named:
   it scopes its clause's number like the shape written there ("3.27× faster than torch on
   that shape, 10.60× faster on 8192×32000 bf16");
C. a name in a clause of cause ("… porque cuBLAS ya gana la GEMM densa", "because cuBLAS
   already wins dense GEMM", "cuBLAS가 이미 GEMM을 이기기 때문에 …") is not what the sentence
   speaks of: the next sentence without a subject of its own is still about yours; a cause in
   a clause of its own ("Because softmax is memory-bound, the naive version moves …") keeps it;
M. Korean "X 덕분에 …" (thanks to X) is a cause like "X 때문에": the negation after it is the
   consequence's ("융합 덕분에 중간 결과를 DRAM에 쓰지 않습니다" meets the mechanism; "융합을
   하지 않았습니다" still does not: pass 1's claims-블록 text);
and further cases of L, R and T (numbered lists, a parenthesis naming its own owner, a pair's
ratio of the pair's kind, the student's own Spanish verbs).

And every text of both blind passes (benchmarks/results/2026-12-02-cpu-explanation-fresh-pass
and 2026-12-03-…-pass-2) gets its truth's verdict.

Each case: (class, language, grading, text, what a refusal must name; None: backed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.grader.test_explanation_pass2 import (
    BASE,
    FIG,
    RMS,
    SM,
    XE,
    XE_EN,
    XE_ES,
    check,
    report_case,
)
from tests.grader.test_explanation_pass2_left import (
    FIG_PAREN,
    REPORT,
    RMS_EN,
    RMS_ES,
    RMS_KO,
)

CASES: list[tuple[str, str, str, str, str | None]] = []
GEMM_IF = {
    "en": "I picked a memory-bound op instead of a GEMM because cuBLAS is already near the tensor-core peak, and beating it would need TMA and warp specialization.",
    "es": "Elegí una operación limitada por memoria en lugar de una GEMM porque cuBLAS ya está cerca del pico, y ganarle a cuBLAS requeriría TMA y especialización de warps.",
    "ko": "cuBLAS가 이미 텐서 코어 피크에 가까워서 GEMM 대신 메모리 바운드 연산을 골랐고, cuBLAS를 이기려면 TMA가 필요합니다.",
}
GEMM_FACT = {
    "en": "I picked a memory-bound op instead of a GEMM because cuBLAS is near the peak. Torch is faster than my kernel.",
    "es": "Elegí una operación limitada por memoria en lugar de una GEMM porque cuBLAS está cerca del pico. Torch es más rápido que mi kernel.",
    "ko": "cuBLAS가 피크에 가까워서 GEMM 대신 메모리 바운드 연산을 골랐습니다. torch가 제 커널보다 빠릅니다.",
}
CASES += [
    # -- H. a hypothetical comparison is no claim; a factual one still is ---------------------
    *[
        (
            "H",
            lang,
            SM,
            f"{BASE[lang]} {FIG_PAREN[lang].format(x='1.02 GB' if lang != 'es' else '1,02 GB')} {GEMM_IF[lang]}",
            None,
        )
        for lang in ("en", "es", "ko")
    ],
    *[
        (
            "H",
            lang,
            SM,
            f"{BASE[lang]} {FIG_PAREN[lang].format(x='1.02 GB' if lang != 'es' else '1,02 GB')} {GEMM_FACT[lang]}",
            "1.62×",
        )
        for lang in ("en", "es", "ko")
    ],
]

THAT = {
    "en": "On 4096×32000 fp32 my kernel moves 527 MB of DRAM traffic. It is {a}× faster than torch on that shape, and 10.60× faster on 8192×32000 bf16.",
    "es": "En 4096×32000 fp32 mi kernel mueve 527 MB de tráfico DRAM. Es {a} veces más rápido que torch en esa forma, y 10,60 veces más rápido en 8192×32000 bf16.",
    "ko": "4096×32000 fp32에서 제 커널의 DRAM 트래픽은 527 MB입니다. 그 shape에서 torch보다 {a}배 빠르고, 8192×32000 bf16에서는 10.60배 빠릅니다.",
}
XE_KO = "크로스 엔트로피는 로짓을 한 번 읽고 연산이 거의 없어서 메모리 바운드입니다. 제 커널은 모든 단계를 한 번의 패스로 융합하고, running max로 최댓값을 빼서 오버플로를 막습니다. 제 커널은 torch보다 트래픽이 2.72배 적습니다. cuBLAS가 이미 GEMM을 이기기 때문에 GEMM 대신 메모리 바운드 연산을 골랐습니다."
XE_BASE = {"en": XE_EN, "es": XE_ES, "ko": XE_KO}
CASES += [
    # -- S. "that shape" is the shape a sentence before named ---------------------------------
    ("S", "en", XE, f"{XE_BASE['en']} {THAT['en'].format(a='3.27')}", None),
    ("S", "en", XE, f"{XE_BASE['en']} {THAT['en'].format(a='10.60')}", "3.27×"),
    ("S", "es", XE, f"{XE_BASE['es']} {THAT['es'].format(a='3,27')}", None),
    ("S", "es", XE, f"{XE_BASE['es']} {THAT['es'].format(a='10,60')}", "3.27×"),
    ("S", "ko", XE, f"{XE_BASE['ko']} {THAT['ko'].format(a='3.27')}", None),
    ("S", "ko", XE, f"{XE_BASE['ko']} {THAT['ko'].format(a='10.60')}", "3.27×"),
    # with two shapes named before, "that shape" is none of them: the number is not read (the
    # student is asked which), never read at a later clause's shape (pass 6) or the course's
    (
        "S",
        "en",
        XE,
        f"{XE_BASE['en']} On 4096×32000 fp32 and 8192×32000 bf16 my kernel wins. It is 3.27× faster than torch on that shape, and 10.60× faster on 8192×32000 bf16.",
        "'that shape' needs one shape named",
    ),
]

KO_MECH = (
    "{m} 소프트맥스는 대역폭이 한계인 메모리 바운드 연산이라 바이트 수가 곧 시간입니다. cuBLAS가 이미 GEMM을 이기기 때문에 GEMM 대신 메모리 바운드 연산을 골랐습니다. "
    + FIG["ko"]
)
CASES += [
    # -- M. "덕분에" is a cause: the negation after it is the consequence's --------------------
    (
        "M",
        "ko",
        SM,
        KO_MECH.format(m="이 커널은 융합(fusion) 덕분에 중간 결과를 DRAM에 쓰지 않습니다."),
        None,
    ),
    (
        "M",
        "ko",
        SM,
        KO_MECH.format(m="제 커널은 한 번의 패스 덕분에 중간 결과가 DRAM을 오가지 않습니다."),
        None,
    ),
    ("M", "ko", SM, KO_MECH.format(m="이 커널에서는 융합을 하지 않았습니다."), "mechanism"),
]

CAUSE = {
    "es": (
        RMS_ES,
        "Mueve 110 MB de tráfico DRAM, 11,21 veces menos que la versión ingenua, y tarda {t} µs, 1,24 veces menos que torch.",
    ),
    "en": (
        RMS_EN,
        "It moves 110 MB of DRAM traffic, 11.21× less than the naive version, and takes {t} µs, 1.24× faster than torch.",
    ),
    "ko": (
        RMS_KO,
        "DRAM 트래픽은 110 MB로 나이브 버전보다 11.21배 적고, 시간은 {t} µs로 torch보다 1.24배 빠릅니다.",
    ),
}
CASES += [
    # -- C. a name in a clause of cause is not the next sentence's subject --------------------
    *[
        ("C", lang, RMS, f"{head} {tail.format(t='36,9' if lang == 'es' else '36.9')}", None)
        for lang, (head, tail) in CAUSE.items()
    ],
    *[
        ("C", lang, RMS, f"{head} {tail.format(t='12,0' if lang == 'es' else '12.0')}", "36.9 µs")
        for lang, (head, tail) in CAUSE.items()
    ],
    # a cause in a clause of its own: the name after the comma is the subject, and the next "it"
    (
        "C",
        "en",
        SM,
        f"{BASE['en']} {FIG['en']} Because softmax is memory-bound, the naive version moves 1.02 GB. It takes 340 µs of kernel time.",
        None,
    ),
    (
        "C",
        "en",
        SM,
        f"{BASE['en']} {FIG['en']} Because softmax is memory-bound, the naive version moves 1.02 GB. It takes 68 µs of kernel time.",
        "340",
    ),
]

NUMBERED = {
    "en": "Results on the course shape:\n\n1. DRAM traffic: 244 MB (naive: 1.02 GB)\n2. Time: {t} µs (torch: 110 µs)\n3. Kernels: 1 (naive: 5)\n\n",
    "es": "Resultados en la forma del curso:\n\n1. tráfico DRAM: 244 MB (ingenua: 1,02 GB)\n2. tiempo: {t} µs (torch: 110 µs)\n3. kernels: 1 (ingenua: 5)\n\n",
    "ko": "강의 shape에서의 결과:\n\n1. DRAM 트래픽: 244 MB (나이브 버전: 1.02 GB)\n2. 시간: {t} µs (torch: 110 µs)\n3. 커널: 1개 (나이브 버전: 5개)\n\n",
}
CASES += [
    # -- L. a numbered list after a blank line --------------------------------------------
    *[
        ("L", lang, SM, NUMBERED[lang].format(t="68") + BASE[lang], None)
        for lang in ("en", "es", "ko")
    ],
    *[
        ("L", lang, SM, NUMBERED[lang].format(t="30") + BASE[lang], "68.0 µs")
        for lang in ("en", "es", "ko")
    ],
]

RMS_PAIR_ES = "RMSNorm está limitado por memoria porque hace una sola reducción por fila. Mi kernel fusiona el cuadrado, la media, el rsqrt y el producto por el peso en una sola pasada, y acumula en fp32 para no perder precisión. En la forma llama (8192×4096 bf16) mueve 110 MB de tráfico DRAM frente a 1,24 GB de la versión ingenua ({r} veces menos) y tarda 36,9 µs frente a 45,7 µs de torch (1,24 veces). No hice una GEMM porque cuBLAS ya gana la GEMM densa."
RMS_OF_KO = "RMSNorm은 행마다 리덕션 한 번뿐이라 메모리 바운드입니다. 제 커널은 제곱, 평균, rsqrt, 가중치 곱을 한 번의 패스로 융합하고 fp32로 누적해서 정밀도 손실이 없습니다. llama shape(8192×4096 bf16)에서 DRAM 트래픽은 {x} MB로 나이브 버전의 1.24 GB보다 11.21배 적고, 36.9 µs로 torch보다 1.24배 빠릅니다. cuBLAS가 이미 GEMM을 이기기 때문에 GEMM은 고르지 않았습니다."
CASES += [
    ("R", "es", RMS, RMS_PAIR_ES.format(r="11,21"), None),
    ("R", "es", RMS, RMS_PAIR_ES.format(r="20"), "11.21×"),
    ("R", "ko", RMS, RMS_OF_KO.format(x="110"), None),
    ("R", "ko", RMS, RMS_OF_KO.format(x="300"), "110 MB"),
]

FIRST_PERSON = "En la forma del curso el mío mueve 244 MB y tarda 68 µs, mientras que torch mueve 248 MB y tarda 110 µs. Es decir, soy 1,62 veces más rápido que torch y muevo {r} veces menos que la versión ingenua."
CASES += [
    ("T", "es", SM, f"{BASE['es']} {FIRST_PERSON.format(r='4,16')}", None),
    ("T", "es", SM, f"{BASE['es']} {FIRST_PERSON.format(r='9')}", "4.16×"),
]

ASIDE = "RMSNorm is memory-bound: one reduction per row. My kernel fuses everything into one pass and accumulates in fp32 to avoid overflow. On llama-8192x4096-bf16 it moves 110 MB (the naive version: 1.24 GB, torch: 114 MB) and takes 36.9 µs, {r}× faster than torch. A GEMM was off the table because cuBLAS already wins dense GEMM."
CASES += [
    ("L", "en", RMS, ASIDE.format(r="1.24"), None),
    ("L", "en", RMS, ASIDE.format(r="2.5"), "measured: 1.24×"),
]

CASES += [
    # a parenthesis that names its own owner keeps it, after a comparison too
    (
        "L",
        "en",
        SM,
        f"{BASE['en']} My kernel moves 244 MB, 4.16× less than the naive version, and is 1.62× faster than torch (torch 110 µs).",
        None,
    ),
    (
        "L",
        "en",
        SM,
        f"{BASE['en']} My kernel moves 244 MB, 4.16× less than the naive version, and is 1.62× faster than torch (torch 68 µs).",
        "110",
    ),
    (
        "L",
        "es",
        SM,
        f"{BASE['es']} Mi kernel mueve 244 MB, 4,16 veces menos que la versión ingenua, y es 1,62 veces más rápido que torch (torch 68 µs).",
        "110",
    ),
]


REPORT_IDS = {"H": ["en-t02"], "S": ["en-t10"]}


@pytest.mark.parametrize(
    "case",
    CASES,
    ids=[f"{c[0]}-{c[1]}-{'true' if c[4] is None else 'false'}-{i}" for i, c in enumerate(CASES)],
)
def test_pass2_left_more_variants(case: tuple[str, str, str, str, str | None]) -> None:
    _, _, name, text, refusal = case
    c = check(text, name)
    if refusal is None:
        assert c.backed, (c.messages, c.numbers)
    else:
        assert not c.backed
        assert any(refusal in m for m in c.messages), c.messages


@pytest.mark.parametrize("case_id", [i for ids in REPORT_IDS.values() for i in ids])
def test_pass2_left_more_report_texts(case_id: str) -> None:
    x = report_case(case_id)
    c = check(str(x["text"]), str(x["grading"]))
    assert c.backed is (x["truth"] == "true"), c.messages


PASS1 = (
    Path(__file__).resolve().parents[2]
    / "benchmarks/results/2026-12-02-cpu-explanation-fresh-pass.json"
)


def test_pass1_claims_block_with_a_korean_cause_is_backed() -> None:
    x = json.loads(PASS1.read_text())[13]
    assert x["fair"] and x["cls"] == "claims-블록"
    c = check(str(x["text"]))
    assert c.backed, c.messages


# the geometric mean with no baseline ("The geometric mean over the shapes is 1.65×") is not
# read on purpose (docs/EXPLANATIONS.md asks for its baseline): these true texts stay refused
LEFT = {"en-t05", "es-t05", "ko-t05"}


def test_every_pass2_text_gets_its_verdict() -> None:
    for x in json.loads(REPORT.read_text()):
        c = check(str(x["text"]), str(x["grading"]))
        if x["id"] in LEFT:
            assert not c.backed and any("against which implementation" in m for m in c.messages)
            continue
        assert c.backed is (x["truth"] == "true"), (x["id"], c.messages)


def test_every_pass1_text_gets_its_verdict() -> None:
    for i, x in enumerate(json.loads(PASS1.read_text())):
        c = check(str(x["text"]))
        assert c.backed is bool(x["fair"]), (i, c.messages)
