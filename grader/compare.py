"""Comparing a submission's output with the reference, in the trusted parent."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from grader.models import Tolerance


@dataclass
class Comparison:
    passed: bool
    max_abs_err: float | None
    message: str


def _where(t: torch.Tensor, flat_index: int) -> str:
    if t.dim() == 0:
        return "the scalar"
    idx = []
    for size in reversed(t.shape):
        idx.append(flat_index % size)
        flat_index //= size
    idx.reverse()
    if t.dim() == 2:
        return f"row {idx[0]}, column {idx[1]}"
    return "index [" + ", ".join(map(str, idx)) + "]"


def _fmt(v: float) -> str:
    return f"{v:.6g}"


def compare(out: torch.Tensor, ref: torch.Tensor, tol: Tolerance) -> Comparison:
    """allclose with NaN and ±Inf required to match exactly, and a message that points at the
    first wrong element."""
    if tuple(out.shape) != tuple(ref.shape):
        return Comparison(False, None, f"expected shape {tuple(ref.shape)}, got {tuple(out.shape)}")
    if out.dtype != ref.dtype:
        return Comparison(False, None, f"expected dtype {ref.dtype}, got {out.dtype}")
    if ref.numel() == 0:
        return Comparison(True, 0.0, "")
    o = out.to(torch.float64).flatten()
    r = ref.to(torch.float64).flatten()
    o_nan, r_nan = torch.isnan(o), torch.isnan(r)
    o_inf, r_inf = torch.isinf(o), torch.isinf(r)
    finite = ~(r_nan | r_inf) & ~(o_nan | o_inf)
    err = (o - r).abs()
    max_err = float(err[finite].max()) if bool(finite.any()) else 0.0

    bad_nan = o_nan != r_nan
    if bool(bad_nan.any()):
        i = int(torch.nonzero(bad_nan)[0])
        count = int(bad_nan.sum())
        if bool(o_nan[i]):
            what = (
                f"{count} element(s) are NaN where the reference is finite (first at "
                f"{_where(ref, i)}, expected {_fmt(float(r[i]))}). Outputs are pre-filled with "
                "NaN, so an element your kernel never wrote shows up as NaN; so does an exp() "
                "that overflowed"
            )
        else:
            what = (
                f"{count} element(s) should be NaN but are not (first at {_where(ref, i)}, "
                f"got {_fmt(float(o[i]))})"
            )
        return Comparison(False, None, what)
    bad_inf = (o_inf | r_inf) & (o != r)
    if bool(bad_inf.any()):
        i = int(torch.nonzero(bad_inf)[0])
        return Comparison(
            False,
            None,
            f"infinity mismatch at {_where(ref, i)}: expected {_fmt(float(r[i]))}, "
            f"got {_fmt(float(o[i]))}",
        )
    limit = tol.atol + tol.rtol * r.abs()
    wrong = finite & (err > limit)
    if bool(wrong.any()):
        i = int(torch.nonzero(wrong)[0])
        count = int(wrong.sum())
        return Comparison(
            False,
            max_err,
            f"{count} of {r.numel()} elements outside atol={tol.atol:g}, rtol={tol.rtol:g} "
            f"(max abs error {_fmt(max_err)}; first at {_where(ref, i)}: expected "
            f"{_fmt(float(r[i]))}, got {_fmt(float(o[i]))})",
        )
    return Comparison(True, max_err if math.isfinite(max_err) else None, "")
