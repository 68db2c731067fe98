"""What a grading will do, decided before anything runs: the correctness runs (`runs.py`), the
benchmark's shapes (`shapes.py`), the parent's input draws (`inputs.py`). Imports nothing of
`grader.sandbox`, `grader.judge` or `grader.gpu`."""
