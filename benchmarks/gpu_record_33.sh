#!/usr/bin/env bash
# Issue 33, device call 1 (nvidia-h200, under 10 minutes): the GPU record of the new timing
# (issue 29), problem.py's own sandbox (issue 32) and canonical program (issue 28) designs.
#   1. the built-in memory-bound references, each graded twice (the second with the explanation
#      written from the first's citable table), and the course's lab file: as written, then
#      pruned five times (the spread; the first is the cold grading) — gpu_record.py refs lab
#   2. an evict_last kernel's per-round gain through the harness's flush (evict_last_flush.py)
#   3. the GPU timing tests (honest twin, memo, skipped work), as time allows
# One archive back: $OUT/r33.tgz. The commit measured: benchmarks/results/…-commit.txt (written
# here before the call; the device gets no .git).
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
V=/tmp/r33
mkdir -p "$OUT" $V
cp COMMIT.txt $V/ 2>/dev/null
machine_info > $V/machine.txt 2>&1
timeout ${T_RECORD:-330} python3 benchmarks/gpu_record.py $V/record refs lab ${RECORD_IDS:-} > $V/record.log 2>&1
echo "record rc=$?" >> $V/record.log
cp $V/record/record-*.json $V/ 2>/dev/null; rm -rf $V/record/*/ 2>/dev/null
[ "${T_EVICT:-60}" = 0 ] || timeout ${T_EVICT:-60} python3 benchmarks/evict_last_flush.py > $V/evict.log 2>&1
echo "evict rc=$?" >> $V/evict.log
timeout ${T_TESTS:-150} python3 -m pytest -m gpu -q -p no:cacheprovider tests/gpu/test_gpu_timing.py > $V/gpu-tests.log 2>&1
tar czf "$OUT/r33.tgz" -C /tmp r33
tail -4 $V/record.log $V/evict.log $V/gpu-tests.log
