#!/bin/bash
# On a 2-GPU device machine, one call of about 6 minutes (results under $OUT), cold caches:
#   GPU 0: the cross-entropy sweep (ce_sweep.py: the reference as shipped and its row kernel
#          over a grid of launch parameters), then the pruned lab file graded with Nsight twice and once
#          without it (gpu_record.py nsight; on 2026-11-30 this ran the reverted child-under-ncu
#          design);
#   GPU 1: the GPU tests' references at level 3 (pytest -m gpu -k level_3).
# Step timeouts add up to less than the call's limit.
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/r0
machine_info > "$OUT/machine.txt" 2>&1
(export CUDA_VISIBLE_DEVICES=0
 timeout ${SWEEP_S:-100} python3 benchmarks/ce_sweep.py "$OUT/ce-sweep.json" > "$OUT/ce-sweep.log" 2>&1
 timeout ${NSIGHT_S:-230} python3 benchmarks/gpu_record.py /tmp/r0 nsight > "$OUT/gpu0.log" 2>&1
 cp /tmp/r0/record-*.json "$OUT/" 2>/dev/null) &
(export CUDA_VISIBLE_DEVICES=1 KGRADE_GPU_RECORD=/tmp/r1
 timeout ${TESTS_S:-330} python3 -m pytest -m gpu tests/gpu -k level_3 -q -p no:cacheprovider > "$OUT/pytest-gpu.txt" 2>&1
 cp -r /tmp/r1 "$OUT/r1" 2>/dev/null) &
wait
ls -la "$OUT"
