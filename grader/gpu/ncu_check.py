"""Can Nsight Compute read this GPU's performance counters here, as a grading's replay does?
A GPU worker asks once at its start (and says so with its heartbeat): without that, no grading
of it can reach level 3.

The check profiles one tiny torch kernel under `ncu` in a child process, trusted code only (no
submission is involved), as the sandbox runs ncu: as `nobody` with every capability dropped
(setpriv, where the worker runs as root), so that a container's CAP_SYS_ADMIN, which does not
reach the sandbox, cannot make it pass. It reads what ncu said: the counters read, or the
driver's profiling restriction (ERR_NVGPUCTRPERM: the host must set the nvidia module option
NVreg_RestrictProfilingToAdminUsers=0, docs/DEPLOY.md), or no ncu, or no GPU."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass

METRIC = "gpu__time_duration.sum"
NO_GPU = "KGRADE-NCU-CHECK: no CUDA GPU"
# The child: one kernel on the GPU this process was pinned to (CUDA_VISIBLE_DEVICES).
PROBE = f"""
import sys, torch
if not torch.cuda.is_available():
    print({NO_GPU!r}, flush=True)
    sys.exit(3)
x = torch.ones(4096, device="cuda")
(x + 1).sum().item()
torch.cuda.synchronize()
"""
PERMISSION = (
    "the driver lets only administrators read the GPU's performance counters (ERR_NVGPUCTRPERM):"
    " the host must set the nvidia module option NVreg_RestrictProfilingToAdminUsers=0 (the "
    "sandbox's ncu runs as nobody with no capabilities: a container's --cap-add SYS_ADMIN does "
    "not reach it); docs/DEPLOY.md"
)
NOBODY = 65534


@dataclass(frozen=True)
class NcuCheck:
    can_profile: bool
    reason: str  # what ncu can do here, or why not: one line for /api/health


def check(timeout: float = 300.0) -> NcuCheck:
    """Profile one kernel under ncu, if there is one, and say what came of it."""
    ncu = shutil.which("ncu")
    if ncu is None:
        return NcuCheck(False, "ncu is not installed (no `ncu` on the worker's PATH)")
    version = _version(ncu)
    with tempfile.TemporaryDirectory(prefix="kgrade-ncu-check-") as d:
        os.chmod(d, 0o1777)  # nobody's TMPDIR and HOME
        argv = [*as_sandbox(), ncu, "--metrics", METRIC, "--csv", sys.executable, "-c", PROBE]
        try:
            proc = subprocess.run(
                argv,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=timeout,
                cwd=d,
                env={**os.environ, "TMPDIR": d, "HOME": d},
            )
        except subprocess.TimeoutExpired:
            return NcuCheck(False, f"ncu {version} did not finish its check within {timeout:.0f} s")
        except OSError as exc:
            return NcuCheck(False, f"ncu cannot be run: {exc.strerror or exc}")
    return read(proc.returncode, proc.stdout + "\n" + proc.stderr, version)


def as_sandbox() -> list[str]:
    """The prefix that runs the check as the sandbox runs ncu: as nobody, no capabilities (a
    worker that is not root is already a user without them)."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        return []
    ids = ["--reuid", str(NOBODY), "--regid", str(NOBODY), "--clear-groups"]
    return [setpriv, *ids, "--inh-caps=-all", "--bounding-set=-all", "--"]


def read(returncode: int, output: str, version: str) -> NcuCheck:
    """What ncu's output says of the check."""
    if "ERR_NVGPUCTRPERM" in output:
        return NcuCheck(False, PERMISSION)
    if NO_GPU in output:
        return NcuCheck(False, "no CUDA GPU is visible to this worker")
    if returncode == 0 and METRIC in output:
        return NcuCheck(True, f"ncu {version} reads the GPU's counters")
    said = [ln.strip() for ln in output.splitlines() if "==ERROR==" in ln or "==WARNING==" in ln]
    last = [ln.strip() for ln in output.strip().splitlines() if ln.strip()][-1:]
    hint = " / ".join(said[-2:] or last)[:300]
    return NcuCheck(False, f"ncu {version} could not profile (exit {returncode}): {hint}")


def _version(ncu: str) -> str:
    """The version ncu names itself by ("2025.1.1.0"), or "(version unknown)"."""
    try:
        out = subprocess.run(
            [ncu, "--version"], capture_output=True, text=True, errors="replace", timeout=60
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "(version unknown)"
    found = re.search(r"Version\s+(\d[\w.]*)", out)
    return found.group(1) if found else "(version unknown)"
