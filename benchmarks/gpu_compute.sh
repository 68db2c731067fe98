#!/bin/bash
# One call on a single-GPU device machine (nvidia-h200), for issue 23 (compute-bound evidence):
# the tensor-core ceilings per dtype (cuBLAS 8192³: bf16, fp16, fp32 with TF32, and fp32 FFMA),
# then c3a-gemm-e3's and c3a-attention's references graded with the benchmark and Nsight, each
# twice — profiled without an explanation, then with the one written from that grading's
# citable table (benchmarks/gpu_compute.py). PART=tests instead runs the GPU tests of
# tests/gpu/test_gpu_compute.py. What comes back: $OUT/compute.tgz (record.json, record.md,
# the logs, machine.txt) and, apart so that a large one cannot hold the rest back,
# $OUT/ncu-reports.tgz (the submissions' Nsight reports).
# Step timeouts add up to less than the call's limit (T_* override them).
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
V=/tmp/compute
mkdir -p "$OUT" $V
machine_info > $V/machine.txt 2>&1
case "${PART:-record}" in
  record)
    timeout ${T_RECORD:-450} python3 benchmarks/gpu_compute.py $V ${WHAT:-} > $V/record.log 2>&1
    ;;
  tests)
    timeout ${T_TESTS:-450} python3 -m pytest -m gpu tests/gpu/test_gpu_compute.py -q \
      -p no:cacheprovider -k "${TESTS_K:-not nothing}" > $V/gpu-tests.log 2>&1
    ;;
esac
tar czf "$OUT/compute.tgz" -C /tmp --exclude=compute/cache --exclude='*.ncu-rep' compute
(cd /tmp && find compute -name '*.ncu-rep' -print0 | tar czf "$OUT/ncu-reports.tgz" --null -T -)
tail -40 $V/*.log
