"""KGRADE_GPU_PROFILE: Nsight Compute always, never, or only for submissions with an
explanation (the only ones that can reach level 3)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app import grading
from app.settings import Settings


@pytest.mark.parametrize(
    ("value", "without", "with_explanation"),
    [("true", True, True), ("false", False, False), ("explained", False, True)],
)
def test_gpu_profile_policy(
    value: str, without: bool, with_explanation: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KGRADE_GPU_PROFILE", value)
    s = Settings()
    assert grading.options(s, "cuda").profile is without
    assert grading.options(s, "cuda", explanation="fused: 1 kernel").profile is with_explanation
    # the CLI's --no-profile still wins
    assert grading.options(s, "cuda", explanation="x", profile=False).profile is False


def test_an_unknown_gpu_profile_policy_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KGRADE_GPU_PROFILE", "sometimes")
    with pytest.raises(ValidationError):
        Settings()
