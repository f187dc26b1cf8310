#!/usr/bin/env bash
# Device run B (s12), A/B interleaved twice (variants by scripts/bench-variant.sh):
#   - streaming hints on the batch arrays (common/batch_io.cuh, WX_STREAM_BATCH 1: keys, values, ops
#     read and outcomes written with ld/st .cs, evict first) against plain accesses: gs0
#     (glht_kernels.cu) and hs0 (hive_ops.cu) -DWX_STREAM_BATCH=0;
#   - Hive tables made with their insert workspace (HIVE_PREALLOC 1) against hp0 (hive_table.cu
#     -DHIVE_PREALLOC=0: a fresh table's first insert allocates it between its kernels);
# Hive traced at LF 0.8 and 0.95 (phase-2 rounds); then the whole GPU suite with memcheck +
# racecheck on the small cases.
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench; R=$OUT/wixbench.txt
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
log() { echo "-- $* ($(date +%T))" >>$R; }
for i in 1 2; do
  for v in "" _gs0; do
    log "glht static$v"; $W/wixbench$v --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
    log "glht dynamic$v"; $W/wixbench$v --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*(16777215|,100\])" >>$R
  done
  for v in "" _hs0 _hp0; do
    log "hive static 0.8$v"; $W/wixbench$v --kind hive --bench static --lf 0.8 --reps 3 2>&1 | grep -E "^static" >>$R
    log "hive dynamic$v"; $W/wixbench$v --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*(16777215|,100\])" >>$R
  done
done
for v in "" _hp0; do
  log "hive static 0.95$v"; $W/wixbench$v --kind hive --bench static --lf 0.95 --reps 3 2>&1 | grep -E "^static.*insert" >>$R
  WIXLIB_TRACE=1 $W/wixbench$v --kind hive --bench static --lf 0.8 --reps 2 >$OUT/trace-hive-0.8$v.txt 2>&1
done
log "suite"
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
log done
