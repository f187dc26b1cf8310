#!/usr/bin/env bash
# Device run E (for the next session, branch wip/hive-pair-probes): the whole GPU suite with memcheck +
# racecheck on the small cases (what run D could not finish), then Hive static at every LF, dynamic
# and growth on the same build. Pack every gpu_* test, libwixlib.so and wixbench first.
set -u
cd "$(dirname "$0")/../../.."
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
W=build/native/native/bench; R=$OUT/wixbench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
log "hive static all LF"; $W/wixbench --kind hive --bench static --all-lf --reps 3 2>&1 | grep -E "^static" >>$R
log "hive dynamic"; $W/wixbench --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic" >>$R
log "hive growth 2^26"; $W/wixbench --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
log "hive growth 2^27"; $W/wixbench --kind hive --bench growth --log2n 27 --reps 3 2>&1 | grep -E "^growth" >>$R
log done
