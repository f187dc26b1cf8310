#!/usr/bin/env bash
# Device run D (s9, branch wip/hive-pair-probes): the drain's and the eviction's bucket probes in four
# 16-byte loads instead of eight 8-byte ones. Hive static LF 0.8 / 0.95, main vs `old` (run B's
# hive_drain.cu + hive_evict.cu objects) interleaved, traced once each; then the Hive GPU tests with
# memcheck + racecheck on the small cases.
set -u
cd "$(dirname "$0")/../../.."
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
W=build/native/native/bench; R=$OUT/wixbench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
for v in "" _old "" _old; do
  log "hive static$v"; $W/wixbench$v --kind hive --bench static --lf 0.8,0.95 --reps 3 2>&1 | grep -E "^static.*insert" >>$R
done
for v in "" _old; do
  WIXLIB_TRACE=1 $W/wixbench$v --kind hive --bench static --lf 0.95 --reps 1 2>&1 | grep -E "drain|mode 2" >$OUT/trace$v.txt
done
log "suite"
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 SANITIZE_TOOLS="memcheck racecheck" GPU_TESTS="gpu_api_hive gpu_hive_invariants gpu_hive_resize gpu_hive_wide gpu_hive_wide_resize gpu_join_hive gpu_stress_hive" SANITIZE_TESTS="gpu_api_hive gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=120 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
log done
