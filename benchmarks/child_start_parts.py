"""Where a sandboxed child's start goes, outside the sandbox, in one fresh process: the steps of
grader/sandbox/harness/child.py before it reads its job, each timed. For the CPU precheck run it
with CUDA_VISIBLE_DEVICES= TRITON_INTERPRET=1 (what the grader gives its precheck child).

    python3 benchmarks/child_start_parts.py [SUBMISSION.py]
"""

import sys
import time

t0 = time.monotonic()
marks: list[tuple[str, float]] = []


def mark(name: str) -> None:
    marks.append((name, time.monotonic()))


import torch  # noqa: E402

mark("import torch")
import triton  # noqa: E402
import triton.language  # noqa: E402, F401

mark("import triton")
sys.path.insert(0, "grader/sandbox")
from harness import guards, wire  # noqa: E402, F401

mark("import harness")
counter, forcer = guards.LaunchCounter(), guards.ConfigForcer()
guards.install(counter, forcer)
mark("guards.install")
with guards.TorchGuard(set(), 0.0):
    torch.empty(1).add(1)
mark("first op under the guard")
if len(sys.argv) > 1:
    import importlib.util

    spec = importlib.util.spec_from_file_location("submission", sys.argv[1])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    mark("import the submission")
last = t0
for name, t in marks:
    print(f"{name}: {t - last:.2f} s")
    last = t
print(f"in all: {last - t0:.2f} s")
