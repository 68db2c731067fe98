"""Nsight Compute evidence: which kernels each implementation launched, the DRAM bytes they
read and wrote, the DRAM throughput they reached (% of peak), their achieved occupancy and L2
hit rate, read by `ncu` from the hardware counters, on the checkpoint's profile shapes.

`ncu` runs inside the sandbox (it must share the submission's namespaces) and writes its report
into a folder the parent made; the parent opens it without following links, copies it out, and
reads it with `ncu --import … --csv --page raw` itself.
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

from grader.models import BenchmarkResult, ImplTotals, KernelMetrics, ProfileResult
from grader.text import untrusted

METRICS = [
    "gpu__time_duration.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__warps_active.avg.pct_of_peak_sustained_active",  # achieved occupancy
    "lts__t_bytes.sum",
    "lts__t_sector_hit_rate.pct",  # L2 hit rate
    "launch__registers_per_thread",
]
# Collected only for a compute-bound checkpoint (one that declares its FLOPs): the tensor pipe's
# active cycles and the SMs' throughput. On an H200 (2026-12-01, benchmarks/results/
# 2026-12-01-h200-compute-probe.md) a Triton GEMM's tensor pipe was active 75.7 % of its
# active cycles, cuBLAS's 94.9 %. A memory-bound checkpoint's profile is left as it was.
TENSOR_PIPE = "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"
SM_THROUGHPUT = "sm__throughput.avg.pct_of_peak_sustained_elapsed"
COMPUTE_METRICS = [TENSOR_PIPE, SM_THROUGHPUT]
_IMPL = re.compile(r"kgrade:(\w+)")
# The submission's profiled kernels must account for at least this share of its benchmarked
# time on the same shape (what the references' kernels account for: docs/PERFORMANCE.md, "The
# figures behind the code's comments").
MIN_ACCOUNTED = 0.5
# A timed call cannot take less than its kernels do: every honest timing is above Nsight's sum
# of the same kernels' durations at the same shape (the timed call adds launch gaps; the
# figures: docs/PERFORMANCE.md), so a timing this far below it is not believed; and a
# baseline's time (the parent's) more than this far above its Nsight measurement says the
# timing went wrong.
TIMED_BELOW_PROFILE = 0.9
BASELINE_ABOVE_PROFILE = 1.5
MAX_REPORT = 512 << 20


class ProfileError(RuntimeError):
    pass


def ncu_path() -> str | None:
    return shutil.which("ncu")


def install_dirs(ncu: str) -> list[str]:
    """Folders outside /usr to mount for ncu: its real install directory, and NVIDIA's /opt
    tree, where the toolkit's `ncu` wrapper may point."""
    dirs = [str(Path(os.path.realpath(ncu)).parent)]
    if os.path.isdir("/opt/nvidia"):
        dirs.append("/opt/nvidia")
    return [d for d in dict.fromkeys(dirs) if not d.startswith("/usr/")]


def _args(report: str, *selection: str, compute: bool = False) -> list[str]:
    """Every kernel launched between the child's cudaProfilerStart/Stop, attributed to its
    kgrade:<impl> NVTX range, clocks as they are; `selection`: what to collect; `compute`:
    the compute-bound metrics too."""
    return [
        "--target-processes",
        "all",
        "--profile-from-start",
        "off",
        "--nvtx",
        "--clock-control",
        "none",
        *selection,
        "--metrics",
        ",".join(METRICS + (COMPUTE_METRICS if compute else [])),
        "-f",
        "-o",
        report,
    ]


def metrics_args(report: str, compute: bool = False) -> list[str]:
    """Our metrics on every kernel in a kgrade:<impl> range (the baselines' own run)."""
    return _args(report, compute=compute)


def submission_args(report: str, compute: bool = False) -> list[str]:
    """One run for the submission: `--set full` plus our metrics on every kernel it launches in
    its profiled call (the report a student downloads, and the numbers the grade uses). The
    child profiles that call alone (cudaProfilerStart/Stop around it)."""
    return _args(report, "--set", "full", compute=compute)


