#!/usr/bin/env bash
# Device run C (s10): the code that lands. The whole GPU suite with memcheck + racecheck on the small
# cases, then GLHT and Hive benches (twice), the traced Hive inserts, and `wixlib bench` end to end
# through Java plus the dynamic suite with the CPU table on the 16 cores.
set -u
cd "$(dirname "$0")/../../.."
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
W=build/native/native/bench; R=$OUT/wixbench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
for i in 1 2; do
  log "glht static"; $W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
  log "glht dynamic"; $W/wixbench --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic" >>$R
done
log "hive static all LF"; $W/wixbench --kind hive --bench static --all-lf --reps 3 2>&1 | grep -E "^static" >>$R
log "hive dynamic"; $W/wixbench --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic" >>$R
log "hive growth 2^26"; $W/wixbench --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
log "hive growth 2^27"; $W/wixbench --kind hive --bench growth --log2n 27 --reps 3 2>&1 | grep -E "^growth" >>$R
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench static --lf 0.8,0.95 --reps 1 2>&1 | grep -E "drain|mode 2|insert" >$OUT/trace.txt
jre=/tmp/wixlib-jre; rm -rf $jre; mkdir -p $jre && tar -C $jre --strip-components=1 -xzf .carry/jre.tgz
export WIXLIB_JAVA_HOME=$jre JDK_JAVA_OPTIONS="-Dwixlib.library.path=$PWD/build/native/libwixlib.so" WIXLIB_JAR=$PWD/.carry/cli/wixlib-cli.jar
log "java bench"; bin/wixlib bench --kind glht,hive --keys 2^24 --reps 3 >$OUT/java-bench.txt 2>&1; echo "rc=$?" >>$R
log "java suite dynamic with cpu"; bin/wixlib bench --suite dynamic --kind glht,hive,cpu --max-cpu-keys 2^24 >$OUT/java-suite-dynamic.txt 2>&1; echo "rc=$?" >>$R
log done
