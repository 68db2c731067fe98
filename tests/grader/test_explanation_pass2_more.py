# ruff: noqa: E501  (the cases are explanations, one a line)
"""Issue 30's second blind pass (benchmarks/results/2026-12-03-cpu-explanation-fresh-pass-2.md),
classes D-G (A-C: test_explanation_pass2.py).

G. points: a plain affirmative "Softmax is memory-bound." meets the memory-bound point; Korean
   "-하면" in its everyday sense ("융합하면 …") is a consequence, not a hypothetical; "float32로
   누적" / "acumula … en fp32" meets the precision point; the mechanism point needs the
   mechanism (fusion, one pass, fewer DRAM round trips), "bandwidth is the limit" alone does not.
E. names (Spanish): "la versión ingenua de PyTorch" is the naive version, not torch; "Frente a
   torch, mi kernel …" keeps mi kernel the subject; after a sentence whose subject is a tool
   ("Nsight Compute mide …") "él" is the implementation before; "dos kernels en vez de los nueve
   de la ingenua" is a comparison; "los 1,02 GB de la ingenua son 4,16 veces más que los 244 MB
   de mi kernel" is naive against mine; "vuelve a la DRAM … mueve 1,02 GB" is no "from … to".
D. a table whose header row names the implementations ("| | my kernel | torch | naive |"): each
   column's figures are that column's implementation's.
F. numbers: Korean myriads ("약 2억 4400만 바이트", "11억 바이트") are read and checked; "0,0369 ms" is
   read (a group of three digits followed by a digit is no thousands group).
H. "the geometric mean is 1.65× over torch" without the word speedup is the geomean speedup; one
   with no baseline named is "not read", asking against which implementation.

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


GEMM = {
    "en": "I skipped GEMM because cuBLAS already owns dense GEMM on this GPU.",
    "es": "No hice una GEMM porque cuBLAS ya gana la GEMM densa.",
    "ko": "cuBLAS가 이미 GEMM을 이기기 때문에 GEMM은 다루지 않았습니다.",
}
FUSED = {
    "en": "My kernel fuses max, exp, sum and divide into one pass: it moves 244 MB, 4.16× less than the naive version, and it is 1.62× faster than torch.",
    "es": "Mi kernel fusiona los cinco pasos en una sola pasada: mueve 244 MB, 4,16 veces menos que la versión ingenua, y es 1,62 veces más rápido que torch.",
    "ko": "제 커널은 다섯 단계를 한 번의 패스로 융합합니다. 제 커널의 DRAM 트래픽은 244 MB로 나이브 버전보다 4.16배 적고, torch보다 1.62배 빠릅니다.",
}
RMS_FIG = {
    "en": "On the llama shape my kernel moves 110 MB, 11.21× less than the naive version, and it is 1.24× faster than torch.",
    "es": "En la forma llama mi kernel mueve 110 MB, 11,21 veces menos que la versión ingenua, y es 1,24 veces más rápido que torch.",
    "ko": "llama shape에서 제 커널의 DRAM 트래픽은 110 MB로 나이브 버전보다 11.21배 적고, torch보다 1.24배 빠릅니다.",
}

ES_HEAD = (
    "La softmax está limitada por memoria. Mi kernel fusiona los cinco pasos en una sola pasada."
)
ES_LEAD = f"{ES_HEAD} {FUSED['es']}"
XE_FIG = "Mueve 527 MB de tráfico DRAM, 5,90 veces menos que la versión ingenua, y es 3,27 veces más rápida que torch en la forma 4096×32000 fp32."

KO_HEAD = "소프트맥스는 바이트당 연산이 적어서 메모리 바운드입니다. 제 커널은 다섯 단계를 한 번의 패스로 융합해서 중간 결과가 DRAM을 왕복하지 않습니다."
RMS_HEAD = {
    "es": "RMSNorm está limitado por memoria. Mi kernel fusiona todo en una sola pasada y acumula en fp32 para evitar el desbordamiento. Mueve 110 MB de tráfico DRAM, 11,21 veces menos que la versión ingenua,",
    "en": "RMSNorm is memory-bound. My kernel fuses everything into one pass and accumulates in fp32 to avoid overflow. It moves 110 MB of DRAM traffic, 11.21× less than the naive version,",
}


def table(lang: str, head: str, rows: list[str]) -> str:
    """A column table after the points said plainly."""
    lead = {
        "en": "Softmax is memory-bound, so I fused the five steps into one pass and the intermediates never make a round trip to DRAM. I chose a memory-bound op rather than a GEMM because cuBLAS already wins dense GEMM on this GPU.",
        "es": "La softmax está limitada por memoria. Mi kernel fusiona los cinco pasos en una sola pasada. Elegí una operación limitada por memoria en lugar de una GEMM porque cuBLAS ya gana la GEMM densa.",
        "ko": f"소프트맥스는 메모리 바운드입니다. 제 커널은 다섯 단계를 한 번의 패스로 융합합니다. {GEMM['ko']}",
    }[lang]
    return "\n".join([lead, "", head, "|---|---|---|---|", *rows])


EN_HEAD, ES_TH, KO_TH = (
    "| | my kernel | torch | naive |",
    "| | mi kernel | torch | versión ingenua |",
    "| | 제 커널 | torch | 나이브 버전 |",
)

CASES: list[tuple[str, str, str, str, str | None]] = [
    # -- G. points ------------------------------------------------------------------------
    # a plain affirmative sentence meets the memory-bound point
    ("G", "en", SM, f"Softmax is memory-bound. {FUSED['en']} {GEMM['en']}", None),
    ("G", "en", SM, f"RMSNorm-like softmax is bandwidth-bound. {FUSED['en']} {GEMM['en']}", None),
    ("G", "es", SM, f"El softmax está limitado por memoria. {FUSED['es']} {GEMM['es']}", None),
    ("G", "es", SM, f"La softmax es memory-bound. {FUSED['es']} {GEMM['es']}", None),
    ("G", "ko", SM, f"소프트맥스는 메모리 바운드입니다. {FUSED['ko']} {GEMM['ko']}", None),
    ("G", "ko", SM, f"소프트맥스는 메모리 병목입니다. {FUSED['ko']} {GEMM['ko']}", None),
    # ... but a negated or bare one does not
    ("G", "en", SM, f"Softmax is not memory-bound. {FUSED['en']} {GEMM['en']}", "memory bound"),
    ("G", "en", SM, f"Memory-bound. {FUSED['en']} {GEMM['en']}", "memory bound"),
    (
        "G",
        "es",
        SM,
        f"El softmax no está limitado por memoria. {FUSED['es']} {GEMM['es']}",
        "memory bound",
    ),
    (
        "G",
        "ko",
        SM,
        f"소프트맥스는 메모리 바운드가 아닙니다. {FUSED['ko']} {GEMM['ko']}",
        "memory bound",
    ),
    # Korean "-하면" in its everyday sense; "float32로 누적" is the precision point
    (
        "G",
        "ko",
        RMS,
        f"RMSNorm이 메모리 바운드이기 때문에, 모든 것을 커널 하나로 융합하면 중간 결과의 DRAM 왕복이 없어져서 빨라집니다. 제곱합을 정확하게 유지하려고 float32로 누적합니다. {RMS_FIG['ko']} {GEMM['ko']}",
        None,
    ),
    (
        "G",
        "ko",
        RMS,
        f"RMSNorm은 메모리 바운드입니다. 단계를 하나의 커널로 합치면 중간 결과가 DRAM을 왕복하지 않습니다. 제곱합은 fp32로 누적합니다. {RMS_FIG['ko']} {GEMM['ko']}",
        None,
    ),
    (
        "G",
        "ko",
        RMS,
        f"RMSNorm은 메모리 바운드입니다. 커널을 융합하면 빨라집니다. 제곱합은 bf16으로 누적합니다. {RMS_FIG['ko']} {GEMM['ko']}",
        "precision",
    ),
    (
        "G",
        "en",
        RMS,
        f"RMSNorm is memory-bound. My fused kernel does everything in one pass, accumulating the sum of squares in fp32. {RMS_FIG['en']} {GEMM['en']}",
        None,
    ),
    (
        "G",
        "en",
        RMS,
        f"RMSNorm is memory-bound. My fused kernel does everything in one pass and accumulates the squares in float32. {RMS_FIG['en']} {GEMM['en']}",
        None,
    ),
    (
        "G",
        "es",
        RMS,
        f"RMSNorm está limitado por memoria. Mi kernel fusiona todo en una sola pasada y acumula la suma de cuadrados en fp32 aunque la entrada sea bf16. {RMS_FIG['es']} {GEMM['es']}",
        None,
    ),
    (
        "G",
        "es",
        RMS,
        f"RMSNorm está limitado por memoria. Mi kernel fusiona todo en una sola pasada y acumulo en fp32. {RMS_FIG['es']} {GEMM['es']}",
        None,
    ),
    # the mechanism point needs the mechanism
    (
        "G",
        "en",
        SM,
        f"Softmax is memory-bound: it does a few flops per byte, so bandwidth is the limit. My kernel moves 244 MB of DRAM traffic and is 1.62× faster than torch. {GEMM['en']}",
        "mechanism",
    ),
    (
        "G",
        "en",
        SM,
        f"Softmax is memory-bound, so the DRAM bandwidth decides its speed. My kernel moves 244 MB of DRAM traffic and is 1.62× faster than torch. {GEMM['en']}",
        "mechanism",
    ),
    (
        "G",
        "es",
        SM,
        f"La softmax está limitada por memoria, así que el ancho de banda es el límite. Mi kernel mueve 244 MB y es 1,62 veces más rápido que torch. {GEMM['es']}",
        "mechanism",
    ),
    (
        "G",
        "es",
        SM,
        f"La softmax está limitada por memoria. Mi kernel calcula una softmax en línea en una sola pasada y mueve 244 MB, 4,16 veces menos que la versión ingenua, y es 1,62 veces más rápido que torch. {GEMM['es']}",
        None,
    ),
    (
        "G",
        "ko",
        SM,
        f"소프트맥스는 메모리 바운드라서 대역폭이 한계입니다. 제 커널의 DRAM 트래픽은 244 MB이고 torch보다 1.62배 빠릅니다. {GEMM['ko']}",
        "mechanism",
    ),
    (
        "G",
        "ko",
        SM,
        f"소프트맥스는 메모리 바운드입니다. 제 커널은 온라인 소프트맥스로 한 번에 계산합니다. 제 커널의 DRAM 트래픽은 244 MB로 나이브 버전보다 4.16배 적고, torch보다 1.62배 빠릅니다. {GEMM['ko']}",
        None,
    ),
    # -- E. names (Spanish) ---------------------------------------------------------------
    (
        "E",
        "es",
        SM,
        f"{ES_LEAD} La versión ingenua de PyTorch lanza un solo kernel y mueve 248 MB. {GEMM['es']}",
        "1.02 GB",
    ),
    (
        "E",
        "es",
        SM,
        f"{ES_LEAD} La versión ingenua de PyTorch lanza cinco kernels y mueve 1,02 GB. {GEMM['es']}",
        None,
    ),
    (
        "E",
        "es",
        SM,
        f"{ES_LEAD} La implementación ingenua en PyTorch mueve 1,02 GB en cinco kernels. {GEMM['es']}",
        None,
    ),
    (
        "E",
        "es",
        SM,
        f"{ES_LEAD} La implementación ingenua en PyTorch mueve 248 MB en cinco kernels. {GEMM['es']}",
        "1.02 GB",
    ),
    (
        "E",
        "es",
        SM,
        f"{ES_LEAD} La versión ingenua de PyTorch lanza cinco kernels, y cada intermedio vuelve a la DRAM y se lee de nuevo, de modo que mueve 1,02 GB en total. {GEMM['es']}",
        None,
    ),
    (
        "E",
        "es",
        SM,
        f"{ES_HEAD} Mueve 244 MB. Frente a torch, mi kernel es 1,62 veces más rápido. {GEMM['es']}",
        None,
    ),
    (
        "E",
        "es",
        SM,
        f"{ES_HEAD} Mueve 244 MB. Frente a torch, mi kernel es 2,5 veces más rápido. {GEMM['es']}",
        "1.62×",
    ),
    (
        "E",
        "es",
        SM,
        f"{ES_HEAD} Nsight Compute mide 244 MB de tráfico DRAM, 4,16 veces menos que la versión ingenua y casi lo mismo que torch.softmax (248 MB). Él tarda 63,0 µs de tiempo de kernel y es 1,62 veces más rápido que torch. {GEMM['es']}",
        None,
    ),
    (
        "E",
        "es",
        SM,
        f"{ES_HEAD} Nsight Compute mide 244 MB de tráfico DRAM, 4,16 veces menos que la versión ingenua y casi lo mismo que torch.softmax (248 MB). Él tarda 110 µs de tiempo de kernel y es 1,62 veces más rápido que torch. {GEMM['es']}",
        "68.0 µs",
    ),
    (
        "E",
        "es",
        XE,
        f"La entropía cruzada está limitada por memoria, y por eso la fusión importa: mi implementación usa dos kernels en vez de los nueve de la versión ingenua, con un logsumexp en línea que resta el máximo acumulado para no desbordar. {XE_FIG} {GEMM['es']}",
        None,
    ),
    (
        "E",
        "es",
        XE,
        f"La entropía cruzada está limitada por memoria, y por eso la fusión importa: mi implementación usa un kernel en vez de los nueve de la versión ingenua, con un logsumexp en línea que resta el máximo acumulado para no desbordar. {XE_FIG} {GEMM['es']}",
        "2 (kernels",
    ),
    (
        "E",
        "es",
        SM,
        f"{ES_HEAD} Los 1,02 GB de la versión ingenua son 4,16 veces más que los 244 MB de mi kernel, y torch.softmax es 1,62 veces más lento que el mío. {GEMM['es']}",
        None,
    ),
    (
        "E",
        "es",
        SM,
        f"{ES_HEAD} Los 1,02 GB de la versión ingenua son 6 veces más que los 244 MB de mi kernel, y torch.softmax es 1,62 veces más lento que el mío. {GEMM['es']}",
        "4.16×",
    ),
    # -- D. tables whose header row names the implementations ------------------------------
    (
        "D",
        "en",
        SM,
        table(
            "en",
            EN_HEAD,
            [
                "| DRAM traffic | 244 MB | 248 MB | 1.02 GB |",
                "| time | 68.0 µs | 110.1 µs | 353.0 µs |",
                "| kernels | 1 | 1 | 5 |",
            ],
        ),
        None,
    ),
    (
        "D",
        "en",
        SM,
        table(
            "en",
            EN_HEAD,
            [
                "| DRAM traffic | 244 MB | 248 MB | 1.02 GB |",
                "| time | 41.0 µs | 110.1 µs | 353.0 µs |",
                "| speedup vs torch | 2.69× | — | — |",
            ],
        ),
        "1.62×",
    ),
    (
        "D",
        "en",
        SM,
        table(
            "en",
            EN_HEAD,
            ["| DRAM traffic | 244 MB | 248 MB | 244 MB |", "| speedup vs torch | 1.62× | — | — |"],
        ),
        "1.02 GB",
    ),
    (
        "D",
        "es",
        SM,
        table(
            "es",
            ES_TH,
            [
                "| tráfico DRAM | 244 MB | 248 MB | 1,02 GB |",
                "| tiempo | 68,0 µs | 110,1 µs | 353,0 µs |",
                "| aceleración frente a torch | 1,62 veces | — | — |",
            ],
        ),
        None,
    ),
    (
        "D",
        "es",
        SM,
        table(
            "es",
            ES_TH,
            [
                "| tráfico DRAM | 244 MB | 248 MB | 244 MB |",
                "| aceleración frente a torch | 1,62 veces | — | — |",
            ],
        ),
        "1.02 GB",
    ),
    (
        "D",
        "es",
        SM,
        table(
            "es",
            ES_TH,
            [
                "| tráfico DRAM | 244 MB | 248 MB | 1,02 GB |",
                "| tiempo | 68,0 µs | 40,0 µs | 353,0 µs |",
                "| aceleración frente a torch | 1,62 veces | — | — |",
            ],
        ),
        "110.1 µs",
    ),
    (
        "D",
        "ko",
        SM,
        table(
            "ko",
            KO_TH,
            [
                "| DRAM 트래픽 | 244 MB | 248 MB | 1.02 GB |",
                "| 커널 시간 | 68.0 µs | 110.1 µs | 353.0 µs |",
                "| torch 대비 속도 향상 | 1.62배 | — | — |",
            ],
        ),
        None,
    ),
    (
        "D",
        "ko",
        SM,
        table(
            "ko",
            KO_TH,
            [
                "| DRAM 트래픽 | 244 MB | 248 MB | 244 MB |",
                "| torch 대비 속도 향상 | 1.62배 | — | — |",
            ],
        ),
        "1.02 GB",
    ),
    (
        "D",
        "ko",
        SM,
        table(
            "ko",
            KO_TH,
            [
                "| DRAM 트래픽 | 244 MB | 248 MB | 1.02 GB |",
                "| 커널 수 | 3 | 1 | 5 |",
                "| torch 대비 속도 향상 | 1.62배 | — | — |",
            ],
        ),
        "1 (kernels",
    ),
    (
        "D",
        "ko",
        SM,
        table(
            "ko",
            KO_TH,
            [
                "| DRAM 트래픽 | 244 MB | 248 MB | 1.02 GB |",
                "| 커널 수 | 1 | 1 | 5 |",
                "| torch 대비 속도 향상 | 1.62배 | — | — |",
            ],
        ),
        None,
    ),
    (
        "D",
        "en",
        SM,
        table(
            "en",
            EN_HEAD,
            [
                "| DRAM traffic | 244 MB | 248 MB | 1.02 GB |",
                "| kernels | 1 | 1 | 3 |",
                "| speedup vs torch | 1.62× | — | — |",
            ],
        ),
        "5 (kernels",
    ),
    # -- H. the geometric mean without the word speedup --------------------------------------
    (
        "H",
        "en",
        SM,
        f"Softmax is memory-bound. {FUSED['en']} The geometric mean is 1.65× over torch. {GEMM['en']}",
        None,
    ),
    (
        "H",
        "en",
        SM,
        f"Softmax is memory-bound. {FUSED['en']} The geometric mean is 2.5× over torch. {GEMM['en']}",
        "1.65×",
    ),
    (
        "H",
        "en",
        SM,
        f"Softmax is memory-bound. {FUSED['en']} The geometric mean over the shapes is 2.5×. {GEMM['en']}",
        "Not read — against which",
    ),
    (
        "H",
        "es",
        SM,
        f"El softmax está limitado por memoria. {FUSED['es']} La media geométrica es 1,65 veces frente a torch. {GEMM['es']}",
        None,
    ),
    (
        "H",
        "es",
        SM,
        f"El softmax está limitado por memoria. {FUSED['es']} La media geométrica es de 2,5 veces frente a torch. {GEMM['es']}",
        "1.65×",
    ),
    (
        "H",
        "ko",
        SM,
        f"소프트맥스는 메모리 바운드입니다. {FUSED['ko']} 기하 평균은 torch 대비 1.65배입니다. {GEMM['ko']}",
        None,
    ),
    (
        "H",
        "ko",
        SM,
        f"소프트맥스는 메모리 바운드입니다. {FUSED['ko']} 기하 평균은 torch 대비 2.5배입니다. {GEMM['ko']}",
        "1.65×",
    ),
    # -- F. numbers ------------------------------------------------------------------------
    (
        "F",
        "ko",
        SM,
        f"{KO_HEAD} 제 커널은 약 2억 4400만 바이트만 옮기고 torch보다 1.62배 빠릅니다. {GEMM['ko']}",
        None,
    ),
    (
        "F",
        "ko",
        SM,
        f"{KO_HEAD} 제 커널은 약 24억 바이트를 옮기고 torch보다 1.62배 빠릅니다. {GEMM['ko']}",
        "244 MB",
    ),
    (
        "F",
        "ko",
        SM,
        f"{KO_HEAD} DRAM 트래픽은 244 MB이고 torch보다 1.62배 빠릅니다. 그중 쓰기는 약 1억 1000만 바이트입니다. {GEMM['ko']}",
        None,
    ),
    (
        "F",
        "ko",
        SM,
        f"{KO_HEAD} DRAM 트래픽은 244 MB이고 torch보다 1.62배 빠릅니다. 그중 쓰기는 약 11억 바이트입니다. {GEMM['ko']}",
        "110 MB",
    ),
    (
        "F",
        "ko",
        SM,
        f"{KO_HEAD} 나이브 버전은 10억 바이트를 옮기고, 제 커널은 244 MB만 옮기며 torch보다 1.62배 빠릅니다. {GEMM['ko']}",
        None,
    ),
    (
        "F",
        "es",
        RMS,
        f"{RMS_HEAD['es']} y tarda 0,0369 ms. Es 1,24 veces más rápido que torch. {GEMM['es']}",
        None,
    ),
    (
        "F",
        "es",
        RMS,
        f"{RMS_HEAD['es']} y tarda 0,0569 ms. Es 1,24 veces más rápido que torch. {GEMM['es']}",
        "36.9 µs",
    ),
    (
        "F",
        "en",
        RMS,
        f"{RMS_HEAD['en']} and takes 0.0369 ms. It is 1.24× faster than torch. {GEMM['en']}",
        None,
    ),
    (
        "F",
        "en",
        RMS,
        f"{RMS_HEAD['en']} and takes 0.0569 ms. It is 1.24× faster than torch. {GEMM['en']}",
        "36.9 µs",
    ),
]


@pytest.mark.parametrize(("cls", "lang", "name", "text", "names"), CASES)
def test_case(cls: str, lang: str, name: str, text: str, names: str | None) -> None:
    got = check(text, name)
    if names is None:
        assert got.backed, (cls, lang, got.messages)
    else:
        assert not got.backed, (cls, lang, text)
        assert any(names in m for m in got.messages), (cls, lang, got.messages)


# the report's own texts of each class, with the verdict a reader would give
REPORTED = {
    "en-b23": "mechanism",
    "ko-t08": None,
    "es-b14": "1.02 GB",
    "es-t08": None,
    "es-t10": None,
    "es-t12": None,
    "ko-b21": "110 MB",
    "ko-b11": "244 MB",
    "en-t12": None,
    "en-b06": "1.62×",
    "ko-b06": "1 (kernels",
}


@pytest.mark.parametrize("case_id", sorted(REPORTED))
def test_report_case(case_id: str) -> None:
    case = report_case(case_id)
    got = check(str(case["text"]), str(case["grading"]))
    names = REPORTED[case_id]
    if names is None:
        assert got.backed, (case_id, got.messages)
    else:
        assert not got.backed, case_id
        assert any(names in m for m in got.messages), (case_id, got.messages)
