#!/usr/bin/env bash
# Device run E (s8): drain swap pass at 5 resident blocks + one-wave grid, no read-back after erases
# when shrinking is off. The GPU suite first (Hive API tests and resizes under the sanitizers), then
# the drain A/B (dr1 = the pass uncapped), then `wixlib bench` end to end through Java and the dynamic
# suite with the CPU table on the 16 cores (the paper's GPU/CPU ratio).
set -u
cd "$(dirname "$0")/.."
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_hive gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
W=build/native/native/bench; R=$OUT/wixbench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
for v in "" _dr1 "" _dr1; do
  log "static$v"; $W/wixbench$v --kind hive --bench static --lf 0.8,0.95 --reps 3 2>&1 | grep -E "^static" >>$R
done
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench static --lf 0.8,0.95 --reps 1 2>&1 | grep -E "drain|mode 2|insert" >$OUT/trace.txt
log "growth"; $W/wixbench --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
log "dynamic"; $W/wixbench --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R
jre=/tmp/wixlib-jre; rm -rf $jre; mkdir -p $jre && tar -C $jre --strip-components=1 -xzf .carry/jre.tgz
export WIXLIB_JAVA_HOME=$jre JDK_JAVA_OPTIONS="-Dwixlib.library.path=$PWD/build/native/libwixlib.so" WIXLIB_JAR=$PWD/.carry/cli/wixlib-cli.jar
log "java bench"; bin/wixlib bench --kind glht,hive --keys 2^24 --reps 3 >$OUT/java-bench.txt 2>&1; echo "rc=$?" >>$R
log "java suite dynamic with cpu"; bin/wixlib bench --suite dynamic --kind glht,hive,cpu --max-cpu-keys 2^24 >$OUT/java-suite-dynamic.txt 2>&1; echo "rc=$?" >>$R
log done
