"""Run a script in a fresh Python process under the Triton interpreter (CPU only), for tests
whose subject patches Triton or loads a kernel file: the test process stays untouched."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any


def run_interpreted(script: str, *args: str, timeout: float = 300) -> Any:
    """The JSON the script printed last."""
    env = {**os.environ, "TRITON_INTERPRET": "1", "CUDA_VISIBLE_DEVICES": ""}
    proc = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])
