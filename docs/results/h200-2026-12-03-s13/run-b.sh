#!/usr/bin/env bash
# Device run B (s13): the GLHT bulk build after run A (exception set sized by its keys, 32-bit scan,
# place without reading the table, in-warp look-back; re-run passes one element per thread).
#   1. gpu_glht_invariants, the build part alone (2^20) and then whole; the build part under
#      compute-sanitizer memcheck + racecheck (2^16);
#   2. wixbench static at LF 0.8 with the build (default) and without it (WIXLIB_GLHT_BUILD_MIN=0),
#      interleaved twice; LF 0.5 / 0.9 with it; sizes 2^18..2^24 both ways (the threshold);
#   3. kernel times of one 2^26 build under ncu.
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
  for m in default 0; do
    log "glht static 0.8 build_min=$m"
    if [ $m = default ]; then $W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
    else WIXLIB_GLHT_BUILD_MIN=0 $W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R; fi
  done
done
log "glht static 0.5,0.9"; $W/wixbench --kind glht --bench static --lf 0.5,0.9 --reps 3 2>&1 | grep -E "^static" >>$R
for l in 18 20 22 24; do
  log "glht static 2^$l build / no build"
  $W/wixbench --kind glht --bench static --log2n $l --reps 3 2>&1 | grep -E "^static.*insert" >>$R
  WIXLIB_GLHT_BUILD_MIN=0 $W/wixbench --kind glht --bench static --log2n $l --reps 3 2>&1 | grep -E "^static.*insert" >>$R
done
WIXLIB_TRACE=1 $W/wixbench --kind glht --bench static --reps 1 >$OUT/trace-glht.txt 2>&1
log "ncu"
timeout 240 ncu --clock-control none --metrics gpu__time_duration.sum --launch-skip 0 --launch-count 14 \
  $W/wixbench --kind glht --bench static --reps 1 >$OUT/ncu-build.txt 2>&1
log "full invariants"
GLHT_SKIP_OOM=1 timeout 300 $T/gpu_glht_invariants >$OUT/test-invariants.txt 2>&1; echo "rc=$?" >>$OUT/test-invariants.txt
log done
