"""How the harness runs the student's autotuners and heuristics (guards.py installs them):
`ConfigForcer` replaces `Autotuner.run` so that every pruned config is run and checked, and
`same_heuristics` replaces `Heuristics.run`, each heuristic's value checked to be the same for
the same arguments every call. Split from guards.py (the dispatch watch and the launch count).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import torch

if TYPE_CHECKING:
    from harness.guards import LaunchCounter


class LaunchError(RuntimeError):
    """A launch the harness refuses (reported as forbidden)."""


def _one_line(text: str) -> str:
    """Non-printable characters (newlines, escapes, bidi controls) as escapes."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def label(config: Any) -> str:
    """`BLOCK_SIZE=256, num_warps=2`: the config's own knobs, launch options when not default.
    One line of reprs (a key that is not an identifier is quoted); the parent cleans it again."""
    parts = [
        _one_line(f"{k if isinstance(k, str) and k.isidentifier() else repr(k)}={v!r}")
        for k, v in config.kwargs.items()
    ]
    parts.append(f"num_warps={config.num_warps}")
    if config.num_stages != 3:
        parts.append(f"num_stages={config.num_stages}")
    return ", ".join(parts)


def _arg_key(v: Any) -> Any:
    """What a prune or a heuristic may depend on of one argument: a tensor's metadata (never
    its values: reading them is refused), a number, a string, a dtype."""
    if isinstance(v, torch.Tensor):
        meta = (tuple(v.shape), tuple(v.stride()), str(v.dtype), v.device.type)
        return ("tensor", *meta, v.data_ptr() % 256)
    if v is None or isinstance(v, bool | int | float | str | torch.dtype):
        return repr(v)
    return type(v).__name__


def _call_key(*named: dict[str, Any]) -> str:
    return repr(sorted((str(k), _arg_key(v)) for d in named for k, v in d.items()))


