"""Can Nsight Compute read this GPU's performance counters here, as a grading's replay does?
A GPU worker asks once at its start (and says so with its heartbeat): without that, no grading
of it can reach level 3.

The check profiles one tiny torch kernel under `ncu` in a child process, trusted code only (no
submission is involved), inside the sandbox, as a grading's replay runs ncu: bubblewrap with
the interpreter, its packages and ncu's folders bound in at their own paths, as `nobody` with
every capability dropped (grader/sandbox/bwrap.py), so that a container's CAP_SYS_ADMIN, which
does not reach the sandbox, cannot make it pass, and where the checkout or its venv lives (a
0700 home, say) makes no difference: the sandbox binds them in as it does for a grading.
It reads what ncu said: the counters read, or the
driver's profiling restriction (ERR_NVGPUCTRPERM: the host must set the nvidia module option
NVreg_RestrictProfilingToAdminUsers=0, docs/DEPLOY.md), or no ncu, or no GPU."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from grader.gpu import nsight
from grader.sandbox import bwrap

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
NOBODY = bwrap.NOBODY


@dataclass(frozen=True)
class NcuCheck:
    can_profile: bool
    reason: str  # what ncu can do here, or why not: one line for /api/health


def check(timeout: float = 300.0) -> NcuCheck:
    """Profile one kernel under ncu, in the sandbox, if there is one, and say what came of it."""
    ncu = shutil.which("ncu")
    if ncu is None:
        return NcuCheck(False, "ncu is not installed (no `ncu` on the worker's PATH)")
    version = _version(ncu)
    try:
        argv = in_sandbox([ncu, "--metrics", METRIC, "--csv", sys.executable, "-c", PROBE])
    except bwrap.SandboxUnavailable as exc:
        return NcuCheck(False, f"the sandbox cannot run here, so neither can ncu in it: {exc}")
    try:
        proc = subprocess.run(
            argv, capture_output=True, text=True, errors="replace", timeout=timeout, cwd="/"
        )
    except subprocess.TimeoutExpired:
        return NcuCheck(False, f"ncu {version} did not finish its check within {timeout:.0f} s")
    except OSError as exc:
        return NcuCheck(False, f"ncu cannot be run: {exc.strerror or exc}")
    return read(proc.returncode, proc.stdout + "\n" + proc.stderr, version)


def in_sandbox(argv: list[str], gpu: bool = True) -> list[str]:
    """`argv` as the sandbox runs a grading's ncu: bubblewrap, as nobody with no capabilities,
    the interpreter and its packages bound in at their paths, with ncu's install folders
    (grader/gpu/nsight.py) and, with `gpu`, the GPU's devices."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp"}
    env |= {"LANG": "C.UTF-8", "USER": "nobody", "PYTHONDONTWRITEBYTECODE": "1"}
    if "CUDA_VISIBLE_DEVICES" in os.environ:
        env["CUDA_VISIBLE_DEVICES"] = os.environ["CUDA_VISIBLE_DEVICES"]
    ncu_dirs = nsight.install_dirs(argv[0]) if os.path.isabs(argv[0]) else []
    mounts = [bwrap.Mount(Path(d), d) for d in ncu_dirs]
    spec = bwrap.Spec(argv=argv, env=env, mounts=mounts, gpu=gpu)
    return bwrap.bwrap_argv(spec, bwrap.Limits())


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
