#!/usr/bin/env bash
# Device run D (s13): first run of the Hive bulk build (hive_build.cu).
#   1. gpu_hive_invariants whole (its bulk-build part at 2^20), and its small case + bulk build at
#      2^15 under compute-sanitizer memcheck + racecheck;
#   2. wixbench hive static at LF 0.8 with the build (default) and without (WIXLIB_HIVE_BUILD_MIN=0),
#      interleaved twice; LF 0.95 both ways; 2^20..2^24 both ways (the threshold); a trace.
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench; T=build/native/native/tests; R=$OUT/wixbench.txt
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
log() { echo "-- $* ($(date +%T))" >>$R; }
log "hive invariants"
timeout 300 $T/gpu_hive_invariants >$OUT/test-hive.txt 2>&1; echo "rc=$?" >>$OUT/test-hive.txt
for tool in memcheck racecheck; do
  WIXLIB_SMALL=1 timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 \
    $T/gpu_hive_invariants >$OUT/sanitize-hive-$tool.txt 2>&1; echo "rc=$?" >>$OUT/sanitize-hive-$tool.txt
done
for i in 1 2; do
  for m in default 0; do
    log "hive static 0.8 build_min=$m"
    if [ $m = default ]; then $W/wixbench --kind hive --bench static --lf 0.8 --reps 3 2>&1 | grep -E "^static" >>$R
    else WIXLIB_HIVE_BUILD_MIN=0 $W/wixbench --kind hive --bench static --lf 0.8 --reps 3 2>&1 | grep -E "^static" >>$R; fi
  done
done
log "hive static 0.95 build / no build"
$W/wixbench --kind hive --bench static --lf 0.95 --reps 3 2>&1 | grep -E "^static" >>$R
WIXLIB_HIVE_BUILD_MIN=0 $W/wixbench --kind hive --bench static --lf 0.95 --reps 3 2>&1 | grep -E "^static" >>$R
for l in 20 22 24; do
  log "hive static 2^$l build / no build"
  WIXLIB_HIVE_BUILD_MIN=1 $W/wixbench --kind hive --bench static --lf 0.8 --log2n $l --reps 3 2>&1 | grep -E "^static.*insert" >>$R
  WIXLIB_HIVE_BUILD_MIN=0 $W/wixbench --kind hive --bench static --lf 0.8 --log2n $l --reps 3 2>&1 | grep -E "^static.*insert" >>$R
done
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench static --lf 0.8 --reps 1 >$OUT/trace-hive.txt 2>&1
log done
