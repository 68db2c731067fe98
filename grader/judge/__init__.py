"""What the trusted parent concludes: the static check before anything runs (`static.py`,
`checker.py`, `defines.py`, `allowlist.py`), the child's frames read and compared
(`collect.py`, `compare.py`), the compile check (`kernel_check.py`), the verdict
(`evaluate.py`), the explanation's claims against the facts (`claims.py`, `facts.py`,
`explanation.py`), the level (`rubric.py`) and the report (`report.py`, `casegroups.py`).
Imports `grader.plan` and `grader.sandbox`, nothing of `grader.gpu`."""
