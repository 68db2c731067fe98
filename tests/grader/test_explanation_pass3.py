# ruff: noqa: E501  (the cases are explanations, one a line)
"""Issue 30's third blind pass (benchmarks/results/2026-12-03-cpu-explanation-fresh-pass-3.md):
the bluffs it got backed, by class.

K. a labelled keyword list ("Palabras clave: fusión, memory-bound, GEMM.", "키워드: …") is a
   list of words, not a sentence: it meets no point, in any language;
L. a labelled line of kernel counts in a code block ("kernels: mine 3, naive 5") is read: each
   count is checked like "3 kernels" in a sentence;
M. a time whose clause names its source ("median", "benchmark", "mediana", "벤치마크 중앙값" vs
   "Nsight", "ncu", "profiled", "perfilado", "프로파일") is checked against that source only;
A. a speedup after a figure set against a baseline ("tarda 36,9 µs frente a los 45,6 µs de
   torch, es decir, 12,35 veces más rápido") is against that baseline, not against an earlier
   clause's "que la versión ingenua"; and "frente a torch es de 1,62x y frente a torch.compile
   de 1,26x" gives each ratio the baseline that opens it (a bare "1,26x" is a ratio too);
D. Korean "N밖에 … 않다" is "only N": the figure is claimed and checked; "X처럼 N … 않다"
   ("unlike X, not N") gives X its N, affirmed; a negation after a consequence ending ("피크의
   93 %라서 더 빨라질 여지가 없습니다") is the consequence's, the figure is claimed;
J. informal "cuz", "coz", "'cause" are reason words: "didn't go for gemm cuz cublas wins" says
   why not a GEMM (a negated reason with a "because", like "I did not write a GEMM because …");
   and Korean "융합되어 …하지 않습니다" is "fused, so not …" (a consequence), while "융합되어
   있지 않습니다" stays a negated fusion;
C. a pronoun subject of a ratio's own clause ("It takes 134.7 µs while torch takes 439.7 µs, so
   it is 3.27× faster") is the sentence's subject (or the sentence before's), never the
   baseline named in between;
G. a figure right after "frente a" / "against" / "vs" with no owner of its own is the baseline
   the sentence compares with after it ("tarda 134,7 µs frente a 439,7 µs: 3,27 veces más rápido
   que torch": torch's 439,7 µs);
E. "38 % less time than torch" is a speedup of 1 / (1 − 0.38) = 1.61×;
I. a byte figure per item ("one add per 12 bytes", "12 bytes per element") is not the kernel's
   DRAM traffic (not checked as it); "100 MB per run" still is;
E2. Korean "피크 대역폭의 81 %를 쓰고" is "uses 81 % of the peak" (쓰다: to use), not a write.

Each case: (class, language, grading, text, what a refusal must name; None: backed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader import checkpoints
from grader.judge import explanation
from tests.grader.recorded import grading

SM, RMS, XE = "c3a-softmax-3", "c3a-rmsnorm-1", "c3a-cross-entropy-1"
REPORT = (
    Path(__file__).resolve().parents[2]
    / "benchmarks/results/2026-12-03-cpu-explanation-fresh-pass-3.json"
)
POINT = "does not address"
EN = "Softmax is memory-bound because it does a few flops per byte, so my kernel fuses the five steps into one pass and the intermediates never go back to DRAM. I chose a memory-bound op rather than a GEMM because cuBLAS already wins dense GEMM on this GPU."
ES = "La softmax está limitada por memoria porque hace muy pocas operaciones por byte, así que mi kernel fusiona los cinco pasos en una sola pasada y los intermedios no vuelven a la DRAM. Elegí una operación limitada por memoria en lugar de una GEMM porque cuBLAS ya gana la GEMM densa."
KO = "소프트맥스는 바이트당 연산이 적어서 메모리 바운드입니다. 제 커널은 다섯 단계를 한 번의 패스로 융합해서 중간 결과가 DRAM을 왕복하지 않습니다. cuBLAS가 이미 GEMM을 이기기 때문에 GEMM 대신 메모리 바운드 연산을 골랐습니다."
FIG = {
    "en": "My kernel moves 244 MB and is 1.62× faster than torch.",
    "es": "Mi kernel mueve 244 MB y es 1,62 veces más rápido que torch.",
    "ko": "제 커널은 244 MB를 옮기고 torch보다 1.62배 빠릅니다.",
}
BASE = {"en": EN, "es": ES, "ko": KO}


def check(text: str, name: str = SM) -> explanation.ExplanationCheck:
    spec = checkpoints.get(name.rsplit("-", 1)[0]).definition.rubric
    return explanation.check(text, spec, grading(name).citable)


def report_text(case_id: str) -> str:
    return str(next(x for x in json.loads(REPORT.read_text()) if x["id"] == case_id)["text"])


CASES: list[tuple[str, str, str, str, str | None]] = [
    # K: a labelled keyword list meets no point
    ("K", "es", SM, report_text("es19"), POINT),
    ("K", "ko", SM, report_text("r2ko01"), POINT),
    ("K", "es", SM, "Conceptos clave: fusión, limitado por memoria, cuBLAS. " + FIG["es"], POINT),
    ("K", "ko", SM, "핵심 단어: 융합, 메모리 바운드, cuBLAS. " + FIG["ko"], POINT),
    ("K", "en", SM, "Key terms: kernel fusion, memory bound, cuBLAS GEMM. " + FIG["en"], POINT),
    ("K", "es", SM, "Palabras clave: fusión, memory-bound, GEMM. " + ES + " " + FIG["es"], None),
    ("K", "ko", SM, "키워드: 융합, 메모리 바운드, GEMM. " + KO + " " + FIG["ko"], None),
    ("K", "en", SM, "Keywords: fusion, memory-bound, GEMM. " + EN + " " + FIG["en"], None),
    # L: kernel counts in a code-block line are checked
    ("L", "es", SM, report_text("es22"), "3 kernels"),
    ("L", "es", SM, report_text("r2es07"), "3 kernels"),
    ("L", "en", SM, report_text("r2en10"), "3 kernels"),
    (
        "L",
        "ko",
        SM,
        KO + " " + FIG["ko"] + "\n\n```\n커널 수: 제 커널 2, naive 5\n```",
        "2 kernels",
    ),
    ("L", "en", SM, EN + " " + FIG["en"] + "\n\n```\nkernels: mine 1, naive 7\n```", "7 kernels"),
    ("L", "en", SM, EN + " " + FIG["en"] + "\n\n```\nkernels: mine 1, naive 5\n```", None),
    (
        "L",
        "es",
        SM,
        ES + " " + FIG["es"] + "\n\n```\nkernels: mi kernel 1, versión ingenua 5\n```",
        None,
    ),
    ("L", "ko", SM, KO + " " + FIG["ko"] + "\n\n```\n커널 수: 제 커널 1, naive 5\n```", None),
    # M: a named source is the one checked (median 68.0 µs, Nsight 63.0 µs; XE 134.7 / 124.7)
    ("M", "en", SM, report_text("r2en03"), "55 µs"),
    ("M", "en", XE, report_text("r2en12"), "110 µs"),
    ("M", "es", SM, ES + " En el benchmark, la mediana de mi kernel es 56 µs.", "56 µs"),
    ("M", "ko", SM, KO + " 벤치마크 중앙값으로 제 커널은 56 µs입니다.", "56 µs"),
    ("M", "en", SM, EN + " My kernel moves 244 MB; Nsight reports my kernel at 75 µs.", "75 µs"),
    (
        "M",
        "en",
        SM,
        EN
        + " My kernel moves 244 MB. In the benchmark my kernel's median time is 68 µs, against 110 µs for torch.",
        None,
    ),
    ("M", "en", SM, EN + " My kernel moves 244 MB; Nsight reports my kernel at 63 µs.", None),
    (
        "M",
        "es",
        SM,
        ES + " Mi kernel mueve 244 MB. En el benchmark, la mediana de mi kernel es 68 µs.",
        None,
    ),
    (
        "M",
        "ko",
        SM,
        KO + " 제 커널은 244 MB를 옮깁니다. 벤치마크 중앙값으로 제 커널은 68 µs입니다.",
        None,
    ),
    ("M", "es", SM, ES + " Mi kernel mueve 244 MB. Según Nsight, mi kernel tarda 63 µs.", None),
    # A: the baseline of the contrast just before the speedup (rmsnorm: 1.24× vs torch, 12.35× vs naive)
    ("A", "es", RMS, report_text("r2es03"), "12,35 veces"),
    ("A", "es", XE, report_text("r2es08"), "6,96 veces"),
    ("A", "es", RMS, report_text("es07"), None),
    (
        "A",
        "en",
        RMS,
        "RMSNorm is memory-bound because it reads each row once with almost no math. My fused kernel reads each row once and accumulates the sum of squares in fp32. It moves 110 MB, 11.2× less than the naive version, and takes 36.9 µs against 45.6 µs for torch, that is 12.35× faster. I did not write a GEMM because cuBLAS already wins it.",
        "12.35×",
    ),
    (
        "A",
        "en",
        RMS,
        "RMSNorm is memory-bound because it reads each row once with almost no math. My fused kernel reads each row once and accumulates the sum of squares in fp32. It moves 110 MB, 11.2× less than the naive version, and takes 36.9 µs against 45.6 µs for torch, that is 1.24× faster. I did not write a GEMM because cuBLAS already wins it.",
        None,
    ),
    ("A", "es", SM, report_text("es02"), None),
    (
        "A",
        "es",
        SM,
        ES
        + " Mi kernel mueve 244 MB. Frente a torch es de 1,62x y frente a torch.compile de 1,62x.",
        "1,62x",
    ),
    (
        "A",
        "es",
        SM,
        ES
        + " Mi kernel mueve 244 MB. Frente a torch es de 1,26x y frente a torch.compile de 1,26x.",
        "1,26x",
    ),
    (
        "A",
        "en",
        SM,
        EN
        + " My kernel moves 244 MB. Against torch it is 1.62x faster and against torch.compile 1.26x.",
        None,
    ),
    (
        "A",
        "en",
        SM,
        EN
        + " My kernel moves 244 MB. Against torch it is 1.26x faster and against torch.compile 1.62x.",
        "1.26x",
    ),
    # D: 밖에 + a negative is "only" (softmax bf16 8192×4096: yours 36.6 µs, torch 108.9 µs)
    ("D", "ko", SM, report_text("r2ko02"), "60 µs"),
    ("D", "ko", SM, report_text("ko04"), None),
    ("D", "ko", SM, KO + " " + FIG["ko"] + " 제 커널은 50 µs밖에 걸리지 않습니다.", "50 µs"),
    ("D", "ko", SM, KO + " " + FIG["ko"] + " 제 커널은 68 µs밖에 걸리지 않습니다.", None),
    ("D", "ko", SM, KO + " " + FIG["ko"] + " 제 커널은 3개 커널밖에 띄우지 않습니다.", "3개"),
    (
        "D",
        "ko",
        SM,
        KO + " " + FIG["ko"] + " 제 커널은 naive처럼 5개 커널을 띄우지 않습니다.",
        None,
    ),
    (
        "D",
        "ko",
        SM,
        KO + " " + FIG["ko"] + " 제 커널은 naive처럼 7개 커널을 띄우지 않습니다.",
        "7개",
    ),
    ("D", "ko", "c3a-vector-add-1", report_text("ko11"), None),
    (
        "D",
        "ko",
        SM,
        KO + " " + FIG["ko"] + " 제 커널은 피크의 50 %라서 더 빨라질 여지가 없습니다.",
        "50 %",
    ),
    (
        "D",
        "ko",
        SM,
        KO + " " + FIG["ko"] + " 제 커널은 피크의 81 %라서 더 빨라질 여지가 없습니다.",
        None,
    ),
    # J: an informal "because"
    ("J", "en", SM, report_text("r2en05"), None),
    (
        "J",
        "en",
        SM,
        "Softmax is memory-bound because it does a few flops per byte, so my kernel fuses the five steps into one pass. "
        + FIG["en"]
        + " I didn't write a GEMM coz cuBLAS already wins dense GEMM.",
        None,
    ),
    (
        "J",
        "en",
        SM,
        "Softmax is memory-bound because it does a few flops per byte, so my kernel fuses the five steps into one pass. "
        + FIG["en"]
        + " I didn't write a GEMM.",
        POINT,
    ),
    ("J", "ko", SM, report_text("r2ko04"), None),
    (
        "J",
        "ko",
        SM,
        "소프트맥스는 메모리 바운드입니다. 제 커널은 융합되어 있지 않습니다. "
        + FIG["ko"]
        + " GEMM은 cuBLAS가 이미 이기므로 고르지 않았습니다.",
        POINT,
    ),
    (
        "J",
        "ko",
        SM,
        "소프트맥스는 메모리 바운드입니다. 제 커널은 한 번의 패스로 융합되어 중간 결과를 DRAM에 쓰지 않습니다. "
        + FIG["ko"]
        + " GEMM은 cuBLAS가 이미 이기므로 고르지 않았습니다.",
        None,
    ),
    # C: "so it is N× faster" after "while torch takes …"
    ("C", "en", XE, report_text("en13"), None),
    (
        "C",
        "en",
        SM,
        EN
        + " My kernel moves 244 MB. It takes 68 µs while torch takes 110 µs, so it is 1.62× faster.",
        None,
    ),
    (
        "C",
        "en",
        SM,
        EN
        + " My kernel moves 244 MB. It takes 68 µs while torch takes 110 µs, so it is 2.5× faster.",
        "2.5×",
    ),
    (
        "C",
        "en",
        SM,
        EN
        + " My kernel moves 244 MB and takes 68 µs while torch takes 110 µs, so it is 1.62× faster.",
        None,
    ),
    # G: the far side of "frente a" named later
    ("G", "es", XE, report_text("es09"), None),
    (
        "G",
        "es",
        SM,
        ES
        + " Mi kernel mueve 244 MB y tarda 68 µs frente a 110 µs: 1,62 veces más rápido que torch.",
        None,
    ),
    (
        "G",
        "es",
        SM,
        ES
        + " Mi kernel mueve 244 MB y tarda 68 µs frente a 200 µs: 1,62 veces más rápido que torch.",
        "200 µs",
    ),
    (
        "G",
        "en",
        SM,
        EN + " My kernel moves 244 MB and takes 68 µs against 110 µs, 1.62× faster than torch.",
        None,
    ),
    (
        "G",
        "en",
        SM,
        EN + " My kernel moves 244 MB and takes 68 µs against 200 µs, 1.62× faster than torch.",
        "200 µs",
    ),
    # E: a percentage of time less
    ("E", "en", SM, report_text("en07"), None),
    ("E", "en", SM, EN + " My kernel moves 244 MB and takes 38 % less time than torch.", None),
    ("E", "en", SM, EN + " My kernel moves 244 MB and takes 60 % less time than torch.", "60 %"),
    (
        "E",
        "es",
        SM,
        ES + " Mi kernel mueve 244 MB y tarda un 38 % menos de tiempo que torch.",
        None,
    ),
    (
        "E",
        "es",
        SM,
        ES + " Mi kernel mueve 244 MB y tarda un 60 % menos de tiempo que torch.",
        "60 %",
    ),
    # I: bytes per element
    ("I", "en", "c3a-vector-add-1", report_text("en15"), None),
    (
        "I",
        "en",
        SM,
        EN
        + " My kernel moves 244 MB. It reads 12 bytes per element and is 1.62× faster than torch.",
        None,
    ),
    (
        "I",
        "en",
        SM,
        EN + " My kernel moves 100 MB per run and is 1.62× faster than torch.",
        "100 MB",
    ),
    (
        "I",
        "es",
        SM,
        ES
        + " Mi kernel mueve 244 MB, una suma por cada 12 bytes, y es 1,62 veces más rápido que torch.",
        None,
    ),
    # E2: "N %를 쓰고" uses N % of the peak
    ("E", "ko", SM, report_text("ko05"), None),
    ("E", "ko", SM, KO + " " + FIG["ko"] + " 제 커널은 DRAM 피크 대역폭의 81 %를 씁니다.", None),
    ("E", "ko", SM, KO + " " + FIG["ko"] + " 제 커널은 DRAM 피크 대역폭의 40 %를 씁니다.", "40 %"),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_pass3_case(case: tuple[str, str, str, str, str | None]) -> None:
    _, _, name, text, refused = case
    c = check(text, name)
    if refused is None:
        assert c.backed, c.messages
    else:
        assert not c.backed
        assert any(refused in m for m in c.messages), c.messages
