#!/bin/bash
# On a 2-GPU device machine: the GPU test suite and the records, split over both GPUs so that
# they run side by side. Logs and JSON go to $OUT (the device tool brings them back).
#   bash benchmarks/gpu_records_x2.sh
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
machine_info > "$OUT/machine.txt" 2>&1
export KGRADE_GPU_RECORD=/tmp/rec
(
  export CUDA_VISIBLE_DEVICES=0
  timeout 270 python3 -m pytest -m gpu tests/gpu -k "not reference" -p no:cacheprovider -q -s
  timeout 270 python3 benchmarks/gpu_record.py /tmp/r0 lab
) > "$OUT/gpu0.log" 2>&1 &
(
  export CUDA_VISIBLE_DEVICES=1
  timeout 400 python3 -m pytest -m gpu tests/gpu -k reference -p no:cacheprovider -q -s
  timeout 140 python3 benchmarks/gpu_record.py /tmp/r1 configs
) > "$OUT/gpu1.log" 2>&1 &
wait
cp /tmp/r0/record-*.json /tmp/r1/record-*.json "$OUT/" 2>/dev/null
tar czf "$OUT/graded.tgz" -C /tmp rec
ls -la "$OUT"
