# The CPU image: the API, the CPU precheck workers, the reconciler and the migrations. No CUDA
# libraries (torch's CPU build); Triton's own compiler and ptxas come with its wheel, for the
# precheck's compile check. Versions: versions.env (PYTHON_VERSION below must equal it).
# The GPU workers' image is Dockerfile.gpu. Built from a clean context: .dockerignore.
ARG PYTHON_VERSION=3.11
FROM python:${PYTHON_VERSION}-slim-bookworm

# bubblewrap is the sandbox, setpriv (util-linux) drops the sandbox to `nobody`; gcc builds the
# small C modules Triton compiles at run time. OS packages follow the base image's Debian release
# (security updates); the Python stack is what versions.env pins.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends bubblewrap util-linux gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/kgrade --create-home kgrade

WORKDIR /srv/kgrade
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONUNBUFFERED=1
# torch and Triton first, in a layer of their own (the largest, and the slowest to change)
COPY versions.env ./
# hadolint ignore=SC1091
RUN . ./versions.env \
    && pip install --index-url "$TORCH_CPU_INDEX" "torch==$TORCH_VERSION" \
    && pip install "triton==$TRITON_VERSION"
COPY . .
# hadolint ignore=SC1091
RUN . ./versions.env \
    && pip install -e . "torch==$TORCH_VERSION" "triton==$TRITON_VERSION" \
    && python -c "import torch; assert torch.version.cuda is None, torch.version.cuda"

ENV KGRADE_HOME=/var/lib/kgrade
# Non-root by default (the API, the migrations, the reconciler). The workers run as root in
# their container (docker-compose.yml: user: root), because the sandbox drops each submission
# to the real uid `nobody` with no capabilities, in a memory cgroup and size-capped tmpfs
# folders of its own, only when it starts as root.
USER 10001
EXPOSE 8000
CMD ["kgrade", "api", "--host", "0.0.0.0", "--port", "8000"]
