#!/usr/bin/env bash
# Grades on the GPU the red-team submissions that the CPU grading gets wrong or cannot judge
# (tests/security/test_redteam_compute.py: GETS_THROUGH and GPU_ONLY), one line each:
#   bash benchmarks/redteam_gpu.sh > benchmarks/results/2026-12-01-h200-redteam.txt
# A hostile file graded `correct` here got through the GPU stage as well.
set -u
cd "$(dirname "$0")/.."
dir=tests/fixtures/submissions/redteam
for n in attn_fp16_normalized_acc attn_fp16_rowsum attn_no_running_max attn_pv_dot_out_fp16 \
         gemm_fp16_acc_big_block_k gemm_split_k_fp16_partials \
         attn_causal_only_small attn_skips_long_seq attn_window_1024_long_seq \
         gemm_drops_k_tail_large_k; do
  f="$dir/$n.py"
  cp=$(sed -n 2p "$f" | sed 's/# checkpoint: //')
  out=$(timeout 150 .venv/bin/kgrade grade "$f" --checkpoint "$cp" --device cuda --no-profile 2>&1)
  echo "$n [$cp] $(grep -m1 '^verdict' <<<"$out")"
  grep -E '^\s+FAIL' <<<"$out" | head -3
done
