"""On a GPU host: the worker's Nsight Compute check profiles a kernel for real. Where ncu reads
the counters (the H200 host) it says so; where the driver restricts profiling it names
ERR_NVGPUCTRPERM. Either way the check must end with one of those, not a failure of its own."""

from __future__ import annotations

import shutil

import pytest
import torch

from grader.gpu import ncu_check

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
    pytest.mark.skipif(shutil.which("ncu") is None, reason="needs ncu on PATH"),
]


def test_the_check_profiles_a_kernel_or_names_the_restriction() -> None:
    got = ncu_check.check()
    print(got)
    if got.can_profile:
        assert got.reason.startswith("ncu 20") and got.reason.endswith("reads the GPU's counters")
    else:
        assert got.reason == ncu_check.PERMISSION, got.reason
