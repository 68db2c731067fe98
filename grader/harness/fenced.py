"""CPU tensors whose memory ends at an inaccessible page (the Triton interpreter only).

Under `TRITON_INTERPRET=1` a kernel's loads and stores are plain reads and writes of the
process's memory. One that runs past the end of a tensor from the heap lands in whatever lies
next to it: another tensor (a wrong answer, or none), malloc's own bookkeeping (`free(): invalid
pointer` much later, in torch's code), or a corrupted free list that malloc then walks for ever.
Which one depends on the heap's layout, so the same kernel could be `wrong_answer` in one
grading, `runtime_error` in the next and a time-out in a third.

Here each tensor the kernel can reach gets its own mapping, placed so that its last byte is the
last byte before a page with no access (and a second such page precedes it): the first element
past the end faults at once, in the kernel, and the child dies of SIGSEGV, which the grade
explains as an out-of-bounds load or store. One before the start faults at the latest a page
(4 KiB) before it; the start itself cannot be page-aligned as well.
"""

from __future__ import annotations

import ctypes
import mmap

import torch

PAGE = mmap.PAGESIZE
_PROT_NONE = 0
_libc = ctypes.CDLL(None, use_errno=True)
_libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_libc.mprotect.restype = ctypes.c_int


def _storage(nbytes: int, dtype: torch.dtype) -> torch.Tensor:
    """A 1-D tensor of `nbytes` bytes ending where an inaccessible page begins."""
    data = -(-nbytes // PAGE) * PAGE
    region = mmap.mmap(-1, data + 2 * PAGE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(region))
    for at in (base, base + PAGE + data):
        if _libc.mprotect(at, PAGE, _PROT_NONE) != 0:
            raise OSError(ctypes.get_errno(), "mprotect failed")
    # torch.frombuffer keeps `region` alive as long as the tensor's storage
    return torch.frombuffer(
        region, dtype=dtype, count=nbytes // dtype.itemsize, offset=PAGE + data - nbytes
    )


def like(t: torch.Tensor) -> torch.Tensor:
    """Fresh fenced memory with `t`'s size, strides and storage offset (contents undefined)."""
    nbytes = t.untyped_storage().nbytes()
    if nbytes == 0 or t.device.type != "cpu":
        return torch.empty_like(t)
    return _storage(nbytes, t.dtype).as_strided(t.size(), t.stride(), t.storage_offset())


def clone(t: torch.Tensor) -> torch.Tensor:
    """A copy of `t` in fenced memory."""
    out = like(t)
    out.copy_(t)
    return out
