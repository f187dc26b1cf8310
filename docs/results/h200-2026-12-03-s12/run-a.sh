#!/usr/bin/env bash
# Device run A (s12): bulk calls in region order (common/region_order.cuh: large batches grouped by
# the table region they hit, so a wave's lines stay in L2), GLHT erases as one wave of 3 blocks per
# SM (GLHT_ERASE_WAVE_PER_SM now 3), Hive phase-2 rounds traced. A/B interleaved twice, variants by
# scripts/bench-variant.sh:
#   glht_table.cu: o0 -DGLHT_ORDER_MODES=0 (no ordering) · oall =63 (every mode) · or2 / or32
#     -DGLHT_ORDER_REGION_MB=2 / 32 (default 8)
#   glht_kernels.cu: e0 / e2 -DGLHT_ERASE_WAVE_PER_SM=0 / 2
#   hive_table.cu: h0 -DHIVE_ORDER_MODES=0 · hall =63 · hr2 / hr32 -DHIVE_ORDER_REGION_MB=2 / 32
# then the card's atomic rates on L2-sized arrays, and the whole GPU suite with memcheck + racecheck
# on the small cases.
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench; R=$OUT/wixbench.txt
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
log() { echo "-- $* ($(date +%T))" >>$R; }
for i in 1 2; do
  for v in "" _o0 _oall _or2 _or32 _e0 _e2; do
    log "glht static$v"; $W/wixbench$v --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
  done
  for v in "" _h0 _hall _hr2 _hr32; do
    log "hive static$v"; $W/wixbench$v --kind hive --bench static --lf 0.8 --reps 3 2>&1 | grep -E "^static" >>$R
  done
done
for v in "" _oall; do
  log "glht dynamic$v"; $W/wixbench$v --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R
done
for v in "" _hall; do
  log "hive dynamic$v"; $W/wixbench$v --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R
done
log "glht static presort 8 (o0)"; $W/wixbench_o0 --kind glht --bench static --reps 3 --presort-bits 8 2>&1 | grep -E "^static" >>$R
WIXLIB_TRACE=1 $W/wixbench --kind glht --bench static --reps 1 >$OUT/trace-glht-static.txt 2>&1
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench static --lf 0.95 --reps 4 >$OUT/trace-hive-0.95.txt 2>&1
for s in 21 27; do $W/atomic_probe $s 26 >>$OUT/atomic-probe.txt 2>&1; done
log "suite"
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
log done
