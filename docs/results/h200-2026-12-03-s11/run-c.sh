#!/usr/bin/env bash
# Device run C (s11): GLHT inserts as one wave of 3 blocks per SM (GLHT_INSERT_WAVE_PER_SM, fewer
# than the 4 that fit). The whole GPU suite with memcheck + racecheck on the small cases, then A/B,
# interleaved, twice (variants by scripts/bench-variant.sh):
#   glht_kernels.cu: i0 -DGLHT_INSERT_WAVE_PER_SM=0 (run B's inserts) · i2 =2 · e4 / e3
#   -DGLHT_ERASE_WAVE_PER_SM=4 / 3 · m3 -DGLHT_MIXED_WAVE_PER_SM=3 · mb3 -DGLHT_MIXED_MIN_BLOCKS=3
#   hive_ops.cu: hi4 / hi3 -DHIVE_INSERT_WAVE_PER_SM=4 / 3 · hm4 -DHIVE_MIXED_WAVE_PER_SM=4
# and a full trace of Hive's LF 0.95 inserts (phase 2 rounds).
set -u
cd "$(dirname "$0")/../../.."
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
W=build/native/native/bench; R=$OUT/wixbench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
for i in 1 2; do
  for v in "" _i0 _i2 _e4 _e3; do
    log "glht static$v"; $W/wixbench$v --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
  done
  for v in "" _i0; do
    log "glht static 2^24$v"; $W/wixbench$v --kind glht --bench static --log2n 24 --reps 3 2>&1 | grep -E "^static.*insert" >>$R
  done
  for v in "" _m3 _mb3; do
    log "glht dynamic$v"; $W/wixbench$v --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*(16777215|,100\])" >>$R
  done
  for v in "" _hi4 _hi3; do
    log "hive static$v"; $W/wixbench$v --kind hive --bench static --lf 0.8 --reps 3 2>&1 | grep -E "^static.*insert" >>$R
  done
  for v in "" _hm4; do
    log "hive dynamic$v"; $W/wixbench$v --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R
  done
done
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench static --lf 0.95 --reps 3 >$OUT/trace-hive-0.95-full.txt 2>&1
WIXLIB_TRACE=1 $W/wixbench --kind glht --bench static --reps 1 >$OUT/trace-glht-static.txt 2>&1
log done
