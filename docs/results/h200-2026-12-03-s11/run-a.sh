#!/usr/bin/env bash
# Device run A (s11), on 8de34e1 + run-a-thread-pass.patch: the GPU suite with memcheck + racecheck on the small cases on the thread-pass
# build (GLHT inserts' first pass without the warp path), then A/B of the GLHT variants, interleaved,
# twice, built with scripts/bench-variant.sh native/src/glht/glht_kernels.cu:
#   tp0  -DGLHT_THREAD_PASS=0 (s10's kernels)          tp8  -DGLHT_THREAD_MIN_BLOCKS=8
#   tpm  -DGLHT_THREAD_PASS=35 (mixed too)             tpm8 tpm + -DGLHT_THREAD_MIXED_MIN_BLOCKS=8
#   mw4  -DGLHT_WAVE_MODES=37 -DGLHT_MIXED_MIN_BLOCKS=4 (mixed as one wave at 4 blocks)
#   tpmw tpm + mw4
# then traces and `wixlib bench` end to end through Java.
set -u
cd "$(dirname "$0")/../../.."
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
W=build/native/native/bench; R=$OUT/wixbench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
for i in 1 2; do
  for v in "" _tp0 _tp8 _tpm _tpm8 _mw4 _tpmw; do
    log "glht static$v"; $W/wixbench$v --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
  done
  for v in "" _tp0 _tpm _tpm8 _mw4 _tpmw; do
    log "glht dynamic$v"; $W/wixbench$v --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*(16777215|,100\])" >>$R
  done
  for v in "" _tp0; do
    log "glht static 2^24$v"; $W/wixbench$v --kind glht --bench static --log2n 24 --reps 3 2>&1 | grep -E "^static" >>$R
  done
done
WIXLIB_TRACE=1 $W/wixbench --kind glht --bench static --reps 1 >$OUT/trace-glht-static.txt 2>&1
WIXLIB_TRACE=1 $W/wixbench_tpm --kind glht --bench dynamic --reps 1 >$OUT/trace-glht-dynamic-tpm.txt 2>&1
log "hive static"; $W/wixbench --kind hive --bench static --lf 0.8,0.95 --reps 3 2>&1 | grep -E "^static" >>$R
jre=/tmp/wixlib-jre; rm -rf $jre; mkdir -p $jre && tar -C $jre --strip-components=1 -xzf .carry/jre.tgz
export WIXLIB_JAVA_HOME=$jre JDK_JAVA_OPTIONS="-Dwixlib.library.path=$PWD/build/native/libwixlib.so" WIXLIB_JAR=$PWD/.carry/cli/wixlib-cli.jar
log "java bench"; bin/wixlib bench --kind glht,hive --keys 2^24 --reps 3 >$OUT/java-bench.txt 2>&1; echo "rc=$?" >>$R
log done
