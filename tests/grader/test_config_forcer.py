"""The autotune config forcer in the child (grader/sandbox/harness/guards.py): the Nsight replay
runs, per autotuned kernel, the config its autotuner picked while being timed. Run in a subprocess
under the Triton interpreter, since installing the guards patches Triton for the process."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import torch

from grader import checkpoints
from grader.judge.collect import Collector
from grader.plan.shapes import BenchShape
from grader.sandbox import job
from grader.sandbox.harness import wire
from tests.grader.interpreted import run_interpreted

HARNESS_PARENT = Path(job.HARNESS_DIR).parent

SCRIPT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import torch, triton, triton.language as tl
from harness import guards

counter, forcer = guards.LaunchCounter(), guards.ConfigForcer()
guards.install(counter, forcer)


@triton.autotune(configs=[triton.Config({"V": v}, num_warps=4) for v in (1, 2, 3)], key=["n"])
@triton.jit
def fill(out_ptr, n, V: tl.constexpr):
    offs = tl.arange(0, 8)
    tl.store(out_ptr + offs, tl.full([8], V, tl.float32), mask=offs < n)


@triton.autotune(configs=[triton.Config({"V": 7}, num_warps=2)], key=["n"])
@triton.jit
def single(out_ptr, n, V: tl.constexpr):
    offs = tl.arange(0, 8)
    tl.store(out_ptr + offs, tl.full([8], V, tl.float32), mask=offs < n)


out = torch.zeros(8)
forcer.index = None  # as in the GPU stage: the autotuners are free unless named
forcer.labels = json.loads(sys.argv[2])
seen = []
for kernel in (fill, single):
    kernel[(1,)](out, 8)
    seen.append(out[0].item())
print(json.dumps({"values": seen, "picked": forcer.picked(), "used": forcer.used}))
"""


def _run(labels: dict[str, str]) -> Any:
    return run_interpreted(SCRIPT, str(HARNESS_PARENT), json.dumps(labels), timeout=120)


def test_the_replay_runs_the_config_the_autotuner_picked_while_timed() -> None:
    got = _run({"fill": "V=2, num_warps=4"})
    assert got["values"] == [2.0, 7.0]  # fill: the named config, not the first or the best
    assert got["used"] == ["fill(V=2, num_warps=4)"]
    # an autotuner left free is remembered, with what it ran: the next replay's labels
    assert got["picked"] == {"single": "V=7, num_warps=2"}


def test_a_named_config_not_in_the_list_leaves_the_autotuner_free() -> None:
    # e.g. a config pruned away for this shape: `single` then runs as written
    got = _run({"fill": "V=3, num_warps=4", "single": "V=9, num_warps=2"})
    assert got["values"] == [3.0, 7.0]
    assert got["used"] == ["fill(V=3, num_warps=4)"]
    assert got["picked"] == {"single": "V=7, num_warps=2"}


def test_the_profile_job_carries_the_picked_configs(tmp_path: Path) -> None:
    ck = checkpoints.get("c3a-softmax")
    paths = job.Paths(tmp_path / "job", tmp_path / "out", sandboxed=False)
    picked = {"softmax_kernel": "BLOCK_SIZE=4096, num_warps=8"}
    job.write(
        paths, "x = 1", ck, "cuda", [], [], max_configs=1, profile_impls=[], force_configs=picked
    )
    assert "profile" not in json.loads((paths.job / "job.json").read_text())  # no shapes: no GPU
    case = ck.definition.benchmark_shapes[0]
    shape = BenchShape(0, case, [[torch.zeros(2, 2)]], [torch.zeros(2, 2)], [0], 32)
    job.write(
        paths,
        "x = 1",
        ck,
        "cuda",
        [],
        [shape],
        max_configs=1,
        profile_impls=["submission"],
        force_configs=picked,
    )
    spec = json.loads((paths.job / "job.json").read_text())
    assert spec["profile"]["force"] == picked and spec["profile"]["impls"] == ["submission"]


def test_the_collector_keeps_what_the_child_says_it_tuned_and_profiled_bounded() -> None:
    buf = io.BytesIO()
    wire.write_frame(buf, {"type": "tuned", "configs": {f"k{i}": "x" * 999 for i in range(40)}})
    wire.write_frame(buf, {"type": "profiled", "configs": ["k(A=1)"] * 40})
    wire.write_frame(buf, {"type": "tuned", "configs": "not a dict"})  # ignored, not fatal
    buf.seek(0)
    c = Collector([], {}, 1 << 20)
    c(buf)
    assert len(c.result.tuned) == 16 and all(len(v) == 300 for v in c.result.tuned.values())
    assert c.result.profiled == ["k(A=1)"] * 16


