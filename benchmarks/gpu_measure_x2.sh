#!/bin/bash
# On a 2-GPU device machine, in one call of about 9 minutes (results under $OUT):
#  1. gpu_pair.py: one grading alone, then two side by side (default and limited CPU threads);
#  2. then, one GPU each: the cross-entropy and softmax references with Nsight (single-run
#     profile, baselines kept) and the CPU-precheck test | the pruned lab file with Nsight, the
#     speedup spread against timed rounds, and time against benchmark shapes and configs.
# Every step has its own timeout, and they add up to less than the call's limit.
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
machine_info > "$OUT/machine.txt" 2>&1
timeout ${PAIR_S:-230} python3 benchmarks/gpu_pair.py /tmp/pair -n ${PAIR_N:-2} --threads 0,4 \
  > "$OUT/pair.log" 2>&1
cp /tmp/pair/pair.json "$OUT/" 2>/dev/null
export KGRADE_GPU_RECORD=/tmp/rec
(
  export CUDA_VISIBLE_DEVICES=0
  timeout ${REFS_S:-230} python3 -m pytest -m gpu tests/gpu -p no:cacheprovider -q -s \
    -k "reference and (cross or softmax)"
  timeout 45 python3 -m pytest -m gpu tests/gpu -p no:cacheprovider -q -k "cpu_precheck"
) > "$OUT/gpu0.log" 2>&1 &
(
  export CUDA_VISIBLE_DEVICES=1
  # one folder: the later steps find the calibration, compile baselines and Triton cache
  timeout 80 python3 benchmarks/gpu_record.py /tmp/r1 nsight
  timeout 120 python3 benchmarks/gpu_record.py /tmp/r1 rounds
  timeout 90 python3 benchmarks/gpu_record.py /tmp/r1 shapes
) > "$OUT/gpu1.log" 2>&1 &
wait
cp /tmp/r1/record-*.json "$OUT/" 2>/dev/null
tar czf "$OUT/graded.tgz" -C /tmp rec 2>/dev/null
ls -la "$OUT"
