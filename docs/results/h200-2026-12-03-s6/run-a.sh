#!/usr/bin/env bash
# Device run A (session 6): map-based hot-key combining. Tests with combining forced on, sanitizers, dynamic benches.
set -u
cd "$(dirname "$0")/.."
B=$PWD/build/native; mkdir -p $B && tar -C $B -xJf .carry/native-build.tar.xz
R=$OUT/all.txt; T=$B/native/tests; W=$B/native/bench/wixbench
export WIXLIB_REQUIRE_GPU=1 WIXLIB_SEED=${WIXLIB_SEED:-$(date +%s)}
log() { echo "== $* ($(date +%T))" >>$R; }
run() { local s=$SECONDS; "$@" >/tmp/t.log 2>&1; local rc=$?; echo "   rc=$rc ($((SECONDS-s)) s): $*" >>$R; tail -4 /tmp/t.log >>$R; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>$R; echo "seed $WIXLIB_SEED" >>$R
log "combining forced on (WIXLIB_HOT_SHARE=100): mixed parts"
WIXLIB_HOT_SHARE=100 WIXLIB_PARTS=mixed run $T/gpu_api_glht
WIXLIB_HOT_SHARE=100 WIXLIB_PARTS=mixed run $T/gpu_api_hive
WIXLIB_HOT_SHARE=100 WIXLIB_STRESS_OPS=3000000 run $T/gpu_stress_glht
WIXLIB_HOT_SHARE=100 WIXLIB_STRESS_OPS=3000000 run $T/gpu_stress_hive
log "sanitizers, small, combining forced on"
for tool in memcheck racecheck; do
  WIXLIB_SMALL=1 WIXLIB_HOT_SHARE=100 WIXLIB_PARTS=mixed run compute-sanitizer --tool $tool --error-exitcode 9 $T/gpu_api_glht
done
WIXLIB_SMALL=1 WIXLIB_HOT_SHARE=100 WIXLIB_PARTS=mixed run compute-sanitizer --tool memcheck --error-exitcode 9 $T/gpu_api_hive
log "wixbench dynamic: default thresholds, never (0), always (100)"
for k in glht hive; do
  for hs in "" 0 100; do
    echo "-- $k WIXLIB_HOT_SHARE=$hs" >>$R
    WIXLIB_HOT_SHARE=$hs $W --kind $k --bench dynamic --reps 3 2>&1 | grep -E "^dynamic|^wixbench|^kind" >>$R
  done
done
log "trace of the Hive mixed batch"
WIXLIB_TRACE=1 $W --kind hive --bench dynamic --reps 1 2>&1 | grep -iE "trace|^dynamic" | head -60 >>$R
log "ncu: Hive mixed phase 1"
ncu --kernel-name-base demangled --kernel-name "regex:Kv32, .wx::hive::Mode.5" --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats $W --kind hive --bench dynamic --reps 1 >$OUT/ncu.txt 2>&1
log done
