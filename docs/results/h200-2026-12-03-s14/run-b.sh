#!/usr/bin/env bash
# Device run B (s14): the landed code as a whole. GLHT mixed batches grouped by op kind, the group
# now chosen by batch size (g = 8 from ~1.1 M elements down to 1 below one per resident thread;
# WIXLIB_GLHT_MIXED_GROUP forces it, as the tests do).
#   1. wixbench GLHT dynamic (landed) against wixbench_g1 (ungrouped, = s13's kernel) and the mixed
#      kernel at 3 / 5 blocks per SM (wixbench_mb3 / _mb5: -DGLHT_MIXED_MIN_BLOCKS=3|5), two
#      interleaved rounds; GLHT and Hive static and dynamic for the README table;
#   2. `wixlib bench` end to end through Java: glht, hive and cpu with the two mixes over 2^24 keys;
#   3. the GPU suite (scripts/device-run.sh: every GPU test, memcheck + racecheck on small cases,
#      gpu_glht_invariants among them: its small mixed cases run grouped).
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench; R=$OUT/wixbench.txt
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
log() { echo "-- $* ($(date +%T))" >>$R; }
dyn() { grep -E "^dynamic.*(16777215|,100\]|,100000\])"; }
for round in 1 2; do
  for v in wixbench wixbench_g1 wixbench_mb3 wixbench_mb5; do
    log "glht dynamic $v"; $W/$v --kind glht --bench dynamic --reps 3 2>&1 | dyn >>$R
  done
done
log "glht static"; $W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
log "glht static protocol"; WIXLIB_GLHT_BUILD_MIN=0 $W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
log "hive static 0.8,0.95"; $W/wixbench --kind hive --bench static --lf 0.8,0.95 --reps 3 2>&1 | grep -E "^static" >>$R
log "hive dynamic"; $W/wixbench --kind hive --bench dynamic --reps 3 2>&1 | dyn >>$R
jre=/tmp/wixlib-jre; rm -rf $jre; mkdir -p $jre && tar -C $jre --strip-components=1 -xzf .carry/jre.tgz
export WIXLIB_JAVA_HOME=$jre JDK_JAVA_OPTIONS="-Dwixlib.library.path=$PWD/build/native/libwixlib.so" WIXLIB_JAR=$PWD/.carry/cli/wixlib-cli.jar
log "java bench"
timeout 240 bin/wixlib bench --kind glht,hive,cpu --keys 2^24 --mix 20,20,60 --mix 40,40,20 --reps 3 >$OUT/java-bench.txt 2>&1
echo "rc=$?" >>$R
unset JDK_JAVA_OPTIONS WIXLIB_JAVA_HOME WIXLIB_JAR
log "suite"
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_glht_invariants gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
log done