def take_report(path: Path, dest: Path, output: str = "") -> Path:
    """Copy a report the sandbox wrote, refusing links and anything that is not a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        said = [ln for ln in output.strip().splitlines() if "==" in ln or "rror" in ln][-4:]
        hint = f"; it said: {' / '.join(said)[:600]}" if said else ""
        raise ProfileError(f"ncu wrote no report ({exc.strerror}){hint}") from exc
    with os.fdopen(fd, "rb") as src:
        st = os.fstat(src.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_REPORT:
            raise ProfileError("the report is not a regular file of sane size")
        dest.parent.mkdir(parents=True, exist_ok=True)
        with open(dest, "wb") as out:
            shutil.copyfileobj(src, out)
    return dest


def _num(value: str) -> float | None:
    value = value.strip().replace(",", "")
    try:
        return float(value)
    except ValueError:
        return None


def parse_raw_csv(text: str) -> list[KernelMetrics]:
    start = text.find('"ID"')
    if start < 0:
        raise ProfileError("ncu printed no kernel table (were counters readable?)")
    rows = list(csv.reader(io.StringIO(text[start:])))
    header, units, body = rows[0], rows[1], rows[2:]
    col = {name: i for i, name in enumerate(header)}
    nvtx = next((i for i, name in enumerate(header) if "Push/Pop" in name), None)

    def get(row: list[str], metric: str) -> float | None:
        i = col.get(metric)
        if i is None or i >= len(row):
            return None
        v = _num(row[i])
        scale = {
            "nsecond": 1,
            "ns": 1,
            "usecond": 1e3,
            "us": 1e3,
            "msecond": 1e6,
            "byte": 1,
            "Kbyte": 1e3,
            "Mbyte": 1e6,
            "Gbyte": 1e9,
        }.get(units[i], 1)
        return None if v is None else v * scale

    kernels = []
    for row in body:
        if len(row) < len(header) // 2:
            continue
        impl = "unknown"
        if nvtx is not None:
            m = _IMPL.search(row[nvtx])
            impl = m.group(1) if m else "unknown"
        regs = get(row, "launch__registers_per_thread")
        kernels.append(
            KernelMetrics(
                impl=impl,
                name=untrusted(row[col["Kernel Name"]], 300) if "Kernel Name" in col else "?",
                duration_us=(get(row, "gpu__time_duration.sum") or 0.0) / 1e3,
                dram_read_bytes=get(row, "dram__bytes_read.sum") or 0.0,
                dram_write_bytes=get(row, "dram__bytes_write.sum") or 0.0,
                dram_pct_of_peak=get(row, "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
                occupancy_pct=get(row, "sm__warps_active.avg.pct_of_peak_sustained_active"),
                registers=int(regs) if regs is not None else None,
                l2_bytes=get(row, "lts__t_bytes.sum"),
                l2_hit_pct=get(row, "lts__t_sector_hit_rate.pct"),
                tensor_pipe_pct=get(row, TENSOR_PIPE),
                sm_throughput_pct=get(row, SM_THROUGHPUT),
            )
        )
    return kernels


def _weighted(ks: list[KernelMetrics], attr: str) -> float | None:
    """A percentage over several kernels: each kernel's, weighted by its duration."""
    have = [(getattr(k, attr), k.duration_us) for k in ks if getattr(k, attr) is not None]
    dur = sum(d for _, d in have)
    return round(sum(v * d for v, d in have) / dur, 1) if have and dur else None


def totals(kernels: list[KernelMetrics]) -> dict[str, ImplTotals]:
    out: dict[str, ImplTotals] = {}
    for impl in dict.fromkeys(k.impl for k in kernels):
        ks = [k for k in kernels if k.impl == impl]
        read = sum(k.dram_read_bytes for k in ks)
        write = sum(k.dram_write_bytes for k in ks)
        out[impl] = ImplTotals(
            kernels=len(ks),
            duration_us=round(sum(k.duration_us for k in ks), 2),
            dram_bytes=read + write,
            dram_read_bytes=read,
            dram_write_bytes=write,
            dram_pct_of_peak=_weighted(ks, "dram_pct_of_peak"),
            occupancy_pct=_weighted(ks, "occupancy_pct"),
            l2_hit_pct=_weighted(ks, "l2_hit_pct"),
            tensor_pipe_pct=_weighted(ks, "tensor_pipe_pct"),
            sm_throughput_pct=_weighted(ks, "sm_throughput_pct"),
        )
    return out


