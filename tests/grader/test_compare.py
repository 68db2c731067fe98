"""The comparison: allclose, NaN and ±Inf matched exactly, messages that point at the fault."""

import torch

from grader.compare import compare
from grader.models import Tolerance

TOL = Tolerance(atol=1e-5, rtol=1e-5)


def test_equal_tensors_pass_with_zero_error() -> None:
    x = torch.randn(3, 7)
    c = compare(x.clone(), x, TOL)
    assert c.passed and c.max_abs_err == 0.0


def test_error_within_tolerance_passes_and_is_reported() -> None:
    x = torch.randn(3, 7)
    c = compare(x + 1e-7, x, TOL)
    assert c.passed and 0 < c.max_abs_err < 1e-6


def test_error_outside_tolerance_names_the_first_element() -> None:
    x = torch.zeros(2, 5)
    y = x.clone()
    y[1, 3] = 0.5
    c = compare(y, x, TOL)
    assert not c.passed
    assert "row 1, column 3" in c.message and c.max_abs_err == 0.5


def test_nan_where_reference_is_finite_fails() -> None:
    x = torch.zeros(4)
    y = x.clone()
    y[2] = float("nan")
    c = compare(y, x, TOL)
    assert not c.passed and "NaN" in c.message


def test_nan_must_match_exactly() -> None:
    ref = torch.tensor([float("nan"), 1.0])
    assert compare(ref.clone(), ref, TOL).passed
    c = compare(torch.tensor([0.0, 1.0]), ref, TOL)
    assert not c.passed and "should be NaN" in c.message


def test_infinity_sign_must_match() -> None:
    ref = torch.tensor([float("inf"), 1.0])
    assert compare(ref.clone(), ref, TOL).passed
    assert not compare(torch.tensor([-float("inf"), 1.0]), ref, TOL).passed
    assert not compare(torch.tensor([1e30, 1.0]), ref, TOL).passed


def test_shape_and_dtype_mismatch_fail_with_a_message() -> None:
    ref = torch.zeros(3, 4)
    assert "shape" in compare(torch.zeros(4, 3), ref, TOL).message
    assert "dtype" in compare(torch.zeros(3, 4, dtype=torch.float16), ref, TOL).message


def test_zero_dim_outputs_compare() -> None:
    ref = torch.tensor(2.5)
    assert compare(torch.tensor(2.5), ref, TOL).passed
    assert "the scalar" in compare(torch.tensor(3.0), ref, TOL).message
