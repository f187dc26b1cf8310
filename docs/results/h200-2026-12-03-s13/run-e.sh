#!/usr/bin/env bash
# Device run E (s13): the landed code as a whole, with the placement comparison folded in (device time was short).
#   1. gpu_glht_invariants' bulk-build part at 2^20, and at 2^16 under memcheck + racecheck;
#   2. wixbench GLHT static: the build placing each home's first key in its home slot (default,
#      GLHT_BUILD_HOME_FIRST 1) against Robin Hood placement (wixbench_rh: glht_build.cu
#      -DGLHT_BUILD_HOME_FIRST=0) and the protocol path (WIXLIB_GLHT_BUILD_MIN=0); GLHT dynamic,
#      Hive static (LF 0.8, 0.95) and dynamic (the README table); a GLHT trace;
#   3. `wixlib bench` end to end through Java;
#   4. the GPU suite (scripts/device-run.sh: every GPU test, memcheck + racecheck on small cases).
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench; T=build/native/native/tests; R=$OUT/wixbench.txt
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
log() { echo "-- $* ($(date +%T))" >>$R; }
WIXLIB_PARTS=build timeout 200 $T/gpu_glht_invariants >$OUT/test-build.txt 2>&1; echo "rc=$?" >>$OUT/test-build.txt
for tool in memcheck racecheck; do
  WIXLIB_SMALL=1 WIXLIB_PARTS=build timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 \
    $T/gpu_glht_invariants >$OUT/sanitize-build-$tool.txt 2>&1; echo "rc=$?" >>$OUT/sanitize-build-$tool.txt
done
log "glht static home-first"; $W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
log "glht static robin hood"; $W/wixbench_rh --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
log "glht static no build"; WIXLIB_GLHT_BUILD_MIN=0 $W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
log "glht static home-first"; $W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
log "glht static 0.5,0.9"; $W/wixbench --kind glht --bench static --lf 0.5,0.9 --reps 3 2>&1 | grep -E "^static" >>$R
WIXLIB_TRACE=1 $W/wixbench --kind glht --bench static --reps 1 >$OUT/trace-glht.txt 2>&1
log "glht dynamic"; $W/wixbench --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*(16777215|,100\])" >>$R
log "hive static 0.8"; $W/wixbench --kind hive --bench static --lf 0.8 --reps 3 2>&1 | grep -E "^static" >>$R
log "hive static 0.95"; $W/wixbench --kind hive --bench static --lf 0.95 --reps 3 2>&1 | grep -E "^static" >>$R
log "hive dynamic"; $W/wixbench --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*(16777215|,100\])" >>$R
jre=/tmp/wixlib-jre; rm -rf $jre; mkdir -p $jre && tar -C $jre --strip-components=1 -xzf .carry/jre.tgz
export WIXLIB_JAVA_HOME=$jre JDK_JAVA_OPTIONS="-Dwixlib.library.path=$PWD/build/native/libwixlib.so" WIXLIB_JAR=$PWD/.carry/cli/wixlib-cli.jar
log "java bench"; timeout 120 bin/wixlib bench --kind glht,hive --keys 2^24 --reps 3 >$OUT/java-bench.txt 2>&1; echo "rc=$?" >>$R
unset JDK_JAVA_OPTIONS
log "suite"
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
log done
