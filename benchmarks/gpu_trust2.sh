#!/bin/bash
# Device call 2 of 2026-12-01 (nvidia-h200): the GPU tests fixed after call 1, the timing
# tests again, the lab file's spread and Nsight gradings (gpu_record.py lab nsight), then the
# honest catalog on the GPU as time allows. One archive back: $OUT/trust2.tgz.
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
V=/tmp/trust2
mkdir -p "$OUT" $V
machine_info > $V/machine.txt 2>&1
timeout ${T_TESTS:-170} python3 -m pytest -m gpu -q -p no:cacheprovider tests/gpu/test_gpu_timing.py \
  "tests/gpu/test_gpu_grading.py::test_lab_file_with_a_wrong_explanation_stays_at_level_2" \
  "tests/gpu/test_gpu_grading.py::test_answers_cached_or_skipped_while_timed_are_wrong" > $V/gpu-tests.log 2>&1
timeout ${T_RECORD:-200} python3 benchmarks/gpu_record.py $V/record lab nsight > $V/record.log 2>&1
cp $V/record/record-*.json $V/ 2>/dev/null; rm -rf $V/record/*/ 2>/dev/null
timeout ${T_CATALOG:-170} python3 benchmarks/catalog_gpu.py $V/catalog-honest.json --only honest > $V/catalog.log 2>&1
tar czf "$OUT/trust2.tgz" -C /tmp trust2
tail -3 $V/gpu-tests.log $V/record.log $V/catalog.log