def import_csv(ncu: str, report: Path) -> str:
    proc = subprocess.run(
        [ncu, "--import", str(report), "--csv", "--page", "raw", "--print-units", "base"],
        capture_output=True,
        text=True,
        errors="replace",  # kernel names are the submission's
        timeout=120,
        check=False,
    )
    if proc.returncode != 0:
        raise ProfileError(f"ncu --import failed: {proc.stderr.strip()[-300:]}")
    return proc.stdout


def summary(totals_by_impl: dict[str, ImplTotals]) -> list[str]:
    """'naive: 5 kernels, 1.0 GB of DRAM traffic; yours: 1 kernel, 241 MB'."""
    names = {"submission": "yours", "torch": "PyTorch op", "naive": "naive PyTorch"}
    parts = []
    for impl, t in totals_by_impl.items():
        mb = t.dram_bytes / 1e6
        size = f"{mb / 1e3:.2f} GB" if mb >= 1000 else f"{mb:.0f} MB"
        pct = f", {t.dram_pct_of_peak:.0f} % of peak DRAM throughput" if t.dram_pct_of_peak else ""
        if t.tensor_pipe_pct is not None:
            pct += f", tensor pipe active {t.tensor_pipe_pct:.0f} %"
        parts.append(
            f"{names.get(impl, impl)}: {t.kernels} kernel{'s' if t.kernels != 1 else ''}, "
            f"{size} of DRAM traffic, {t.duration_us:.1f} µs{pct}"
        )
    return parts


def unaccounted(profile: ProfileResult, bench: BenchmarkResult) -> str | None:
    """Why the profile cannot be evidence for the benchmarked time, if it cannot: kernels the
    profiler did not see (a submission that stopped the profiler in its own call) would let
    it quote less DRAM traffic than it moved."""
    mine = profile.totals.get("submission")
    timed = next(
        (s for s in bench.shapes if s.shape == profile.shape and s.dtype == profile.dtype), None
    )
    if mine is None or timed is None or "submission" not in timed.times_us:
        return None
    took = timed.times_us["submission"]
    if mine.duration_us >= MIN_ACCOUNTED * took:
        return None
    return (
        f"Nsight Compute saw {mine.duration_us:.1f} µs of your kernels on {timed.name}, but the "
        f"benchmark timed {took:.1f} µs: the profile does not account for your work, so it is "
        "no evidence for level 3."
    )


def timing_disagrees(profile: ProfileResult, bench: BenchmarkResult) -> list[str]:
    """Reasons no speedup is credited: the timed times against what Nsight Compute measured,
    outside the child, for the same kernels at the same shape."""
    timed = next(
        (s for s in bench.shapes if s.shape == profile.shape and s.dtype == profile.dtype), None
    )
    if timed is None:
        return []
    reasons = []
    for impl, total in profile.totals.items():
        took = timed.times_us.get(impl)
        if took is None or total.duration_us <= 0:
            continue
        who = "your call" if impl == "submission" else f"the {impl} baseline"
        if impl == "submission" and took < TIMED_BELOW_PROFILE * total.duration_us:
            reasons.append(
                f"On {timed.name} the benchmark timed {who} at {took:.1f} µs, but Nsight "
                f"Compute measured {total.duration_us:.1f} µs for its kernels: a timed call "
                "cannot be faster than its kernels, so no speedup is credited."
            )
        elif impl != "submission" and took > BASELINE_ABOVE_PROFILE * total.duration_us:
            reasons.append(
                f"On {timed.name} the benchmark timed {who} at {took:.1f} µs, against "
                f"{total.duration_us:.1f} µs measured by Nsight Compute: the timing is not "
                "trusted, so no speedup is credited."
            )
    return reasons


