#!/bin/bash
# One device call (nvidia-h200) for issue 23, before its checkpoints: the dense matmul ceilings
# per dtype, a plain Triton GEMM and attention against cuBLAS / SDPA / naive
# (benchmarks/compute_probe.py), and which compute-bound Nsight metrics this ncu has and can
# collect here. Everything lands in $OUT (probe.json, probe.log, ncu-*.txt, machine.txt).
source benchmarks/device_env.sh
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
machine_info > "$OUT/machine.txt" 2>&1
ncu --query-metrics > /tmp/all-metrics.txt 2>&1
grep -iE "tensor|hmma|gmma|sm__throughput|inst_executed_pipe|flop|fma" /tmp/all-metrics.txt > "$OUT/ncu-metrics.txt"
want=""
for m in sm__pipe_tensor_op_hmma_cycles_active sm__pipe_tensor_op_gmma_cycles_active \
         sm__pipe_tensor_cycles_active sm__inst_executed_pipe_tensor_op_hmma \
         sm__inst_executed_pipe_tensor_op_gmma sm__throughput sm__pipe_fma_cycles_active \
         sm__sass_thread_inst_executed_op_ffma_pred_on sm__sass_thread_inst_executed_op_hfma_pred_on; do
  grep -qE "^$m( |$)" /tmp/all-metrics.txt && want="$want $m"
done
echo "present:$want" >> "$OUT/ncu-metrics.txt"
list="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum"
for m in $want; do
  case $m in
    *cycles_active|sm__throughput) list="$list,$m.avg.pct_of_peak_sustained_active,$m.avg.pct_of_peak_sustained_elapsed" ;;
    *) list="$list,$m.sum" ;;
  esac
done
timeout 90 ncu --metrics "$list" --csv --page raw --clock-control none \
  python3 benchmarks/compute_probe.py --once > "$OUT/ncu-once.txt" 2>&1
timeout ${T_PROBE:-330} python3 benchmarks/compute_probe.py "$OUT/probe.json" > "$OUT/probe.log" 2>&1
tail -30 "$OUT/probe.log"
