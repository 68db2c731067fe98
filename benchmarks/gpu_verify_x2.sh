#!/bin/bash
# On a 2-GPU device machine, one call of about 8 minutes (everything comes back as one archive,
# $OUT/verify.tgz, since the device tool returns few files). GPU 0: the pruned lab file graded
# with Nsight, cold then warm, with the Nsight replay's child started early and not, and
# without Nsight (gpu_record.py nsight); then the softmax and RMSNorm references' level-3 GPU
# tests. GPU 1: the vector-add and cross-entropy references' level-3 GPU tests; with SWEEP=1
# then the cross-entropy launch sweep. Step timeouts add up to less than the call's limit.
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
V=/tmp/verify
mkdir -p "$OUT" $V
machine_info > $V/machine.txt 2>&1
(
  export CUDA_VISIBLE_DEVICES=0
  timeout ${T_LAB:-240} python3 benchmarks/gpu_record.py /tmp/r0 nsight
  cp /tmp/r0/record-*.json $V/ 2>/dev/null
  export KGRADE_GPU_RECORD=$V/tests0
  timeout ${T_TESTS0:-250} python3 -m pytest -m gpu tests/gpu -k "level_3 and (softmax or rmsnorm)" -q -p no:cacheprovider
) > $V/gpu0.log 2>&1 &
(
  export CUDA_VISIBLE_DEVICES=1 KGRADE_GPU_RECORD=$V/tests1
  timeout ${T_TESTS1:-360} python3 -m pytest -m gpu tests/gpu -k "level_3 and (vector or cross)" -q -p no:cacheprovider
  [ -n "${SWEEP:-}" ] && timeout ${T_SWEEP:-120} python3 benchmarks/ce_sweep.py $V/ce-sweep.json
) > $V/gpu1.log 2>&1 &
wait
tar czf "$OUT/verify.tgz" -C /tmp verify
tail -4 $V/gpu0.log $V/gpu1.log
