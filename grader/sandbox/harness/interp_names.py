"""Under the Triton interpreter only: kernels that call triton.language's functions by a name
the file imported (`from triton.language import load, store, program_id`). A GPU compiles them
(Triton's code generator resolves the name to the builtin), but the interpreter patches only
the attributes of the `triton.language` module itself, for the length of a launch, and wants
that module among the kernel's globals: the imported name stays the unpatched builtin, which
raises "Did you forget to add @triton.jit ?".

`install(module)` binds each such name, once, right after import, to a call through the
module's attribute of the same function (so inside a launch it is the interpreter's), and puts
`triton.language` among the globals under a name no submission can spell (dunder names are
refused by the static check). The program is the one the parent checked: the same functions
reached by another route. A GPU grading never calls this.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType
from typing import Any

HIDDEN = "__kgrade_triton_language__"


def _through(home: ModuleType, name: str) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(home, name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


def install(module: ModuleType) -> list[str]:
    """Rebinds the module's names for triton.language functions; returns those names."""
    if os.environ.get("TRITON_INTERPRET") != "1":
        return []
    import triton.language as tl

    homes = [tl, tl.math]
    done = []
    for key, value in list(vars(module).items()):
        if not callable(value) or isinstance(value, type) or key.startswith("__"):
            continue
        name = getattr(value, "__name__", None)
        if not isinstance(name, str):
            continue
        home = next((h for h in homes if getattr(h, name, None) is value), None)
        if home is not None:
            setattr(module, key, _through(home, name))
            done.append(key)
    if not any(v is tl or v is tl.core for v in vars(module).values()):
        setattr(module, HIDDEN, tl)
    return done
