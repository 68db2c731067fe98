"""The byte format across the trust boundary refuses anything malformed."""

import io
import struct

import pytest
import torch

from grader.sandbox.harness import wire


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.int64])
def test_tensors_round_trip(dtype: torch.dtype) -> None:
    t = (torch.randn(3, 5) * 10).to(dtype)
    buf = io.BytesIO()
    wire.write_tensors(buf, [t, t[:, 1:]])
    buf.seek(0)
    a, b = wire.read_tensors(buf, 1 << 20)
    assert torch.equal(a, t) and torch.equal(b, t[:, 1:].contiguous())


def test_size_mismatch_is_refused() -> None:
    with pytest.raises(wire.WireError, match="payload size"):
        wire.decode_tensor({"dtype": "float32", "shape": [4]}, b"\0" * 12)


@pytest.mark.parametrize(
    "meta", [{"dtype": "object", "shape": [1]}, {"dtype": "float32", "shape": [-1]}, "x", None]
)
def test_bad_meta_is_refused(meta: object) -> None:
    with pytest.raises(wire.WireError):
        wire.decode_tensor(meta, b"")


def test_oversized_stream_is_refused() -> None:
    buf = io.BytesIO()
    wire.write_frame(buf, {"type": "x"}, b"\0" * 1000)
    buf.seek(0)
    with pytest.raises(wire.WireError, match="size limit"):
        list(wire.read_frames(buf, max_total=100))


def test_truncated_and_non_json_frames_are_refused() -> None:
    with pytest.raises(wire.WireError):
        list(wire.read_frames(io.BytesIO(b"\x01\x02"), 1 << 20))
    raw = struct.pack("<IQ", 3, 0) + b"{x}"
    with pytest.raises(wire.WireError):
        list(wire.read_frames(io.BytesIO(raw), 1 << 20))