class ConfigForcer:
    """Replaces `Autotuner.run`: runs config number `index` of the pruned list; with `index`
    None (while benchmarking) the autotuner runs as written and picks its fastest config, and
    is remembered (`picked()`). `labels` (the Nsight replay): each autotuner, by its kernel's
    name, runs the config it picked while being timed, when that config is in its pruned list.

    The student's functions the harness calls on every call (`early_config_prune`, the
    `perf_model` of `prune_configs_by`, heuristics) must answer the same for the same
    arguments, every call (`same_every_call`): one that counts its calls could hand the
    every-config pass right configs and a GPU's autotuner a wrong one. A different answer is
    refused (forbidden) at that call."""

    def __init__(self) -> None:
        self.answers: dict[tuple[str, int, str], str] = {}  # (what, owner, arguments) -> answer
        self.counter: LaunchCounter | None = None  # its `refused` says why a call was refused
        self.index: int | None = 0
        self.original: Callable[..., Any] | None = None
        self.seen: dict[int, list[str]] = {}  # autotuner id -> labels of its pruned configs
        self.used: list[str] = []
        self.tuners: list[Any] = []  # autotuners that ran free
        self.autotuners: list[Any] = []  # the module's, after import (`watch`)
        self.labels: dict[str, str] = {}
        # this call's autotuned launch slots, (autotuner, its autotune key) in launch order:
        # the config each one runs and its number of pruned configs
        self.slots: dict[tuple[int, str], Any] = {}
        self.sizes: list[int] = []
        # slots a GPU's autotuner would have benchmarked already (for the grading's life, as
        # its cache): `as_benchmarked` runs each one's first launch once more before
        self.benched: set[tuple[int, str]] = set()

    def reset(self, index: int) -> None:
        self.index = index
        self.seen = {}
        self.used = []
        self.slots = {}
        self.sizes = []
        self.forget_best()

    def _slot_config(self, tuner: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """The config a forced call runs. Each (autotuner, autotune key) a call launches is a
        slot, as each is tuned on its own on a GPU; call number `index` runs combination
        `index` of the slots' pruned configs (mixed radix, the first slot fastest), so the
        calls run every combination, not only the matched ones (red team 5: two autotuned
        kernels whose configs cancel out in pairs). A slot launched again in the call runs
        the config it ran first, as Triton's cache keeps it for that key."""
        named = {**dict(zip(tuner.arg_names, args, strict=False)), **kwargs}
        inside = {k: v for k, v in named.items() if k in tuner.arg_names}
        key = [_arg_key(inside[k]) for k in tuner.keys if k in inside]
        key += [str(v.dtype) for v in inside.values() if hasattr(v, "dtype")]
        slot = (id(tuner), repr(key))
        if slot not in self.slots:
            configs = pruned_configs(self, tuner, args, kwargs)
            self.seen[id(tuner)] = [label(c) for c in configs]
            radix = 1
            for n in self.sizes:
                radix *= n
            digit = ((self.index or 0) // radix) % len(configs)
            self.sizes.append(len(configs))
            self.slots[slot] = configs[digit]
            if len(configs) > 1 and slot not in self.benched:
                self.benched.add(slot)
                self.as_benchmarked(tuner, configs[digit], args, kwargs)
        return self.slots[slot]

    def as_benchmarked(
        self, tuner: Any, config: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> None:
        """A GPU's autotuner meets a new key by benchmarking its pruned configs on the call's
        own arguments, each run many times between its `reset_to_zero` / `restore_value`
        hooks, then zeroes the `reset_to_zero` arguments and runs the best config: a kernel
        that cannot run twice on its arguments (an `atomic_add` into its output without
        `reset_to_zero`) is wrong there. The forced config runs once that way first, here
        too (red team 6, x40). Not counted as the call's launch (Nsight's count, gpu_stage)."""
        if config.pre_hook is not None:  # refused statically; never run it here
            raise LaunchError("a triton.Config with a pre_hook")
        current = {**kwargs, **config.all_kwargs()}
        full = {**dict(zip(tuner.arg_names, args, strict=False)), **current}
        tuner.pre_hook(full)
        try:
            tuner.fn.run(*args, **current)
        except Exception as exc:
            tuner.post_hook(full, exception=exc)
            raise
        tuner.post_hook(full, exception=None)
        tuner.pre_hook(full, reset_only=True)
        if self.counter is not None:
            self.counter.launches = max(0, self.counter.launches - 1)

    def watch(self, module: Any) -> None:
        """The module's autotuners (through wrappers), for `forget_best`."""
        from triton.runtime.autotuner import Autotuner
        from triton.runtime.jit import KernelInterface

        todo = [v for v in vars(module).values() if isinstance(v, KernelInterface)]
        while todo:
            k = todo.pop()
            if isinstance(k, Autotuner) and all(k is not t for t in self.autotuners):
                self.autotuners.append(k)
            if isinstance(inner := getattr(k, "fn", None), KernelInterface):
                todo.append(inner)

    def forget_best(self) -> None:
        """Before every call: no autotuner holds a `best_config` from the call before (red team
        4 kept a call count in `K.best_config.kwargs`), so reading it before its launch is the
        AttributeError of a first call, every call, checked or timed, alike."""
        for t in self.autotuners:
            t.__dict__.pop("best_config", None)

    def same_every_call(self, what: str, owner: Any, key: str, answer: str) -> None:
        first = self.answers.setdefault((what, id(owner), key), answer)
        if first != answer:
            name = owner
            for _ in range(4):  # an autotuner's or a heuristic's kernel, by its def's name
                name = getattr(name, "base_fn", None) or getattr(name, "fn", name)
            name = getattr(name, "__name__", "?")
            why = (
                f"{what} of {name} answered differently for the same arguments ({first[:120]}, "
                f"then {answer[:120]}): it must depend on its arguments only, with no state "
                "kept between calls"
            )
            if self.counter is not None:
                self.counter.refused.append(why)
            raise LaunchError(why)

    @property
    def count(self) -> int:
        """The combinations of pruned configs this call's autotuned launches make."""
        total = 1
        for n in self.sizes:
            total *= n
        return total

    def picked(self) -> dict[str, str]:
        """Kernel name -> the config its autotuner ran last (for its last key)."""
        return {
            t.base_fn.__name__: label(t.best_config)
            for t in self.tuners
            if getattr(t, "best_config", None) is not None
        }

    def wrap(self) -> Callable[..., Any]:
        forcer = self

        def pruned(self_: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
            return pruned_configs(forcer, self_, args, kwargs)

        def forced_run(self_: Any, *args: Any, **kwargs: Any) -> Any:
            if forcer.index is None and forcer.original is not None:
                wanted = forcer.labels.get(self_.base_fn.__name__)
                configs = pruned(self_, args, kwargs) if wanted is not None else []
                config = next((c for c in configs if label(c) == wanted), None)
                if config is None:
                    self_.nargs = None
                    if all(t is not self_ for t in forcer.tuners):
                        forcer.tuners.append(self_)
                    # what Triton's own benchmarking caught (a config out of resources) is
                    # Triton's, not a launch the entry caught
                    raised = len(forcer.counter.raised) if forcer.counter is not None else 0
                    answer = forcer.original(self_, *args, **kwargs)
                    if forcer.counter is not None:
                        del forcer.counter.raised[raised:]
                    return answer
            else:
                config = forcer._slot_config(self_, args, kwargs)
            forcer.used.append(f"{self_.base_fn.__name__}({label(config)})")
            self_.best_config = config
            if config.pre_hook is not None:  # refused statically; never run it here
                raise LaunchError("a triton.Config with a pre_hook")
            try:
                return self_.fn.run(*args, **kwargs, **config.all_kwargs())
            finally:
                self_.nargs = None

        return forced_run


def pruned_configs(
    forcer: ConfigForcer, tuner: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> list[Any]:
    """The autotuner's configs after its pruning, which must answer the same every call."""
    tuner.nargs = dict(zip(tuner.arg_names, args, strict=False))
    if len(tuner.configs) <= 1:
        return list(tuner.configs)
    configs = tuner.prune_configs(kwargs)
    if tuner.early_config_prune or tuner.perf_model:
        what = "early_config_prune" if tuner.early_config_prune else "perf_model"
        answer = repr([label(c) for c in configs])
        forcer.same_every_call(what, tuner, _call_key(tuner.nargs, kwargs), answer)
    return configs


def same_heuristics(counter: Any, forcer: ConfigForcer) -> Callable[..., Any]:
    """`Heuristics.run` as Triton's, each value checked to be the same for the same arguments
    every call (while the calls are checked: not while timed)."""

    def run(self_: Any, *args: Any, **kwargs: Any) -> Any:
        for name, heur in self_.values.items():
            named = {**dict(zip(self_.arg_names, args, strict=False)), **kwargs}
            kwargs[name] = heur(named)
            if counter.active:
                answer = repr(kwargs[name])
                what = f"the heuristic for {name}"
                forcer.same_every_call(what, self_, _call_key(named), answer)
        return self_.fn.run(*args, **kwargs)

    return run
