"""Comparing a submission's output with the reference, in the trusted parent."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import torch

from grader.models import Tolerance

# Elements per thread in one chunk of the check: float64 temporaries of 512 kB per thread stay
# in cache, and each op still spreads over every thread torch has (a chunk of 1 << 16 in all
# used 2 of an H200 host's 32 cores: the child then waited on the parent to read its outputs).
CHUNK_PER_THREAD = 1 << 16


@dataclass
class Comparison:
    passed: bool
    max_abs_err: float | None
    message: str
    # what was wrong, for views that may not show the message (a hidden case): the keys of
    # grader/judge/hidden.FAILURES
    kind: str = ""
    # elements NaN or infinite where the reference is not, or the other way round: no error
    # can be said for them (a "max abs err" of the finite ones alone read as 0 on a page)
    nonfinite: int = 0


def _where(shape: tuple[int, ...], flat_index: int) -> str:
    if len(shape) == 0:
        return "the scalar"
    idx = []
    for size in reversed(shape):
        idx.append(flat_index % size)
        flat_index //= size
    idx.reverse()
    if len(shape) == 2:
        return f"row {idx[0]}, column {idx[1]}"
    return "index [" + ", ".join(map(str, idx)) + "]"


def _fmt(v: float) -> str:
    return f"{v:.6g}"


def compare_sampled(
    values: torch.Tensor, ref: torch.Tensor, positions: torch.Tensor, tol: Tolerance
) -> Comparison:
    """Compare a sample of an output (the elements at `positions` of the flattened output,
    positions chosen secretly by the parent) with the same elements of the reference."""
    if values.shape != positions.shape:
        return Comparison(False, None, "the sampled output has the wrong size", "shape")
    picked = ref.flatten()[positions]
    result = compare(values, picked, tol, positions=positions, shape=tuple(ref.shape))
    if result.message:
        result.message += f" (checked on {positions.numel()} sampled elements)"
    return result


def compare(
    out: torch.Tensor,
    ref: torch.Tensor,
    tol: Tolerance,
    positions: torch.Tensor | None = None,
    shape: tuple[int, ...] | None = None,
    chunk: int | None = None,
) -> Comparison:
    """allclose with NaN and ±Inf required to match exactly, and a message that points at the
    first wrong element (of `shape`, through `positions`, when comparing a sample)."""
    if tuple(out.shape) != tuple(ref.shape):
        return Comparison(
            False,
            None,
            f"wrong shape: expected {tuple(ref.shape)}, got {tuple(out.shape)}",
            "shape",
        )
    if out.dtype != ref.dtype:
        return Comparison(
            False, None, f"wrong dtype: expected {ref.dtype}, got {out.dtype}", "shape"
        )
    if ref.numel() == 0:
        return Comparison(True, 0.0, "")
    full_shape = shape if shape is not None else tuple(ref.shape)

    def where(i: int) -> str:
        return _where(full_shape, int(positions[i]) if positions is not None else i)

    chunk = chunk or CHUNK_PER_THREAD * max(1, torch.get_num_threads())
    passed, max_err = _passes(out.flatten(), ref.flatten(), tol, chunk)
    if passed:
        return Comparison(True, max_err if math.isfinite(max_err) else None, "")
    return _explain(out.to(torch.float64).flatten(), ref.to(torch.float64).flatten(), tol, where)


def _passes(out: torch.Tensor, ref: torch.Tensor, tol: Tolerance, chunk: int) -> tuple[bool, float]:
    """The check alone, a chunk at a time: its float64 temporaries stay small and in cache
    (whole-tensor temporaries of a 8192×4096 output were 256 MB each, 2.7 CPU-seconds a
    compare). Elementwise, so exactly the verdict of the whole-tensor check; the max error
    of the finite elements on the way."""
    max_err = 0.0
    for start in range(0, ref.numel(), chunk):
        # copies (also of float64 inputs): the usual case below works in place
        o = out[start : start + chunk].to(torch.float64, copy=True)
        r = ref[start : start + chunk].to(torch.float64, copy=True)
        if bool(torch.isfinite(o).all()) and bool(torch.isfinite(r).all()):  # the usual case
            err = o.sub_(r).abs_()
            if bool((err > r.abs_().mul_(tol.rtol).add_(tol.atol)).any()):
                return False, 0.0
            max_err = max(max_err, float(err.max()))
            continue
        o_nan, r_nan = torch.isnan(o), torch.isnan(r)
        o_inf, r_inf = torch.isinf(o), torch.isinf(r)
        if bool((o_nan != r_nan).any()) or bool(((o_inf | r_inf) & (o != r)).any()):
            return False, 0.0
        finite = ~(r_nan | r_inf | o_nan | o_inf)
        err = (o - r).abs()
        if bool((finite & (err > tol.atol + tol.rtol * r.abs())).any()):
            return False, 0.0
        if bool(finite.any()):
            max_err = max(max_err, float(err[finite].max()))
    return True, max_err


def _explain(
    o: torch.Tensor, r: torch.Tensor, tol: Tolerance, where: Callable[[int], str]
) -> Comparison:
    """The whole-tensor check with its message: which elements, how many, the first one."""
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
                f"{count} of {r.numel()} elements are NaN where the reference is finite (first "
                f"at {where(i)}, expected {_fmt(float(r[i]))})"
            )
        else:
            what = (
                f"{count} of {r.numel()} elements should be NaN but are not (first at "
                f"{where(i)}, got {_fmt(float(o[i]))})"
            )
        return Comparison(False, None, what, "nan", count)
    bad_inf = (o_inf | r_inf) & (o != r)
    if bool(bad_inf.any()):
        i = int(torch.nonzero(bad_inf)[0])
        count = int(bad_inf.sum())
        return Comparison(
            False,
            None,
            f"{count} of {r.numel()} elements are infinite where the reference is not, or the "
            f"other way round (first at {where(i)}: expected {_fmt(float(r[i]))}, "
            f"got {_fmt(float(o[i]))})",
            "inf",
            count,
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
            f"(max abs error {_fmt(max_err)}; first at {where(i)}: expected "
            f"{_fmt(float(r[i]))}, got {_fmt(float(o[i]))})",
            "values",
        )
    return Comparison(True, max_err if math.isfinite(max_err) else None, "")
