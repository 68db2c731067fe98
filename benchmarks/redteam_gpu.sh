#!/usr/bin/env bash
# One device call: benchmarks/redteam_gpu.py, the red-team files the CPU cannot judge or gets
# wrong, graded on the GPU for correctness. What comes back: $OUT/redteam.txt.
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
timeout ${T_REDTEAM:-300} python3 benchmarks/redteam_gpu.py "$@" > "$OUT/redteam.txt" 2>&1
cat "$OUT/redteam.txt"