STATE = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import torch, triton, triton.language as tl
from harness import guards

counter, forcer = guards.LaunchCounter(), guards.ConfigForcer()
guards.install(counter, forcer)
CONFIGS = [triton.Config({"V": v}, num_warps=4) for v in (1, 2, 3)]
calls = [0]


def counting_prune(configs, nargs, **kw):  # a prune that keeps state between calls
    calls[0] += 1
    return configs if calls[0] <= 2 else configs[::-1]


def honest_prune(configs, nargs, **kw):
    return [c for c in configs if c.kwargs["V"] <= nargs["n"]]


def counting_heuristic(args):  # its 5th answer differs: the 4th call's (the first call runs
    calls[0] += 1  # twice, as a GPU's autotuner benchmarks a new key first: as_benchmarked)
    return 8 if calls[0] <= 4 else 4


def kernel_with(prune=None, heur=None):
    @triton.jit
    def fill(out_ptr, n, V: tl.constexpr, W: tl.constexpr):
        offs = tl.arange(0, 8)
        tl.store(out_ptr + offs, tl.full([8], V, tl.float32), mask=offs < n)

    if heur is not None:
        fill = triton.heuristics({"W": heur})(fill)
    else:
        fill = triton.heuristics({"W": lambda args: 8})(fill)
    by = {"early_config_prune": prune} if prune is not None else None
    return triton.autotune(CONFIGS, key=["n"], prune_configs_by=by)(fill)


which = sys.argv[2]
kernel = {"counting_prune": lambda: kernel_with(prune=counting_prune),
          "honest_prune": lambda: kernel_with(prune=honest_prune),
          "counting_heuristic": lambda: kernel_with(heur=counting_heuristic)}[which]()
out, said = torch.zeros(8), []
for index in range(3):  # the every-config pass: config 0, 1, 2, on the same arguments twice
    for _ in range(2):
        forcer.reset(index)
        counter.refused = []
        try:
            kernel[(1,)](out, 8)
            said.append(out[0].item())
        except guards.LaunchError as exc:
            said.append(str(exc))
print(json.dumps({"said": said, "refused": counter.refused}))
"""


def test_a_prune_that_keeps_state_between_calls_is_refused() -> None:
    got = run_interpreted(STATE, str(HARNESS_PARENT), "counting_prune", timeout=120)
    assert got["said"][:2] == [1.0, 1.0]
    assert "early_config_prune of fill answered differently" in got["said"][2]
    assert "no state kept between calls" in got["refused"][0]


def test_a_heuristic_that_keeps_state_between_calls_is_refused() -> None:
    got = run_interpreted(STATE, str(HARNESS_PARENT), "counting_heuristic", timeout=120)
    assert got["said"][:3] == [1.0, 1.0, 2.0]
    assert "the heuristic for W of fill answered differently" in got["said"][3]


def test_an_honest_prune_is_called_every_call_and_runs_every_config() -> None:
    got = run_interpreted(STATE, str(HARNESS_PARENT), "honest_prune", timeout=120)
    assert got == {"said": [1.0, 1.0, 2.0, 2.0, 3.0, 3.0], "refused": []}


FORGET = r"""
import json, sys, types
sys.path.insert(0, sys.argv[1])
import torch, triton, triton.language as tl
from harness import guards, child

counter, forcer = guards.LaunchCounter(), guards.ConfigForcer()
guards.install(counter, forcer)


@triton.autotune(configs=[triton.Config({"V": v}, num_warps=4) for v in (1, 2)], key=["n"])
@triton.jit
def fill(out_ptr, n, V: tl.constexpr):
    offs = tl.arange(0, 8)
    tl.store(out_ptr + offs, tl.full([8], V, tl.float32), mask=offs < n)


module = types.ModuleType("submission")
module.fill = fill
forcer.watch(module)
out = torch.zeros(8)
seen = []
for index in (0, 1):  # a checked call: forgotten when the forcer is reset for it
    forcer.reset(index)
    seen.append(hasattr(fill, "best_config"))
    fill[(1,)](out, 8)
    seen.append(hasattr(fill, "best_config"))
forcer.index = None  # a timed call, through the wrapper the timed rounds use
timed = child._forgetting(lambda: hasattr(fill, "best_config"), forcer)
seen.append(timed())
print(json.dumps(seen))
"""


def test_no_autotuner_keeps_its_best_config_from_one_call_to_the_next() -> None:
    """Red team 4 kept a call count in `K.best_config.kwargs` (the previous call's config, read
    before the launch): before every call, checked or timed, it is forgotten."""
    assert run_interpreted(FORGET, str(HARNESS_PARENT)) == [False, True, False, True, False]
