"""What a submission may contain: the lists the static check (`static.py`, in the trusted
parent) holds every line of a submission to. They are the whole rule; docs/SUBMISSIONS.md
explains them to students and checkpoint authors.

A submission is Triton kernels and the host code that launches them. Host code may import
the modules below, define kernels, allocate, read metadata, make views and layout copies,
compute on Python numbers and containers, and launch. Anything else — another module, an
attribute not on these lists, a dunder, `getattr`, an assignment to an attribute — is refused
before the submission runs, with the line and what to write instead. Kernel bodies may use
`triton.language` and the few builtins Triton's compiler knows, nothing of the host.

Names of `triton.language` (and its `math` and libdevice functions) are taken from the
installed Triton's public API, so a kernel may use whatever this Triton version offers.
"""

from __future__ import annotations

import math
from functools import cache

# --- imports ---------------------------------------------------------------------------------
# module -> the names `from module import NAME` may take (None: any name on that module's list)
IMPORTS: dict[str, frozenset[str] | None] = {
    "torch": None,
    "triton": None,
    "triton.language": None,
    "triton.language.math": None,
    "triton.language.extra": frozenset({"libdevice"}),
    "triton.language.extra.libdevice": None,
    "triton.language.extra.cuda": frozenset({"libdevice"}),
    "triton.language.extra.cuda.libdevice": None,
    "triton.tools.tensor_descriptor": frozenset({"TensorDescriptor"}),
    "math": None,
    "typing": None,
    "functools": None,
    "itertools": None,
    "dataclasses": frozenset({"dataclass"}),
    "__future__": frozenset({"annotations"}),
}

# --- host code: attributes of modules ----------------------------------------------------------
DTYPES = frozenset(
    {
        "float16",
        "float32",
        "float64",
        "bfloat16",
        "half",
        "float",
        "double",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "short",
        "int",
        "long",
        "bool",
        "float8_e4m3fn",
        "float8_e5m2",
        "float8_e4m3fnuz",
        "float8_e5m2fnuz",
        "complex64",
    }
)
TORCH = DTYPES | {
    "Tensor",
    "Size",
    "dtype",
    "device",
    # allocation
    "empty",
    "empty_like",
    "empty_strided",
    "zeros",
    "zeros_like",
    "ones",
    "ones_like",
    "full",
    "full_like",
    "arange",
    "tensor",
    # metadata
    "finfo",
    "iinfo",
    "is_tensor",
    "is_floating_point",
    "get_default_dtype",
    "promote_types",
    "result_type",
    # views
    "as_strided",
    # memory formats (empty_like(x, memory_format=...))
    "contiguous_format",
    "preserve_format",
    "channels_last",
    # context
    "no_grad",
    "inference_mode",
    "cuda",
}
TORCH_CUDA = frozenset(
    {
        "is_available",
        "current_device",
        "device_count",
        "get_device_properties",
        "get_device_capability",
        "get_device_name",
        "synchronize",
        "device",  # `with torch.cuda.device(x.device):` around a launch (Liger-Kernel)
    }
)
TRITON = frozenset(
    {
        "jit",
        "autotune",
        "heuristics",
        "Config",
        "cdiv",
        "next_power_of_2",
        "language",
    }
)
TYPING = frozenset(
    {
        "Any",
        "Callable",
        "Optional",
        "Union",
        "Tuple",
        "List",
        "Dict",
        "Sequence",
        "Iterable",
        "Mapping",
        "Literal",
        "Final",
        "TYPE_CHECKING",
        "NamedTuple",
    }
)
FUNCTOOLS = frozenset({"lru_cache", "cache", "partial", "reduce", "wraps"})
ITERTOOLS = frozenset({"product", "accumulate", "chain", "islice", "repeat", "count"})

