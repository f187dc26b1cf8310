#!/usr/bin/env bash
# Device run A (s10, branch wip/hive-pair-probes): the whole GPU suite with memcheck + racecheck on the
# small cases, then GLHT and Hive benches on the same build, then ncu on the GLHT erase and the Hive
# insert kernels (where the time of the two widest gaps to the targets goes).
set -u
cd "$(dirname "$0")/../../.."
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
W=build/native/native/bench; R=$OUT/wixbench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
for i in 1 2; do
  log "glht static"; $W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
  log "glht dynamic"; $W/wixbench --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R
done
log "hive static all LF"; $W/wixbench --kind hive --bench static --all-lf --reps 3 2>&1 | grep -E "^static" >>$R
log "hive dynamic"; $W/wixbench --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic" >>$R
log "hive growth 2^26"; $W/wixbench --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
log "hive growth 2^27"; $W/wixbench --kind hive --bench growth --log2n 27 --reps 3 2>&1 | grep -E "^growth" >>$R
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench static --lf 0.8,0.95 --reps 1 2>&1 | grep -E "drain|mode 2|insert" >$OUT/trace.txt
S="--section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats --section SchedulerStats"
log "ncu glht"; timeout 150 ncu --target-processes all -k regex:k_batch -c 6 $S $W/wixbench --kind glht --bench static --lf 0.8 --reps 1 >$OUT/ncu-glht.txt 2>&1; echo "rc=$?" >>$R
log "ncu hive"; timeout 150 ncu --target-processes all -k regex:p1_kernel -c 6 $S $W/wixbench --kind hive --bench static --lf 0.8 --reps 1 >$OUT/ncu-hive.txt 2>&1; echo "rc=$?" >>$R
log done
