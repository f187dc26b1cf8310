#!/usr/bin/env bash
# Device run C (s15): the stash relief (HiveTable::relieve_stash: a few inserts left FULL by phase 2
# first free a slot of their own stash bucket, before the table grows). Run B traced the slow LF 0.95
# insert reps: 1-5 FULL jobs after phase 2, then a 2.2 ms grow.
#   1. wixbench Hive static LF 0.8 / 0.95 over several seeds (run B's untraced seed 3 ran 8.4 G/s),
#      dynamic and growth; traced LF 0.95 reps (relief lines);
#      GLHT dynamic once (its kernels file had two behaviour-neutral tidies: runs_in_pass, the
#      resident-thread count of launch_mode);
#   2. the whole GPU suite at full size (WIXLIB_BIG=1), memcheck + racecheck on five tests.
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench; R=$OUT/wixbench.txt
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
log() { echo "-- $* ($(date +%T))" >>$R; }
for s in 3 2 6; do
  log "hive static seed $s"; $W/wixbench --kind hive --bench static --lf 0.8,0.95 --reps 5 --seed $s 2>&1 | grep -E "^static" >>$R
done
log "hive dynamic"; $W/wixbench --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*(16777215|,100\])" >>$R
log "glht dynamic"; $W/wixbench --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*(16777215|,100\])" >>$R
log "hive growth"; $W/wixbench --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
for s in 2 3; do
  WIXLIB_TRACE=1 $W/wixbench --kind hive --bench static --lf 0.95 --reps 8 --seed $s 2>&1 | grep -E "mode 2|relief|serial|^static   insert" >$OUT/trace-lf95-seed$s.txt
done
log "suite"
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=1 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_glht_invariants gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
log done