# --- host code: attributes of any other object (tensors, containers, configs, numbers) ---------
TENSOR = frozenset(
    {
        # metadata
        "shape",
        "dtype",
        "device",
        "size",
        "stride",
        "numel",
        "dim",
        "ndim",
        "ndimension",
        "element_size",
        "itemsize",
        "nbytes",
        "is_contiguous",
        "is_cuda",
        "is_cpu",
        "is_floating_point",
        "storage_offset",
        "data_ptr",
        "requires_grad",
        "layout",
        "type",
        # views and layout copies
        "view",
        "view_as",
        "reshape",
        "reshape_as",
        "contiguous",
        "transpose",
        "permute",
        "t",
        "T",
        "mT",
        "unsqueeze",
        "squeeze",
        "flatten",
        "expand",
        "expand_as",
        "narrow",
        "unflatten",
        "movedim",
        "detach",
        "clone",
        "to",
        "float",
        "half",
        "bfloat16",
        "double",
        "long",
        "int",
        "cuda",
        "cpu",
        # writes of a whole tensor
        "copy_",
        "fill_",
        "zero_",
        "new_empty",
        "new_zeros",
        "new_ones",
        "new_full",
        "new_empty_strided",
    }
)
DEVICE_PROPERTIES = frozenset(
    {"multi_processor_count", "name", "total_memory", "major", "minor", "index"}
)
CONTAINERS = frozenset(
    {
        # dict
        "get",
        "items",
        "keys",
        "values",
        "update",
        "setdefault",
        # list
        "append",
        "extend",
        "pop",
        "insert",
        "index",
        "count",
        "copy",
        "sort",
        "reverse",
        # set (module-level containers are never changed: see judge/state.py)
        "add",
        "discard",
        "remove",
        "union",
        "intersection",
        "difference",
        "issubset",
        "issuperset",
        "isdisjoint",
        # str (not .format: "{0.x}".format reads attributes; write an f-string)
        "join",
        "split",
        "strip",
        "startswith",
        "endswith",
        "lower",
        "upper",
        "replace",
        # numbers
        "bit_length",
        "is_integer",
        "real",
        "imag",
    }
)
CONFIG = frozenset({"kwargs", "num_warps", "num_stages", "num_ctas", "maxnreg"})
DESCRIPTOR = frozenset({"from_tensor"})  # triton.tools.tensor_descriptor.TensorDescriptor
ANY_OBJECT = TENSOR | DEVICE_PROPERTIES | CONTAINERS | CONFIG | DESCRIPTOR
# torch.finfo(dtype) / torch.iinfo(dtype), called in place or bound to a name first
FINFO = frozenset({"min", "max", "eps", "tiny", "bits", "resolution", "smallest_normal"})

# --- host code: builtins --------------------------------------------------------------------
HOST_BUILTINS = frozenset(
    {
        "abs",
        "all",
        "any",
        "bool",
        "callable",
        "dict",
        "divmod",
        "enumerate",
        "filter",
        "float",
        "frozenset",
        "int",
        "isinstance",
        "iter",
        "len",
        "list",
        "map",
        "max",
        "min",
        "next",
        "pow",
        "print",
        "range",
        "reversed",
        "round",
        "set",
        "slice",
        "sorted",
        "str",
        "sum",
        "tuple",
        "zip",
        "Exception",
        "ArithmeticError",
        "AssertionError",
        "IndexError",
        "KeyError",
        "NotImplementedError",
        "RuntimeError",
        "TypeError",
        "ValueError",
        "ZeroDivisionError",
        "NotImplemented",
    }
)
# Decorators host functions may carry (kernels: triton.jit / autotune / heuristics).
HOST_DECORATORS = frozenset(
    {
        "functools.lru_cache",
        "functools.cache",
        "functools.wraps",
        "torch.no_grad",
        "torch.inference_mode",
    }
)
KERNEL_DECORATORS = frozenset({"triton.jit", "triton.autotune", "triton.heuristics"})
# Keyword arguments that hand the launch machinery a host function to run later, where no
# check sees what it computes.
HOOK_KEYWORDS = frozenset({"pre_hook", "post_hook", "launch_enter_hook", "launch_exit_hook"})
# keywords of triton's calls that hand Triton something else to run or compile than the
# checked source: a benchmark function, an IR file that replaces the kernel's own
UNCHECKED_KEYWORDS = frozenset({"do_bench", "ir_override"})

# --- kernel bodies ------------------------------------------------------------------------------
# What Triton's code generator resolves as a builtin inside a @triton.jit function (less
# getattr/hasattr/list: no kernel needs them; less isinstance: an argument's Python type is
# not the same under the interpreter and compiled (an int 1 is a tensor here, a constexpr
# there), so isinstance could pick the branch a GPU runs unchecked; red team 5).
KERNEL_BUILTINS = frozenset({"range", "len", "min", "max", "float", "int", "print"})


