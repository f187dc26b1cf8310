#!/usr/bin/env bash
# Device run I (s16): outcomes held per warp until their queued elements are decided, then written a
# sector at a time (p1_insert_kernel's ring) — the Hive tests and sanitizers, then interleaved A/B
# against writing each outcome at once (wixbench_ring0: -DHIVE_OUTCOME_RING=0 on hive_insert.cu).
set -u
cd "$(dirname "$0")/../../.."
T=build/native/native/tests; W=build/native/native/bench
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
t() { local name=$1; shift; local t0=$SECONDS; timeout 120 "$@" >$OUT/test-$name.txt 2>&1; echo "rc=$? ${name} $((SECONDS-t0)) s" >>$OUT/tests.txt; }
export WIXLIB_REQUIRE_GPU=1
t hive_invariants $T/gpu_hive_invariants
t hive_resize $T/gpu_hive_resize
t api_hive $T/gpu_api_hive
t stress_hive env WIXLIB_STRESS_OPS=10000000 $T/gpu_stress_hive
for tool in memcheck racecheck; do
  t san-$tool-hive env WIXLIB_SMALL=1 compute-sanitizer --tool $tool --error-exitcode 9 $T/gpu_hive_invariants
  t san-$tool-resize env WIXLIB_SMALL=1 compute-sanitizer --tool $tool --error-exitcode 9 $T/gpu_hive_resize
done
cat $OUT/tests.txt
for round in 1 2; do
  for v in wixbench wixbench_ring0; do
    echo "== $v round $round" >>$OUT/wixbench.txt
    timeout 60 $W/$v --kind hive --bench static --lf 0.8,0.95 --reps 5 2>&1 | grep -E "^static.*insert" >>$OUT/wixbench.txt
  done
done
cat $OUT/wixbench.txt
