#!/usr/bin/env bash
# Device run A (s15): Hive inserts in region order (hive_partition.cu, HiveTable::run_in_regions;
# the code is run-a-region-order.patch on 584cbb6, measured and not kept).
#   1. gpu_hive_invariants (new region_order case) and gpu_glht_invariants (EnvGuard moved to
#      check.hpp), memcheck + racecheck on the small cases (region order included);
#   2. wixbench Hive static LF 0.8 over sub-batch and region sizes (WIXLIB_HIVE_REGION_BATCH=0 is
#      the batch-order path as before), off/on interleaved; LF 0.95 and growth off/on; one trace;
#   3. atomic_probe: a 2^24-op batch over a 512 MB table in 1 / 32 / 64 / 128 regions, and the
#      outcome scatter over 2^24 bytes.
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench; T=build/native/native/tests; R=$OUT/wixbench.txt
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
log() { echo "-- $* ($(date +%T))" >>$R; }
t() { local name=$1; shift; local t0=$SECONDS; timeout 200 "$@" >$OUT/test-$name.txt 2>&1; echo "rc=$? ${name} $((SECONDS-t0)) s" >>$OUT/tests.txt; }
t hive_invariants $T/gpu_hive_invariants
t glht_invariants $T/gpu_glht_invariants
for tool in memcheck racecheck; do
  t san-$tool-hive env WIXLIB_SMALL=1 compute-sanitizer --tool $tool --error-exitcode 9 $T/gpu_hive_invariants
done
hs() { log "hive static $* (batch ${B:-default} shift ${S:-default})"
       env ${B:+WIXLIB_HIVE_REGION_BATCH=$B} ${S:+WIXLIB_HIVE_REGION_SHIFT=$S} $W/wixbench --kind hive --bench static "$@" --reps 3 2>&1 | grep -E "^static" >>$R; }
for round in 1 2; do
  B=0 S= hs --lf 0.8
  B= S= hs --lf 0.8
done
for cfg in "26 18" "25 18" "22 18" "24 16" "24 17" "24 19" "24 20"; do
  set -- $cfg; B=$1 S=$2 hs --lf 0.8
done
B=0 S= hs --lf 0.95
B= S= hs --lf 0.95
for b in 0 ""; do
  log "hive growth batch ${b:-default}"
  env ${b:+WIXLIB_HIVE_REGION_BATCH=$b} $W/wixbench --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
done
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench static --lf 0.8 --reps 1 >$OUT/trace-hive.txt 2>&1
for r in 0 5 6 7; do .carry/atomic_probe 25 24 0 $r; done >$OUT/probe.txt 2>&1
log done
