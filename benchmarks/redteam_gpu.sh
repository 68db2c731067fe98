#!/usr/bin/env bash
# One device call: benchmarks/redteam_gpu.py over the arguments (fixture names or red-team
# files), split over SHARDS processes side by side on the GPU (default 1), each under
# T_REDTEAM seconds. What comes back: $OUT/redteam-I.txt per shard and $OUT/machine.txt.
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
SHARDS=${SHARDS:-1}
mkdir -p "$OUT"
machine_info > "$OUT/machine.txt" 2>&1
for i in $(seq 0 $((SHARDS - 1))); do
  timeout ${T_REDTEAM:-300} python3 benchmarks/redteam_gpu.py --shard "$i/$SHARDS" "$@" \
    > "$OUT/redteam-$i.txt" 2>&1 &
done
wait
cat "$OUT"/redteam-*.txt | grep -v '^    FAIL'
