"""The byte format between the trusted parent and the sandboxed child.

No pickle crosses the boundary: a frame is a length-prefixed JSON header, optionally followed
by raw tensor bytes that the parent rebuilds with `torch.frombuffer` after checking dtype,
shape and size against what it expects. A child can send garbage; the reader refuses it.

This module is imported inside the sandbox, so it depends on nothing but the stdlib and torch.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable, Iterator
from typing import IO, Any

import torch

DTYPES: dict[str, torch.dtype] = {
    "float32": torch.float32,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float64": torch.float64,
    "int64": torch.int64,
    "int32": torch.int32,
    "uint8": torch.uint8,
    "bool": torch.bool,
}
DTYPE_NAMES = {v: k for k, v in DTYPES.items()}

MAX_HEADER = 1 << 20
# the frames of the timed rounds a GPU grading takes in turns with the parent (grader/gpu/turns.py)
TURN_KINDS = frozenset({"bench_ready", "bench_round", "bench_full"})
CHUNK = 1 << 20  # payloads are read this much at a time, into a buffer of the checked size
_HEAD = struct.Struct("<IQ")  # json length, payload length


class WireError(ValueError):
    """The peer sent something that is not a valid frame."""


def dtype_name(dtype: torch.dtype) -> str:
    try:
        return DTYPE_NAMES[dtype]
    except KeyError as exc:
        raise WireError(f"unsupported dtype {dtype}") from exc


def tensor_bytes(t: torch.Tensor) -> memoryview:
    """The tensor's raw bytes, without a copy where it is already a contiguous CPU tensor
    (a view: the caller writes it before the tensor changes)."""
    t = t.detach().to("cpu").contiguous().reshape(-1)
    if t.dtype == torch.bfloat16:  # numpy has no bfloat16: ship the raw 16-bit pattern
        t = t.view(torch.int16)
    return memoryview(t.numpy()).cast("B")  # type: ignore[arg-type]


def tensor_meta(t: torch.Tensor) -> dict[str, Any]:
    return {"dtype": dtype_name(t.dtype), "shape": list(t.shape)}


def write_frame(fp: IO[bytes], header: dict[str, Any], payload: bytes | memoryview = b"") -> None:
    raw = json.dumps(header).encode()
    fp.write(_HEAD.pack(len(raw), len(payload)))
    fp.write(raw)
    if payload:
        fp.write(payload)
    fp.flush()


def _read_payload(fp: IO[bytes], size: int) -> bytearray:
    """Exactly `size` bytes, read in bounded chunks (a `read(size)` would allocate `size` first,
    whatever arrives)."""
    buf = bytearray(size)
    view = memoryview(buf)
    got = 0
    while got < size:
        n = fp.readinto(view[got : got + CHUNK])  # type: ignore[attr-defined]
        if not n:
            raise WireError("truncated frame")
        got += n
    return buf


def _skip_payload(fp: IO[bytes], size: int) -> None:
    while size > 0:
        n = len(fp.read(min(size, CHUNK)))
        if not n:
            raise WireError("truncated frame")
        size -= n


def read_frames(
    fp: IO[bytes],
    max_total: int,
    check: Callable[[dict[str, Any], int], bool] | None = None,
) -> Iterator[tuple[dict[str, Any], bytes | bytearray]]:
    """Yield (header, payload) until EOF. Raises WireError on a malformed or oversized stream.
    `check(header, payload_size)` is called before a byte of the payload is read: it raises
    WireError to refuse an announcement (the parent knows what size each output must have),
    or returns False to skip the frame (its payload, within the stream's limit, is read in
    bounded chunks and dropped)."""
    total = 0
    while True:
        head = fp.read(_HEAD.size)
        if not head:
            return
        if len(head) != _HEAD.size:
            raise WireError("truncated frame")
        jlen, plen = _HEAD.unpack(head)
        total += _HEAD.size + jlen + plen
        if jlen > MAX_HEADER or total > max_total:
            raise WireError("result stream exceeds its size limit")
        raw = fp.read(jlen)
        if len(raw) != jlen:
            raise WireError("truncated frame")
        try:
            header = json.loads(raw)
        except ValueError as exc:
            raise WireError("frame header is not JSON") from exc
        if not isinstance(header, dict):
            raise WireError("frame header is not an object")
        if check is not None and not check(header, plen):
            _skip_payload(fp, plen)
            continue
        yield header, _read_payload(fp, plen) if plen else b""


def decode_tensor(meta: Any, payload: bytes | bytearray) -> torch.Tensor:
    """Rebuild a tensor from a header's meta and raw bytes, validating every field."""
    if not isinstance(meta, dict):
        raise WireError("tensor meta is not an object")
    dtype = DTYPES.get(meta.get("dtype"))  # type: ignore[arg-type]
    shape = meta.get("shape")
    if dtype is None:
        raise WireError(f"unsupported dtype {meta.get('dtype')!r}")
    if not isinstance(shape, list) or not all(isinstance(s, int) and s >= 0 for s in shape):
        raise WireError("bad shape")
    numel = 1
    for s in shape:
        numel *= s
    itemsize = torch.empty((), dtype=dtype).element_size()
    if numel * itemsize != len(payload):
        raise WireError("payload size does not match shape and dtype")
    if numel == 0:
        return torch.empty(shape, dtype=dtype)
    raw_dtype = torch.int16 if dtype == torch.bfloat16 else dtype
    buf = payload if isinstance(payload, bytearray) else bytearray(payload)
    t = torch.frombuffer(buf, dtype=raw_dtype).reshape(shape)
    return t.view(dtype) if raw_dtype is not dtype else t


def write_tensors(fp: IO[bytes], tensors: list[torch.Tensor]) -> None:
    """Write a list of tensors as one frame each (used for the inputs file)."""
    for t in tensors:
        write_frame(fp, {"tensor": tensor_meta(t)}, tensor_bytes(t))


def read_tensors(fp: IO[bytes], max_total: int) -> list[torch.Tensor]:
    return [decode_tensor(h.get("tensor"), p) for h, p in read_frames(fp, max_total)]
