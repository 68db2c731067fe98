#!/bin/bash
# One call on a single-GPU device machine (nvidia-h200), for issues 17-19 (trust): what comes
# back is one archive, $OUT/trust.tgz. PART=tests: the GPU tests (pytest -m gpu), every
# grading's result kept (KGRADE_GPU_RECORD). PART=catalog: the security catalogs graded on the
# GPU (benchmarks/catalog_gpu.py), then the references graded five times each with the
# benchmark (spread of the speedups) and the pruned lab file with Nsight (gpu_record.py).
# Step timeouts add up to less than the call's limit (T_* override them).
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
V=/tmp/trust
mkdir -p "$OUT" $V
machine_info > $V/machine.txt 2>&1
case "${PART:-tests}" in
  tests)
    KGRADE_GPU_RECORD=$V/tests timeout ${T_TESTS:-540} python3 -m pytest -m gpu tests/gpu \
      -q -p no:cacheprovider -k "${TESTS_K:-not nothing}" > $V/gpu-tests.log 2>&1
    ;;
  catalog)
    timeout ${T_CATALOG:-240} python3 benchmarks/catalog_gpu.py $V/catalog.json > $V/catalog.log 2>&1
    timeout ${T_SPREAD:-200} python3 benchmarks/gpu_record.py $V/spread ${SPREAD_ARGS:-} > $V/spread.log 2>&1
    cp $V/spread/record-*.json $V/ 2>/dev/null
    ;;
esac
tar czf "$OUT/trust.tgz" -C /tmp trust
tail -5 $V/*.log
