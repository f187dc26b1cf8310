#!/usr/bin/env bash
# Device run E (s13): GLHT bulk build placing the first key of each home in its home slot
# (GLHT_BUILD_HOME_FIRST 1, the default) against Robin Hood placement (wixbench_rh,
# glht_build.cu -DGLHT_BUILD_HOME_FIRST=0) and the protocol path (WIXLIB_GLHT_BUILD_MIN=0),
# interleaved twice; the build tests (2^20, and 2^16 under memcheck + racecheck); the whole
# gpu_glht_invariants.
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench; T=build/native/native/tests; R=$OUT/wixbench.txt
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
log() { echo "-- $* ($(date +%T))" >>$R; }
log "build test"
WIXLIB_PARTS=build timeout 200 $T/gpu_glht_invariants >$OUT/test-build.txt 2>&1; echo "rc=$?" >>$OUT/test-build.txt
for tool in memcheck racecheck; do
  WIXLIB_SMALL=1 WIXLIB_PARTS=build timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 \
    $T/gpu_glht_invariants >$OUT/sanitize-build-$tool.txt 2>&1; echo "rc=$?" >>$OUT/sanitize-build-$tool.txt
done
for i in 1 2; do
  log "glht static 0.8 home-first"; $W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
  log "glht static 0.8 robin hood"; $W/wixbench_rh --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
  log "glht static 0.8 no build"; WIXLIB_GLHT_BUILD_MIN=0 $W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
done
log "glht static 0.5,0.9 home-first"; $W/wixbench --kind glht --bench static --lf 0.5,0.9 --reps 3 2>&1 | grep -E "^static" >>$R
WIXLIB_TRACE=1 $W/wixbench --kind glht --bench static --reps 1 >$OUT/trace-glht.txt 2>&1
log "full invariants"
GLHT_SKIP_OOM=1 timeout 300 $T/gpu_glht_invariants >$OUT/test-invariants.txt 2>&1; echo "rc=$?" >>$OUT/test-invariants.txt
log done
