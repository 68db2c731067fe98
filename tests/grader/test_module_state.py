"""The child's fingerprint of module-level state (grader/sandbox/harness/module_state.py) reads
through what a `tl.constexpr` holds: red team 3 kept a call counter in `tl.constexpr([[]])` and
a tensor in `tl.constexpr((torch.zeros(16),))`, which the fingerprint took by identity only, so
a change between calls was never seen (the static check now refuses both too: this is the
layer under it). Triton's dtypes and a constexpr of a number stay the same print."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import torch
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "grader" / "sandbox"))
from harness.module_state import state_print


def module(**values: object) -> types.ModuleType:
    m = types.ModuleType("submission")
    vars(m).update(values)
    return m


def test_a_list_inside_a_constexpr_is_read_through() -> None:
    m = module(CALLS=tl.constexpr([[]]))
    before = state_print(m)
    m.CALLS[0].append(1)
    assert state_print(m) != before


def test_a_tensor_inside_a_constexpr_is_read_by_content() -> None:
    stash = torch.zeros(16, dtype=torch.int32)
    m = module(STASH=tl.constexpr((stash,)))
    before = state_print(m)
    stash[0] += 1
    assert state_print(m) != before


def test_constants_and_dtypes_print_the_same_every_time() -> None:
    m = module(CHUNK=tl.constexpr(1024), DT=tl.float16, PAIR=tl.constexpr((1, 2)))
    assert state_print(m) == state_print(m)


def test_what_a_functools_partial_holds_is_read_through() -> None:
    """Red team 3 (x31/x34): `functools.partial(_prune, [])` as an autotuner's prune or a
    heuristic kept a call count in its list; a partial's class is functools', so it was taken
    for a library function and known by identity only."""
    import functools

    box: list[int] = []
    m = module(PRUNE=functools.partial(sorted, box), PLAIN=functools.partial(max, 1))
    before = state_print(m)
    assert state_print(m) == before
    box.append(1)
    assert state_print(m) != before


def test_what_a_bound_method_is_bound_to_is_read_through() -> None:
    """Red team 4 (x01b): `OPS = [(l.append, l.count) for l in [sorted(range(80))]][0]` kept a
    call count in a list no name holds; the bound methods were read as a repr cut at 200
    characters, so what was appended past the cut was never seen."""
    box = list(range(80))
    table: dict[int, int] = {}
    m = module(OPS=(box.append, box.count), GET=table.setdefault)
    before = state_print(m)
    assert state_print(m) == before
    box.append(-1)
    assert state_print(m) != before
    again = state_print(m)
    table[1] = 2
    assert state_print(m) != again


def test_an_autotuners_configs_are_read_by_content() -> None:
    """Red team 4 (x08): a Config has no repr of its own, so the autotuner's configs were read
    as `<Config object at 0x…>`: a count kept in a config's kwargs was never seen."""
    import triton

    @triton.autotune(configs=[triton.Config({"TAG": 0}, num_warps=4)], key=[])
    @triton.jit
    def k(x_ptr, TAG: tl.constexpr):  # type: ignore[no-untyped-def]
        pass

    m = module(k=k)
    before = state_print(m)
    assert state_print(m) == before
    k.configs[0].kwargs["TAG"] += 1
    assert state_print(m) != before
