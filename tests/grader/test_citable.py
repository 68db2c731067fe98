"""'What you can cite' built from a real ncu CSV (tests/fixtures/ncu_raw_h200.csv, recorded on
an H200), an explanation written from it checked claim by claim, and the CLI report and web
page that show both. No GPU needed."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from grader.gpu import nsight
from grader.judge import claims, explanation, facts, rubric
from grader.judge.report import render
from grader.models import (
    BenchmarkResult,
    GradeResult,
    ProfileResult,
    Ratio,
    RubricSpec,
    ShapeBenchmark,
    Verdict,
)

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ncu_raw_h200.csv"
# The recording has the baselines' kernels only (5 naive, torch's softmax and the randn that
# drew its input); a submission's single kernel is added here, moving what torch's does.
MINE = (
    '"7","519  ""<default domain>:kgrade:submission:none:none:none:none:none:none"" ",'
    '"softmax_kernel","67,110,912","44,040,192","88.40","33,504","28","89.10"\n'
)
SHAPE = [8192, 4096]  # 67 MB read per kernel: one 8192×4096 bf16 tensor
RUBRIC = RubricSpec(
    explanation_points={
        "mechanism": ["fusion", "fused"],
        "memory_bound": ["memory-bound"],
        "why_not_gemm": ["gemm"],
    }
)


def _profile() -> ProfileResult:
    kernels = [
        k
        for k in nsight.parse_raw_csv(FIXTURE.read_text() + MINE)
        if "distribution" not in k.name  # the input's randn, not torch's softmax
    ]
    return ProfileResult(
        name="course-bf16",
        shape=SHAPE,
        dtype="bfloat16",
        kernels=kernels,
        totals=nsight.totals(kernels),
    )


def _bench() -> BenchmarkResult:
    def shape(name: str, dtype: str, times: dict[str, float]) -> ShapeBenchmark:
        mine = times["submission"]
        speed = {
            n: Ratio(median=t / mine, low=t / mine - 0.02, high=t / mine + 0.02)
            for n, t in times.items()
            if n != "submission"
        }
        nbytes = 2 * 8192 * 4096 * (2 if dtype == "bfloat16" else 4)
        gbps = nbytes / (mine * 1e-6) / 1e9
        return ShapeBenchmark(
            name=name,
            shape=SHAPE,
            dtype=dtype,
            rounds=50,
            times_us=times,
            speedup=speed,
            minimal_bytes=nbytes,
            gbps=round(gbps, 1),
            pct_of_peak=round(100 * gbps / 4460, 1),
        )

    shapes = [
        shape("course-bf16", "bfloat16", {"submission": 34.0, "torch": 55.0, "naive": 190.0}),
        shape("course-fp32", "float32", {"submission": 66.0, "torch": 110.0, "naive": 354.0}),
    ]
    return BenchmarkResult(
        gpu="NVIDIA H200",
        gpu_model="h200",
        peak_gbps=4460,
        peak_source="test",
        baseline="torch",
        shapes=shapes,
        geomean={"torch": Ratio(median=1.63, low=1.6, high=1.66)},
    )


def _result() -> GradeResult:
    profile = _profile()
    return GradeResult(
        checkpoint="c3a-softmax",
        verdict=Verdict.CORRECT,
        level=2,
        device="cuda",
        benchmark=_bench(),
        profile=profile,
        citable=facts.build(_bench(), [profile], "NVIDIA H200"),
    )


def _fact(result: GradeResult, quantity: str, impl: str, label: str = "", versus: str = "") -> str:
    assert result.citable is not None
    return next(
        f.text
        for f in result.citable.facts
        if f.quantity == quantity
        and f.impl == impl
        and f.shape_name == result.citable.shape_name
        and label in f.label
        and (f.versus or "") == versus
    )


def _honest(result: GradeResult) -> str:
    """Written the way a student would, from the 'What you can cite' table."""
    mine = _fact(result, "traffic", "submission", "read + written")
    naive = _fact(result, "traffic", "naive", "read + written")
    ratio = _fact(result, "traffic_ratio", "submission", versus="naive")
    speed = _fact(result, "speedup", "submission", versus="torch")
    occ = _fact(result, "occupancy", "submission")
    return (
        "Softmax is memory-bound, so only the bytes moved matter. My fused kernel reads each "
        f"row once and writes it once: it moves {mine} of DRAM traffic against {naive} for "
        f"the naive version's five kernels, {ratio.replace('×', 'x')} less. Its achieved "
        f"occupancy is {occ}. It is {speed} faster than torch.softmax. I chose a memory-bound "
        "op rather than GEMM because cuBLAS wins dense GEMM on SM_120."
    )


def _level(result: GradeResult, text: str) -> tuple[int, list[str]]:
    check = explanation.check(text, RUBRIC, result.citable)
    result.explanation = check
    return rubric.level(result, check.messages), check.messages


def test_the_citable_table_names_implementation_shape_and_dtype() -> None:
    result = _result()
    cite = result.citable
    assert cite is not None and cite.shape_name == "course-bf16" and cite.dtype == "bfloat16"
    got = {
        (f.quantity, f.impl, f.versus, f.label): f.text
        for f in cite.facts
        if f.shape_name == "course-bf16"
    }
    assert got[("traffic", "submission", None, "DRAM traffic (read + written)")] == "111 MB"
    assert got[("traffic", "naive", None, "DRAM traffic (read + written)")] == "466 MB"
    assert got[("traffic", "naive", None, "DRAM bytes read")] == "336 MB"
    assert got[("kernels", "naive", None, "kernels launched")] == "5"
    assert (
        got[("traffic_ratio", "submission", "naive", "DRAM traffic ratio (theirs ÷ yours)")]
        == "4.20×"
    )
    assert (
        got[("traffic_ratio", "submission", "torch", "DRAM traffic ratio (theirs ÷ yours)")]
        == "1.00×"
    )
    assert got[("occupancy", "submission", None, "achieved occupancy")] == "89 %"
    assert got[("pct_of_peak", "submission", None, "DRAM throughput, % of peak")] == "88 %"
    assert ("time", "submission", None, "kernel time (Nsight)") in got
    assert ("speedup", "submission", "torch", "speedup (their time ÷ yours)") in got
    # the benchmark's other shape is citable too, named as such
    assert any(f.shape_name == "course-fp32" and f.dtype == "float32" for f in cite.facts)
    assert all(f.shape_name and f.impl and f.source for f in cite.facts)


def test_an_explanation_written_from_the_table_reaches_level_3() -> None:
    result = _result()
    level, reasons = _level(result, _honest(result))
    assert level == 3, reasons
    assert result.explanation is not None
    assert all(n["ok"] for n in result.explanation.numbers)
    kinds = {n["kind"] for n in result.explanation.numbers}
    assert {"traffic", "traffic_ratio", "occupancy", "speedup"} <= kinds


def test_the_traffic_figure_off_by_30_percent_fails_once() -> None:
    result = _result()
    text = _honest(result).replace("moves 111 MB", "moves 144 MB")
    level, reasons = _level(result, text)
    assert level == 2
    assert len(reasons) == 1, reasons
    assert "'144 MB'" in reasons[0] and "111 MB" in reasons[0] and "30%" in reasons[0]
    assert "yours" in reasons[0] and "8192×4096 bfloat16" in reasons[0]


def test_the_naive_and_fused_figures_swapped_fail_once_each() -> None:
    result = _result()
    text = (
        _honest(result)
        .replace("moves 111 MB", "moves XX")
        .replace("against 466 MB", "against 111 MB")
    )
    level, reasons = _level(result, text.replace("moves XX", "moves 466 MB"))
    assert level == 2
    assert len(reasons) == 2, reasons
    assert "'466 MB'" in reasons[0] and "measured: 111 MB" in reasons[0]
    assert "'111 MB'" in reasons[1] and "measured: 466 MB" in reasons[1]


def test_citing_only_a_time_fails_for_the_missing_traffic() -> None:
    result = _result()
    text = (
        "Softmax is memory-bound and my fused kernel does one pass instead of GEMM-like "
        "tiling. My kernel takes 34 µs."
    )
    level, reasons = _level(result, text)
    assert level == 2
    assert len(reasons) == 1, reasons
    assert "no checked figure of your kernel's DRAM traffic" in reasons[0]
    assert "111 MB" in reasons[0]  # an example from the table


def test_a_figure_of_another_shape_or_implementation_is_not_accepted() -> None:
    """The bluff of issue 19: a number near some measurement of another kind, implementation
    or shape."""
    result = _result()
    base = _honest(result)
    # the naive version's time quoted as mine
    _, reasons = _level(result, base + " My kernel takes 190 µs.")
    assert len(reasons) == 1 and "measured: 34.0 µs" in reasons[0]
    # the fp32 shape's figure quoted at the course (bf16) shape: wrong there, right at fp32
    _, reasons = _level(result, base + " My kernel takes 66 µs.")
    assert len(reasons) == 1
    level, reasons = _level(result, base + " At 8192×4096 fp32 my kernel takes 66 µs.")
    assert level == 3, reasons
    # DRAM traffic at a shape Nsight did not profile cannot be checked
    _, reasons = _level(result, base + " In fp32 my kernel moves 222 MB.")
    assert len(reasons) == 1 and "measured no DRAM traffic" in reasons[0]


def test_a_negated_claim_is_checked_the_other_way() -> None:
    result = _result()
    level, reasons = _level(result, _honest(result) + " It is not 3x faster than torch.")
    assert level == 3, reasons
    _, reasons = _level(result, _honest(result) + " It is not 1.6x faster than torch.")
    assert len(reasons) == 1 and "but it was measured" in reasons[0]


def test_tolerances_come_from_the_checkpoint() -> None:
    result = _result()
    text = _honest(result) + " Its L2 hit rate is irrelevant; occupancy is about 75 %."
    _, reasons = _level(result, text)
    # a percentage holds within PCT_POINTS points by default (pass 4: 15 % of 92 % let 100 %
    # pass); a checkpoint's own tolerance for it is relative, as it says
    assert len(reasons) == 1 and "points, more than 5" in reasons[0], reasons
    loose = RUBRIC.model_copy(update={"claim_tolerances": {"occupancy": 0.2}})
    assert explanation.check(text, loose, result.citable).backed


def test_the_cli_report_shows_the_table_and_each_claim() -> None:
    result = _result()
    _level(result, _honest(result).replace("moves 111 MB", "moves 144 MB"))
    text = render(result)
    assert "Nsight Compute, course-bf16 · 8192×4096 bfloat16:" in text
    assert "What you can cite (measured on NVIDIA H200):" in text
    assert "course-bf16 · 8192×4096 bfloat16 (Nsight Compute and benchmark):" in text
    table = text.split("What you can cite")[1]
    assert "yours" in table and "naive PyTorch" in table and "PyTorch op" in table
    assert "DRAM traffic (read + written)" in table and "466 MB" in table
    assert "course-fp32 · 8192×4096 float32" in table
    assert "OFF '144 MB' (traffic, submission) vs 111 MB" in text
    assert "ok  '4.20x' (traffic_ratio, submission vs naive) vs 4.20×" in text


def test_the_web_result_page_shows_the_table_next_to_the_explanation() -> None:
    pytest.importorskip("fastapi")
    from app.web import result_view, templating

    result = _result()
    text = _honest(result)
    _level(result, text)
    data = result.model_dump(mode="json")
    sub = SimpleNamespace(id=7, status="done", level=3, stage="gpu", explanation=text)
    view = {"sub": sub, "r": data, "groups": [], "roofline": None, "report": False}
    html = templating.templates.env.get_template("_result.html").render(
        **view, cite_tables=result_view.citable_tables(data)
    )
    assert 'id="cite"' in html and "What you can cite" in html
    assert "course-bf16 · 8192×4096 bfloat16" in html and "466 MB" in html and "4.20×" in html
    assert "Your explanation" in html and "memory-bound, so only the bytes moved" in html
    assert "Nsight Compute · course-bf16 · 8192×4096 bfloat16" in html
    assert "Explanation check: backed" in html


def test_profile_shapes_default_to_the_first_benchmark_shape_and_must_exist() -> None:
    from grader import checkpoints
    from grader.models import CheckpointDef

    softmax = checkpoints.get("c3a-softmax").definition
    assert [(c.name, c.shape, c.dtype) for c in softmax.profile_cases()] == [
        ("course-8192x4096-fp32", [8192, 4096], "float32")
    ]
    data = softmax.model_dump()
    data.pop("profile_shapes")
    assert CheckpointDef.model_validate(data).profile_cases()[0].name == "course-8192x4096-fp32"
    data["profile_shapes"] = ["course-8192x4096-bf16", "course-8192x4096-fp32"]
    assert [c.dtype for c in CheckpointDef.model_validate(data).profile_cases()] == [
        "bfloat16",
        "float32",
    ]
    data["profile_shapes"] = ["no-such-shape"]
    with pytest.raises(ValueError, match="profile_shapes names no benchmark shape"):
        CheckpointDef.model_validate(data)


def test_a_number_at_a_named_case_is_checked_at_that_case_only() -> None:
    result = _result()
    cite = result.citable
    assert cite is not None
    other = next(f for f in cite.facts if f.shape_name not in (cite.shape_name, facts.GEOMEAN))
    here = next(
        f
        for f in cite.facts
        if f.shape_name == cite.shape_name
        and f.quantity == other.quantity
        and f.impl == other.impl
        and f.label == other.label
        and f.versus == other.versus
        and abs(f.value - other.value) > 0.3 * abs(other.value)
    )
    # the course shape's value, claimed at the other case by name: refused
    c = claims.read(f"at {other.shape_name} it is {here.text}", [other.shape_name])
    assert len(c) == 1
    record = explanation.check_claim(c[0], cite, RUBRIC)
    assert not record["ok"], record
    assert record["shape"] == other.shape_name.lower()
