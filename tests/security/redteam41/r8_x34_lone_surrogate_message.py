# expect: runtime_error|wrong_answer|forbidden|compile_error
# the entry raises an error whose message holds lone surrogates and NUL/ESC bytes (JSON/utf-8 encoding of the result)
import torch
import triton
import triton.language as tl


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    raise RuntimeError("bad \ud800\udfff\x00\x1b[2J " + chr(0xDC80) * 1000)