# Raw-assembly escapes of triton.language, refused inside kernels unless the checkpoint allows
# them (`allow_inline_asm`), each with why. (Triton 3.9's other way to the hardware's own
# registers, triton.language.extra.cuda's globaltimer/smid, is off the import list already.)
RAW_ASSEMBLY = {
    "inline_asm_elementwise": "tl.inline_asm_elementwise runs any PTX (%globaltimer, L2 "
    "discards, loads and stores at any address of the process), which neither the static "
    "check nor the compile check can read: write the kernel in triton.language (a checkpoint "
    "may allow it with allow_inline_asm = true)",
}


@cache
def triton_language() -> frozenset[str]:
    """`triton.language`'s public names (functions, dtypes, constexpr), this Triton's, less
    the raw-assembly escapes (RAW_ASSEMBLY)."""
    import triton.language as tl

    names = set(getattr(tl, "__all__", ())) or {n for n in dir(tl) if not n.startswith("_")}
    # target_info asks which GPU runs the kernel (`is_cuda()`, `cuda_capability_geq`): under
    # the interpreter and in the CPU compile check the answer is not a GPU's, so the branch a
    # GPU takes would be one the precheck never ran (red team 5)
    names -= {"core", "semantic", "standard", "random", "extra", "target_info", *RAW_ASSEMBLY}
    return frozenset(names) | {"math"}


@cache
def triton_math() -> frozenset[str]:
    import triton.language.math as tlm

    return frozenset(n for n in getattr(tlm, "__all__", dir(tlm)) if not n.startswith("_"))


@cache
def libdevice() -> frozenset[str]:
    try:
        from triton.language.extra import libdevice as ld
    except ImportError:
        return frozenset()
    return frozenset(n for n in dir(ld) if not n.startswith("_"))


@cache
def kernel_attributes() -> frozenset[str]:
    """Attributes inside a kernel body: tensor members (they mirror triton.language's
    functions: x.to, x.sum, …) and those of dtypes and pointer types."""
    import triton.language as tl

    names: set[str] = set()
    for t in (tl.tensor, tl.dtype, tl.pointer_type, tl.constexpr):
        names |= {n for n in dir(t) if not n.startswith("_")}
    instance = {"dtype", "shape", "type", "T", "numel", "element_ty", "primitive_bitwidth"}
    return frozenset(names | instance) | triton_language()


@cache
def host_triton_language() -> frozenset[str]:
    """What host code may take from triton.language: its dtypes and the types that annotate a
    kernel's parameters. Its functions are device code: under the interpreter they would run
    on the host, in a grid function say, unwatched."""
    import triton.language as tl

    dtypes = {n for n in triton_language() if isinstance(getattr(tl, n, None), tl.dtype)}
    return frozenset(dtypes | {"constexpr", "tensor", "dtype", "pointer_type", "block_type"})


def module_members(module: str) -> frozenset[str] | None:
    """The attributes host code may take from `module`; None: not an allowed module."""
    if module == "torch":
        return frozenset(TORCH)
    if module == "torch.cuda":
        return TORCH_CUDA
    if module == "triton":
        return TRITON
    if module == "triton.language":
        return triton_language()
    if module == "triton.language.math":
        return triton_math()
    if module in {"triton.language.extra", "triton.language.extra.cuda"}:
        return frozenset({"libdevice", "cuda"} if module.endswith("extra") else {"libdevice"})
    if module.endswith("libdevice"):
        return libdevice()
    if module == "math":
        return frozenset(n for n in dir(math) if not n.startswith("_"))
    if module == "typing":
        return TYPING
    if module == "functools":
        return FUNCTOOLS
    if module == "itertools":
        return ITERTOOLS
    if module == "dataclasses":
        return frozenset({"dataclass"})
    return None


def builtin_exception(name: str) -> bool:
    """A builtin exception class (`ImportError`, `ValueError`): a host except clause may name
    it. Not BaseException's other children (SystemExit, KeyboardInterrupt: the sandbox's)."""
    import builtins

    obj = getattr(builtins, name, None)
    return isinstance(obj, type) and issubclass(obj, Exception)
