"""The GPU stage of a correct grading: the benchmark planned and judged (`benchmark.py`), its
rounds taken in turns with the child (`turns.py`), bandwidth calibration (`calibrate.py`), the
torch.compile baseline (`compiled.py`), Nsight Compute (`nsight.py`), the GPU table
(`gpus.py`), and the stage itself (`gpu_stage.py`). May import `grader.judge`; nothing below
imports it."""
