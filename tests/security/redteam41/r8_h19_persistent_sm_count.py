# expect: correct
# persistent softmax: grid = min(rows, SM count) from torch.cuda.get_device_properties, rows strided by tl.num_programs
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_persistent(x_ptr, y_ptr, sx, sy, n_rows, n_cols, BLOCK: tl.constexpr):
    start = tl.program_id(0)
    step = tl.num_programs(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    for row in tl.range(start, n_rows, step):
        x = tl.load(x_ptr + row * sx + cols, mask=m, other=-float("inf")).to(tl.float32)
        e = tl.exp(x - tl.max(x, 0))
        tl.store(y_ptr + row * sy + cols, (e / tl.sum(e, 0)).to(y_ptr.dtype.element_ty), mask=m)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    sms = torch.cuda.get_device_properties(x.device).multi_processor_count if x.is_cuda else 132
    grid = (max(1, min(n_rows, sms * 2)),)
    softmax_persistent[grid](x, y, x.stride(0), y.stride(0), n_rows, n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y
