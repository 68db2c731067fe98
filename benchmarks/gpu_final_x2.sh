#!/bin/bash
# On a 2-GPU device machine, one call of about 9 minutes (results under $OUT): the scale-out
# run (gpu_scaleout.py: one GPU worker, then two, on the real service), then, on its warm
# KGRADE_HOME, one GPU each: the time against the number of autotune configs checked (cold
# Triton caches) | the cross-entropy reference's launch-parameter sweep (ce_sweep.py).
# Step timeouts add up to less than the call's limit.
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$PWD/.bwrap/redis/lib" "$PWD/.bwrap/redis/redis-server" > /tmp/redis-server
chmod +x /tmp/redis-server
nvidia-smi --query-compute-apps=timestamp,gpu_uuid,pid,used_memory --format=csv,noheader -lms 1000 > "$OUT/apps.csv" 2>&1 &
SMI=$!
timeout ${SCALEOUT_S:-400} python3 benchmarks/gpu_scaleout.py /tmp/so --redis /tmp/redis-server --correct 6 --limit 200 > "$OUT/scaleout.log" 2>&1
kill $SMI
cp /tmp/so/scaleout.json "$OUT/" 2>/dev/null
mkdir -p /tmp/r0 /tmp/r1
ln -sfn /tmp/kgrade-scaleout /tmp/r0/cache
ln -sfn /tmp/kgrade-scaleout /tmp/r1/cache
(CUDA_VISIBLE_DEVICES=0 timeout ${REST_S:-170} python3 benchmarks/gpu_record.py /tmp/r0 configs > "$OUT/gpu0.log" 2>&1) &
(CUDA_VISIBLE_DEVICES=1 timeout ${REST_S:-170} python3 benchmarks/ce_sweep.py "$OUT/ce-sweep.json" > "$OUT/gpu1.log" 2>&1) &
wait
cp /tmp/r0/record-*.json /tmp/r1/record-*.json "$OUT/" 2>/dev/null
ls -la "$OUT"
