"""CPU tensors whose memory ends next to an inaccessible page (the Triton interpreter only).

Under `TRITON_INTERPRET=1` a kernel's loads and stores are plain reads and writes of the
process's memory. One that runs past the end of a tensor from the heap lands in whatever lies
next to it: another tensor (a wrong answer, or none), malloc's own bookkeeping (`free(): invalid
pointer` much later, in torch's code), or a corrupted free list that malloc then walks for ever.
Which one depends on the heap's layout, so the same kernel could be `wrong_answer` in one
grading, `runtime_error` in the next and a time-out in a third.

Here each tensor the kernel can reach gets its own mapping (private, anonymous), placed so that
it ends less than 16 bytes before a page with no access (it starts 16-byte aligned, as torch's
own memory does and Triton's TMA needs; a second such page precedes it): an access past those
few bytes faults at once, in the kernel, and the child dies of SIGSEGV, which the grade
explains as an out-of-bounds load or store. One before the start faults at the latest a page
(4 KiB) before it. Tensors made before the entry runs (a module's globals) are not fenced,
and an `out=` argument that an op would have to grow fails (torch cannot resize this memory;
`resize_` itself is handled, `guards.py`).
"""

from __future__ import annotations

import ctypes
import math
import mmap
from collections.abc import Sequence

import torch

PAGE = mmap.PAGESIZE
ALIGN = 16  # where a tensor starts: Triton's TMA descriptors (the interpreter's too) need 16
_PROT_NONE = 0
_libc = ctypes.CDLL(None, use_errno=True)
_libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_libc.mprotect.restype = ctypes.c_int


def _storage(nbytes: int, dtype: torch.dtype) -> torch.Tensor:
    """A 1-D tensor of `nbytes` bytes, 16-byte aligned, ending less than 16 bytes before an
    inaccessible page (a page before it is inaccessible too). Raises OSError when the process
    cannot map more (each such tensor is three mappings while it lives)."""
    data = -(-nbytes // PAGE) * PAGE
    region = mmap.mmap(-1, data + 2 * PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    base = ctypes.addressof(ctypes.c_char.from_buffer(region))
    for at in (base, base + PAGE + data):
        if _libc.mprotect(at, PAGE, _PROT_NONE) != 0:
            raise OSError(ctypes.get_errno(), "mprotect failed")
    start = (PAGE + data - nbytes) // ALIGN * ALIGN
    # torch.frombuffer keeps `region` alive as long as the tensor's storage
    return torch.frombuffer(region, dtype=dtype, count=nbytes // dtype.itemsize, offset=start)


def _flat(nbytes: int, dtype: torch.dtype) -> torch.Tensor:
    try:
        return _storage(nbytes, dtype)
    except OSError:  # out of mappings: unfenced memory rather than a failed run
        return torch.empty(nbytes // dtype.itemsize, dtype=dtype)


def like(t: torch.Tensor) -> torch.Tensor:
    """Fresh fenced memory with `t`'s size, strides and storage offset (contents undefined)."""
    nbytes = t.untyped_storage().nbytes()
    if nbytes == 0 or t.device.type != "cpu":
        return torch.empty_like(t)
    return _flat(nbytes, t.dtype).as_strided(t.size(), t.stride(), t.storage_offset())


def clone(t: torch.Tensor) -> torch.Tensor:
    """A copy of `t` in fenced memory."""
    out = like(t)
    out.copy_(t)
    return out


def regrow(t: torch.Tensor, size: Sequence[int], fill: float | int | bool) -> bool:
    """For `t.resize_(size)` where that needs more memory than `t` has (torch cannot resize
    fenced memory): move `t`, contents kept and the new elements set to `fill` (the poison),
    to fenced memory that holds the new size, with the contiguous strides resize_ gives.
    False: it fits already, resize_ itself will do. Unlike torch, views of the old memory no
    longer see `t`'s writes."""
    if t.device.type != "cpu":
        return False
    numel = int(math.prod(size))
    needed = int((t.storage_offset() + numel) * t.element_size())
    old = t.untyped_storage()
    if needed <= old.nbytes():
        return False
    new = _flat(needed, t.dtype)
    new[old.nbytes() // t.element_size() :].fill_(fill)
    before = torch.empty(0, dtype=torch.uint8).set_(old, 0, (old.nbytes(),), (1,))
    new.view(torch.uint8)[: old.nbytes()].copy_(before)
    strides = [math.prod(size[i + 1 :]) for i in range(len(size))]
    t.set_(new.untyped_storage(), t.storage_offset(), tuple(size), tuple(strides))
    return True
