#!/bin/bash
# On a 2-GPU device machine, one call of about 9 minutes (everything comes back as one archive,
# $OUT/verify.tgz, since the device tool returns few files): every built-in reference's level-3
# GPU test (softmax and RMSNorm on GPU 0, vector add and cross-entropy on GPU 1), then the
# pruned lab file graded with Nsight twice and without once (gpu_record.py nsight) and the time
# of ncu --import on its report, whole or limited to the grade's metrics (GPU 0), and the
# cross-entropy launch sweep with its split-row candidates (GPU 1). Step timeouts add up to less
# than the call's limit.
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
V=/tmp/verify
mkdir -p "$OUT" $V
machine_info > $V/machine.txt 2>&1
(
  export CUDA_VISIBLE_DEVICES=0 KGRADE_GPU_RECORD=$V/tests0
  timeout ${T_TESTS0:-300} python3 -m pytest -m gpu tests/gpu -k "level_3 and (softmax or rmsnorm)" -q -p no:cacheprovider
  unset KGRADE_GPU_RECORD
  timeout ${T_LAB:-170} python3 benchmarks/gpu_record.py /tmp/r0 nsight
  cp /tmp/r0/record-*.json $V/ 2>/dev/null
  timeout 50 python3 benchmarks/ncu_import_speed.py /tmp/r0/c3a-softmax/submission-full.ncu-rep 3 $V/ncu-import.json
) > $V/gpu0.log 2>&1 &
(
  export CUDA_VISIBLE_DEVICES=1 KGRADE_GPU_RECORD=$V/tests1
  timeout ${T_TESTS1:-360} python3 -m pytest -m gpu tests/gpu -k "level_3 and (vector or cross)" -q -p no:cacheprovider
  timeout ${T_SWEEP:-160} python3 benchmarks/ce_sweep.py $V/ce-sweep.json
) > $V/gpu1.log 2>&1 &
wait
tar czf "$OUT/verify.tgz" -C /tmp verify
tail -4 $V/gpu0.log $V/gpu1.log
