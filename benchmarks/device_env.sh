# Sourced at the start of every device call: carried bubblewrap and wheels, no installs.
set -u
export PATH="$PWD/.bwrap/bin:$PATH" PYTHONUNBUFFERED=1
if [ -d .whl ]; then
  # the image's own numpy (the one its torch was built with) wins over the carried one
  wheels=$(ls .whl/*.whl | { if python3 -c 'import numpy' 2>/dev/null; then grep -v '/numpy-'; else cat; fi; })
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site $wheels >/dev/null 2>&1 && export PYTHONPATH="/tmp/site:$PWD"
fi
export PYTHONPATH="${PYTHONPATH:-$PWD}"

# The machine, for the record: GPUs, driver, torch/CUDA/Triton, ncu, CPU cores.
machine_info() {
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm --format=csv
  python3 -c 'import torch, triton; print("torch", torch.__version__, "cuda", torch.version.cuda, "triton", triton.__version__)'
  ncu --version | tail -1
  nproc
}
