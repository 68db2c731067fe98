#!/bin/bash
# On a 2-GPU device machine, one call of about 9.5 minutes (results under $OUT): the scale-out
# run (gpu_scaleout.py: one GPU worker, then two, on the real service), then, on its warm
# KGRADE_HOME, one command per GPU (GPU0_CMD, GPU1_CMD; the defaults below are the session's
# last call of 2026-11-30: the pruned lab file with Nsight twice and without it once | the
# cross-entropy reference's level-3 GPU test). Step timeouts add up to less than the call's limit.
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
machine_info > "$OUT/machine.txt" 2>&1; lscpu >> "$OUT/machine.txt" 2>&1
printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$PWD/.bwrap/redis/lib" "$PWD/.bwrap/redis/redis-server" > /tmp/redis-server
chmod +x /tmp/redis-server
nvidia-smi --query-compute-apps=timestamp,gpu_uuid,pid,used_memory --format=csv,noheader -lms 1000 > "$OUT/apps.csv" 2>&1 &
SMI=$!
timeout ${SCALEOUT_S:-400} python3 benchmarks/gpu_scaleout.py /tmp/so --redis /tmp/redis-server --correct 6 --limit 200 ${SCALEOUT_ARGS:-} > "$OUT/scaleout.log" 2>&1
kill $SMI
cp /tmp/so/scaleout.json "$OUT/" 2>/dev/null
mkdir -p /tmp/r0 /tmp/r1
ln -sfn /tmp/kgrade-scaleout /tmp/r0/cache
ln -sfn /tmp/kgrade-scaleout /tmp/r1/cache
GPU0_CMD=${GPU0_CMD:-"python3 benchmarks/gpu_record.py /tmp/r0 nsight"}
GPU1_CMD=${GPU1_CMD:-"env KGRADE_GPU_RECORD=/tmp/r1/tests python3 -m pytest -m gpu tests/gpu -k 'level_3 and cross' -q -p no:cacheprovider"}
(CUDA_VISIBLE_DEVICES=0 timeout ${REST_S:-170} bash -c "$GPU0_CMD" > "$OUT/gpu0.log" 2>&1) &
(CUDA_VISIBLE_DEVICES=1 timeout ${REST_S:-170} bash -c "$GPU1_CMD" > "$OUT/gpu1.log" 2>&1) &
wait
cp /tmp/r0/record-*.json /tmp/r1/record-*.json "$OUT/" 2>/dev/null
cp -r /tmp/r1/tests "$OUT/tests" 2>/dev/null
ls -la "$OUT"
