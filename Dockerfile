# One image for the API and both kinds of worker. The GPU worker needs the NVIDIA container
# runtime; PyPI's torch wheel carries its CUDA libraries.
FROM python:3.12-slim
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap util-linux gcc \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /srv/kgrade
COPY . .
RUN pip install --no-cache-dir torch && pip install --no-cache-dir -e .
ENV KGRADE_HOME=/var/lib/kgrade
EXPOSE 8000
