"""One request per drawn case (issue 32's cost): `Checkpoint.draw` answers a case's inputs, its
reference and, for a benchmark shape's first set, its byte and FLOP counts from problem.py's
sandboxed process at once, where make_inputs, reference and each count were a request each
and every input crossed the pipe three or four times. The answer is the same as the separate
requests': same inputs, same reference, same counts, the generator left in the same state."""

from __future__ import annotations

import pytest
import torch

from grader import checkpoints, pipeline
from grader.gpu import benchmark
from grader.plan.shapes import SETS
from grader.sandbox import bwrap, problem

pytestmark = pytest.mark.skipif(bwrap.probe() is not None, reason="no bubblewrap here")


@pytest.mark.parametrize("cid", ["c3a-rmsnorm", "c3a-gemm-e3", "c3a-cross-entropy"])
def test_a_draw_answers_what_the_separate_requests_do(cid: str) -> None:
    ck = problem.attach(checkpoints.get(cid), "cpu", sandboxed=True)
    case = ck.definition.interpreter_cases[-1]
    one, two = torch.Generator().manual_seed(7), torch.Generator().manual_seed(7)
    drawn = ck.draw(case, one, "cpu", counts=True)
    inputs = ck.make_inputs(case, two)
    reference = ck.reference(inputs)
    assert len(drawn.inputs) == len(inputs)
    for a, b in zip(drawn.inputs, inputs, strict=True):
        assert torch.equal(a, b) if isinstance(a, torch.Tensor) else a == b
    assert torch.equal(drawn.reference, reference)
    assert drawn.minimal_bytes == ck.minimal_bytes(inputs, reference)
    assert drawn.flops == ck.flops(inputs, reference)
    assert (drawn.flops is not None) == ck.compute_bound
    assert torch.equal(one.get_state(), two.get_state())  # the draws after it are the same


def test_a_plan_asks_once_per_input_set() -> None:
    ck = problem.attach(checkpoints.get("c3a-softmax"), "cpu", sandboxed=True)
    asked = ck.code.asked  # type: ignore[union-attr]
    asked.clear()
    shapes = benchmark.plan(ck, 1, "cpu")
    runs = pipeline.plan_runs(ck, "cpu", 1)
    assert asked["draw"] == SETS * len(shapes) + len(runs)
    assert not {"make_inputs", "reference", "count"} & set(asked)
    for s in shapes:  # the counts as asked apart
        assert s.minimal_bytes == ck.minimal_bytes(s.sets[0], s.references[0]) > 0
