#!/usr/bin/env bash
# Device run A (s9): the GPU suite on GLHT claim-then-link inserts + Hive stash 1/16 (memcheck +
# racecheck on the API tests and Hive resizes), then interleaved A/B: GLHT claim-link vs the locked
# claim (_lock), Hive stash 1/16 vs 1/32 (_s32), drain above 4/64 vs 16/64 (_a16) and 48/64 (_a48).
set -u
cd "$(dirname "$0")/../../.."
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
W=build/native/native/bench; R=$OUT/wixbench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
for v in "" _lock "" _lock "" _lock; do
  log "glht static$v"; $W/wixbench$v --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
  log "glht dynamic$v"; $W/wixbench$v --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*(16777215|,100\])" >>$R
done
for v in "" _s32 _a16 _a48 "" _s32 _a16 _a48; do
  log "hive static$v"; $W/wixbench$v --kind hive --bench static --lf 0.8,0.95 --reps 3 2>&1 | grep -E "^static" >>$R
done
for v in "" _a48; do
  WIXLIB_TRACE=1 $W/wixbench$v --kind hive --bench static --lf 0.8,0.95 --reps 1 2>&1 | grep -E "drain|mode 2|insert|^static" >$OUT/trace$v.txt
done
for v in "" _s32 "" _s32; do
  log "hive dynamic$v"; $W/wixbench$v --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R
  log "hive growth$v"; $W/wixbench$v --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
done
log "hive static all LF"; $W/wixbench --kind hive --bench static --all-lf --reps 3 2>&1 | grep -E "^static" >>$R
log done