# The profiled call must read its inputs from DRAM (Nsight flushes the caches before each
# kernel's measurement), so it moves at least this share of the shape's minimal bytes (less
# than all: an output smaller than the L2 may stay in it, unwritten to DRAM, at the end).
MIN_TRAFFIC_SHARE = 0.5
# And the timed call cannot have moved what the profile shows faster than the memory system
# allows (the measured peak, with this slack).
TRAFFIC_SLACK = 1.05


def traffic_disagrees(profile: ProfileResult, bench: BenchmarkResult) -> list[str]:
    """Reasons the profile is not of the work that was timed: the DRAM bytes Nsight saw
    against what the shape's work needs and what the timed time allows."""
    timed = next(
        (s for s in bench.shapes if s.shape == profile.shape and s.dtype == profile.dtype), None
    )
    mine = profile.totals.get("submission")
    if timed is None or mine is None:
        return []
    reasons = []
    need, moved = timed.minimal_bytes, mine.dram_bytes
    took = timed.times_us.get("submission", 0.0)
    if need and moved < MIN_TRAFFIC_SHARE * need:
        reasons.append(
            f"Nsight Compute saw your profiled call on {timed.name} move {moved / 1e6:.1f} MB "
            f"of DRAM, less than {MIN_TRAFFIC_SHARE:.0%} of the {need / 1e6:.1f} MB its inputs "
            "and output take: the profile is not of the work that was timed."
        )
    allowed = took * 1e-6 * bench.peak_gbps * 1e9 * TRAFFIC_SLACK
    if took and bench.peak_gbps and moved > allowed:
        reasons.append(
            f"Nsight Compute saw your call on {timed.name} move {moved / 1e6:.1f} MB of DRAM, "
            f"which the {took:.1f} µs it was timed at cannot move at {bench.peak_gbps:.0f} GB/s "
            f"(at most {allowed / 1e6:.1f} MB): the profile is not of the work that was timed."
        )
    return reasons


def kernel_count_disagrees(
    profile: ProfileResult, kernels: frozenset[str], launches: list[int]
) -> str | None:
    """The file's Triton kernels Nsight saw in the profiled call against the Triton launches
    of its checked calls (`launches`, one count per call): outside their range, the profiled
    call ran another pipeline."""
    if not launches or not kernels or profile.error:
        return None
    seen = sum(1 for k in profile.kernels if k.impl == "submission" and k.name in kernels)
    low, high = min(launches), max(launches)
    if low <= seen <= high:
        return None
    return (
        f"Nsight Compute saw {seen} launch(es) of your Triton kernels in the profiled call on "
        f"{profile.name}, but each of your checked calls launched {low}–{high}: the profile is "
        "not of the work that was timed."
    )


# What a submission's profiled call may launch besides its own Triton kernels: torch's fills
# and copies (torch.zeros, .contiguous(), .to(), torch.arange), and for a checkpoint with an
# epilogue (`allowed_torch_ops`), torch's reductions of that name (MeanOps, sum_functor).
ALLOWED_TORCH_KERNELS = ("fill", "copy", "with_index")  # with_index: torch.arange
EPILOGUE_KERNELS = {"mean": "meanops", "sum": "sum_functor"}


def foreign_kernels(
    profile: ProfileResult, kernels: frozenset[str], epilogue: list[str]
) -> list[str]:
    """Kernels Nsight saw in the submission's profiled call that are neither its Triton
    kernels (by function name) nor a fill, a copy or its checkpoint's epilogue."""
    allowed = [
        *ALLOWED_TORCH_KERNELS,
        *(EPILOGUE_KERNELS[e] for e in epilogue if e in EPILOGUE_KERNELS),
    ]
    return sorted(
        {
            k.name
            for k in profile.kernels
            if k.impl == "submission"
            and k.name not in kernels
            and not any(a in k.name.lower() for a in allowed)
        }
    )
