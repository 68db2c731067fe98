"""Under the interpreter a kernel may call triton.language's functions by names the file
imported (`from triton.language import load, store`): harness/interp_names.py binds them to
the module's own attribute, which a launch patches (red team 3, h12: graded compile_error
though a GPU compiles it). Outside the interpreter nothing is rebound."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "grader" / "sandbox"))
from harness import interp_names


def test_imported_functions_are_bound_through_the_module(monkeypatch) -> None:
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    m = types.ModuleType("submission")
    vars(m).update(load=tl.load, cargar=tl.load, exp=tl.math.exp, f32=tl.float32, K=tl.constexpr)
    assert sorted(interp_names.install(m)) == ["cargar", "exp", "load"]
    assert m.f32 is tl.float32 and m.K is tl.constexpr  # dtypes and classes stay
    assert getattr(m, interp_names.HIDDEN) is tl  # the interpreter looks for it in the globals
    with monkeypatch.context() as mp:  # what a launch does: patch the module's attribute
        mp.setattr(tl, "load", lambda *a, **k: ("patched", a))
        assert m.cargar(1) == ("patched", (1,))


@pytest.mark.parametrize("env", [None, "0"])
def test_outside_the_interpreter_nothing_is_rebound(monkeypatch, env: str | None) -> None:
    if env is None:
        monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    else:
        monkeypatch.setenv("TRITON_INTERPRET", env)
    m = types.ModuleType("submission")
    vars(m).update(load=tl.load)
    assert interp_names.install(m) == [] and m.load is tl.load
