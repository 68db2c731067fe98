#!/bin/bash
# On a 2-GPU device machine: the scale-out run (benchmarks/gpu_scaleout.py), then the reference
# gradings of the GPU test suite not yet recorded, one GPU each. Results under $OUT.
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH_REDIS="$PWD/.bwrap/redis/lib"
printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$LD_LIBRARY_PATH_REDIS" "$PWD/.bwrap/redis/redis-server" > /tmp/redis-server
chmod +x /tmp/redis-server
nvidia-smi --query-gpu=index,uuid,name --format=csv > "$OUT/gpus.csv"
nvidia-smi --query-compute-apps=timestamp,gpu_uuid,pid,used_memory --format=csv,noheader -lms 1000 > "$OUT/apps.csv" 2>&1 &
SMI=$!
timeout ${SCALEOUT_S:-400} python3 benchmarks/gpu_scaleout.py /tmp/so --redis /tmp/redis-server --correct ${CORRECT:-6} --limit 200 ${SCALEOUT_ARGS:-} > "$OUT/scaleout.log" 2>&1
kill $SMI
cp /tmp/so/scaleout.json "$OUT/" 2>/dev/null
tail -c 3000 /tmp/so/gpu0.log > "$OUT/gpu0-worker.log" 2>/dev/null
export KGRADE_GPU_RECORD=/tmp/rec
(CUDA_VISIBLE_DEVICES=0 timeout ${REFS_S:-170} python3 -m pytest -m gpu tests/gpu -k "reference and ${REFS0:-softmax}" -p no:cacheprovider -q > "$OUT/refs0.log" 2>&1) &
(CUDA_VISIBLE_DEVICES=1 timeout ${REFS_S:-170} python3 -m pytest -m gpu tests/gpu -k "reference and ${REFS1:-vector}" -p no:cacheprovider -q > "$OUT/refs1.log" 2>&1) &
wait
tar czf "$OUT/graded.tgz" -C /tmp rec 2>/dev/null
ls -la "$OUT"
