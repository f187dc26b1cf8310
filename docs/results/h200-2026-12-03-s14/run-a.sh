#!/usr/bin/env bash
# Device run A (s14): GLHT mixed batches grouped by op kind inside each warp (GLHT_MIXED_GROUP, landed
# default 8) and Hive's tidy flag (inserts into a b0 with room skip the overflow-bit read).
#   1. the tests these touch: gpu_glht_invariants, gpu_hive_invariants (new tidy_flag case), the
#      per-key stress oracles, memcheck + racecheck on the small cases;
#   2. wixbench GLHT dynamic with groups of 8 (wixbench) against 1 (= s13's kernel), 4 and 16, two
#      interleaved rounds; Hive static LF 0.8 / 0.95 and dynamic with and without the tidy flag
#      (wixbench_tidy0: hive_ops.cu -DHIVE_TIDY=0), two interleaved rounds; GLHT static once;
#   3. `wixlib bench` end to end through Java.
# Variants: scripts/bench-variant.sh g1|g4|g16 native/src/glht/glht_kernels.cu -DGLHT_MIXED_GROUP=1|4|16,
# scripts/bench-variant.sh tidy0 native/src/hive/hive_ops.cu -DHIVE_TIDY=0.
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench; T=build/native/native/tests; R=$OUT/wixbench.txt
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
log() { echo "-- $* ($(date +%T))" >>$R; }
t() { local name=$1; shift; local t0=$SECONDS; timeout 200 "$@" >$OUT/test-$name.txt 2>&1; echo "rc=$? ${name} $((SECONDS-t0)) s" >>$OUT/tests.txt; }
t glht_invariants $T/gpu_glht_invariants
t hive_invariants $T/gpu_hive_invariants
t stress_glht env WIXLIB_STRESS_OPS=10000000 $T/gpu_stress_glht
t stress_hive env WIXLIB_STRESS_OPS=10000000 $T/gpu_stress_hive
for tool in memcheck racecheck; do
  t san-$tool-glht env WIXLIB_SMALL=1 compute-sanitizer --tool $tool --error-exitcode 9 $T/gpu_glht_invariants
  t san-$tool-hive env WIXLIB_SMALL=1 compute-sanitizer --tool $tool --error-exitcode 9 $T/gpu_hive_invariants
done
dyn() { grep -E "^dynamic.*(16777215|,100\])"; }
for round in 1 2; do
  for v in wixbench wixbench_g1 wixbench_g4 wixbench_g16; do
    log "glht dynamic $v"; $W/$v --kind glht --bench dynamic --reps 3 2>&1 | dyn >>$R
  done
  for v in wixbench wixbench_tidy0; do
    log "hive static $v"; $W/$v --kind hive --bench static --lf 0.8,0.95 --reps 3 2>&1 | grep -E "^static" >>$R
    log "hive dynamic $v"; $W/$v --kind hive --bench dynamic --reps 3 2>&1 | dyn >>$R
  done
done
log "glht static"; $W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench static --lf 0.8 --reps 1 >$OUT/trace-hive.txt 2>&1
jre=/tmp/wixlib-jre; rm -rf $jre; mkdir -p $jre && tar -C $jre --strip-components=1 -xzf .carry/jre.tgz
export WIXLIB_JAVA_HOME=$jre JDK_JAVA_OPTIONS="-Dwixlib.library.path=$PWD/build/native/libwixlib.so" WIXLIB_JAR=$PWD/.carry/cli/wixlib-cli.jar
log "java bench"; timeout 150 bin/wixlib bench --kind glht,hive --keys 2^24 --reps 3 >$OUT/java-bench.txt 2>&1; echo "rc=$?" >>$R
log done
