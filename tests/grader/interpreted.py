"""Run a script in a fresh Python process, under the Triton interpreter (CPU only) or with its
real compiler, for tests whose subject patches Triton or loads a kernel file: the test process
stays untouched."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_interpreted(script: str, *args: str, timeout: float = 300) -> Any:
    """The JSON the script printed last."""
    return run_script(script, *args, interpret=True, timeout=timeout)


def run_script(
    script: str, *args: str, interpret: bool, timeout: float = 300, cwd: Path | None = None
) -> Any:
    """The JSON the script printed last; under the interpreter, or (interpret=False) with
    Triton's real compiler, TRITON_INTERPRET removed from the environment."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    if interpret:
        env.update(TRITON_INTERPRET="1", CUDA_VISIBLE_DEVICES="")
    proc = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=timeout,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])
