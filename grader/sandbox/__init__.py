"""Where the submission runs: bubblewrap, rlimits and the watchdog (`bwrap.py`), the memory
cgroup (`cgroup.py`), the size-capped folders (`folders.py`), the job folder and the child's
command (`job.py`), a child started before its job (`early.py`), and `harness/`, the only code
mounted into the sandbox. Imports `grader.plan`, nothing of `grader.judge` or `grader.gpu`."""

from grader.sandbox import problem as problem  # connects a checkpoint's problem.py to its sandbox
