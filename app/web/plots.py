"""Plots as inline SVG, drawn by matplotlib (never hand-built SVG)."""

from __future__ import annotations

import io
from datetime import datetime
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

COLORS = {"submission": "#d62728", "torch": "#1f77b4", "naive": "#7f7f7f", "compile": "#2ca02c"}


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :]


def roofline(benchmark: dict[str, Any]) -> str:
    """Effective bandwidth of yours and each baseline per shape, under the measured ceiling."""
    fig, ax = plt.subplots(figsize=(7, 3.6))
    shapes = benchmark["shapes"]
    for impl in shapes[0]["times_us"]:
        xs, ys = [], []
        for i, s in enumerate(shapes):
            t = s["times_us"].get(impl)
            if t:
                xs.append(i)
                ys.append(s["minimal_bytes"] / (t * 1e-6) / 1e9)
        ax.plot(
            xs,
            ys,
            "o-" if impl == "submission" else "s--",
            label=impl,
            color=COLORS.get(impl),
            markersize=7 if impl == "submission" else 5,
        )
    ax.axhline(benchmark["peak_gbps"], color="black", linewidth=1.2)
    ax.text(
        len(shapes) - 1,
        benchmark["peak_gbps"] * 0.97,
        f"measured ceiling {benchmark['peak_gbps']:.0f} GB/s",
        ha="right",
        va="top",
        fontsize=8,
    )
    ax.set_xticks(range(len(shapes)), [s["name"] for s in shapes], rotation=15, fontsize=8)
    ax.set_ylabel("effective GB/s (minimal bytes / time)")
    ax.set_ylim(0, benchmark["peak_gbps"] * 1.1)
    ax.set_title(f"Bandwidth roofline on {benchmark['gpu']}", fontsize=10)
    ax.legend(fontsize=8, loc="lower left")
    ax.grid(alpha=0.3)
    return _svg(fig)


def over_time_by(series: dict[str, list[tuple[datetime, float]]], ylabel: str, title: str) -> str:
    """One line per checkpoint (a level on one is not a level on another)."""
    fig, ax = plt.subplots(figsize=(7, 2.8))
    for name, points in series.items():
        xs, ys = zip(*points, strict=True)
        ax.plot(xs, ys, "o-", label=name)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.autofmt_xdate()
    return _svg(fig)


def distribution(values: list[float], title: str) -> str:
    fig, ax = plt.subplots(figsize=(7, 2.6))
    ax.hist(values, bins=max(5, min(30, len(values))), color=COLORS["torch"], edgecolor="white")
    ax.axvline(1.0, color="black", linewidth=1)
    ax.set_xlabel("speedup over the baseline")
    ax.set_ylabel("students")
    ax.set_title(title, fontsize=10)
    return _svg(fig)


def climb(
    points: list[tuple[int, float, int | None]],
    ceiling: float,
    baselines: dict[str, float],
    title: str,
) -> str:
    """A student's versions of a kernel on the bandwidth roofline: each GPU grading's
    effective GB/s at the course's shape (labelled vN, with its level), under the measured
    copy ceiling, beside the baselines' GB/s there."""
    fig, ax = plt.subplots(figsize=(7, 3.4))
    xs = [v for v, _, _ in points]
    ys = [g for _, g, _ in points]
    ax.plot(xs, ys, "o-", color=COLORS["submission"], label="your versions", markersize=7)
    for v, g, level in points:
        ax.annotate(
            f"v{v}" + (f" · L{level}" if level is not None else ""),
            (v, g),
            textcoords="offset points",
            xytext=(0, -14),
            ha="center",
            fontsize=7,
        )
    for impl, gbps in baselines.items():
        ax.axhline(gbps, color=COLORS.get(impl, "#7f7f7f"), linestyle="--", linewidth=1, label=impl)
    ax.axhline(ceiling, color="black", linewidth=1.2)
    ax.set_xlim(xs[0] - 0.5, xs[-1] + 0.5)
    ax.text(
        xs[0] - 0.45,
        ceiling * 1.015,
        f"measured copy ceiling {ceiling:.0f} GB/s",
        ha="left",
        va="bottom",
        fontsize=8,
    )
    ax.set_xticks(xs, [f"v{v}" for v in xs], fontsize=8)
    ax.set_xlabel("your submissions to this checkpoint, in order")
    ax.set_ylabel("effective GB/s")
    ax.set_ylim(0, ceiling * 1.12)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(alpha=0.3)
    return _svg(fig)


def levels(points: list[tuple[int, int]], title: str) -> str:
    """Level by version, for one checkpoint."""
    fig, ax = plt.subplots(figsize=(7, 2.2))
    xs = [v for v, _ in points]
    ax.step(xs, [lv for _, lv in points], where="post", color=COLORS["submission"])
    ax.plot(xs, [lv for _, lv in points], "o", color=COLORS["submission"])
    ax.set_yticks(range(5))
    ax.set_ylim(-0.3, 4.3)
    ax.set_xticks(xs, [f"v{v}" for v in xs], fontsize=7)
    ax.set_ylabel("level")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    return _svg(fig)
