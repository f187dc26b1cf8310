#!/usr/bin/env bash
# Device run B (s11): the code that lands (GLHT mixed batches as one wave at 4 blocks; no thread-only
# pass). The whole GPU suite with memcheck + racecheck on the small cases, GLHT and Hive benches
# (twice; A/B against m6 = s10's mixed kernel: -DGLHT_WAVE_MODES=5 -DGLHT_MIXED_MIN_BLOCKS=6), Hive
# LF 0.95 inserts against d64 (-DHIVE_DRAIN_AT=64: no drain unless the stash is full) traced, and
# `wixlib bench` end to end through Java plus the dynamic suite with the CPU table on the 16 cores.
set -u
cd "$(dirname "$0")/../../.."
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
W=build/native/native/bench; R=$OUT/wixbench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
for i in 1 2; do
  log "glht static"; $W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
  for v in "" _m6; do
    log "glht dynamic$v"; $W/wixbench$v --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic" >>$R
  done
  for v in "" _d64; do
    log "hive static 0.95$v"; $W/wixbench$v --kind hive --bench static --lf 0.95 --reps 3 2>&1 | grep -E "^static" >>$R
  done
done
log "hive static all LF"; $W/wixbench --kind hive --bench static --all-lf --reps 3 2>&1 | grep -E "^static" >>$R
log "hive dynamic"; $W/wixbench --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic" >>$R
log "hive growth 2^26"; $W/wixbench --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
log "hive growth 2^27"; $W/wixbench --kind hive --bench growth --log2n 27 --reps 3 2>&1 | grep -E "^growth" >>$R
for v in "" _d64; do
  WIXLIB_TRACE=1 $W/wixbench$v --kind hive --bench static --lf 0.95 --reps 3 2>&1 | grep -E "drain|mode 2|insert" >$OUT/trace-hive-0.95$v.txt
done
jre=/tmp/wixlib-jre; rm -rf $jre; mkdir -p $jre && tar -C $jre --strip-components=1 -xzf .carry/jre.tgz
export WIXLIB_JAVA_HOME=$jre JDK_JAVA_OPTIONS="-Dwixlib.library.path=$PWD/build/native/libwixlib.so" WIXLIB_JAR=$PWD/.carry/cli/wixlib-cli.jar
log "java bench"; bin/wixlib bench --kind glht,hive --keys 2^24 --reps 3 >$OUT/java-bench.txt 2>&1; echo "rc=$?" >>$R
log "java suite dynamic with cpu"; bin/wixlib bench --suite dynamic --kind glht,hive,cpu --max-cpu-keys 2^24 >$OUT/java-suite-dynamic.txt 2>&1; echo "rc=$?" >>$R
log done
