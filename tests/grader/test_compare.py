"""The comparison: allclose, NaN and ±Inf matched exactly, messages that point at the fault."""

import pytest
import torch

from grader.judge.compare import compare
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


@pytest.mark.parametrize("seed", range(40))
def test_the_chunked_check_agrees_with_the_whole_tensor_check(seed: int) -> None:
    """compare() decides a chunk at a time; its verdict and max error must be the whole-tensor
    check's (compare._explain), whatever falls on a chunk boundary."""
    from grader.judge.compare import _explain

    g = torch.Generator().manual_seed(seed)
    n = int(torch.randint(1, 200, (1,), generator=g))
    dtype = [torch.float32, torch.float16, torch.bfloat16][seed % 3]
    ref = torch.randn(n, generator=g).to(dtype)
    out = (ref.float() + 1e-6 * torch.randn(n, generator=g)).to(dtype)
    for _ in range(int(torch.randint(0, 3, (1,), generator=g))):
        i = int(torch.randint(0, n, (1,), generator=g))
        kind = int(torch.randint(0, 5, (1,), generator=g))
        target = out if kind % 2 == 0 else ref
        target[i] = [float("nan"), float("inf"), -float("inf"), 3.0, float("nan")][kind]
    tol = Tolerance(atol=1e-2, rtol=1e-2)
    whole = _explain(out.double(), ref.double(), tol, str)
    for chunk in (1, 7, 64, 1 << 18):
        got = compare(out, ref, tol, chunk=chunk)
        assert got.passed == whole.passed, (chunk, got, whole)
        if whole.passed:
            assert got.max_abs_err == whole.max_abs_err


def test_the_check_leaves_float64_outputs_and_references_as_they_were() -> None:
    ref = torch.randn(1000, dtype=torch.float64)
    out = ref + 1e-9
    before = (out.clone(), ref.clone())
    assert compare(out, ref, TOL).passed
    assert torch.equal(out, before[0]) and torch.equal(ref, before[1])
