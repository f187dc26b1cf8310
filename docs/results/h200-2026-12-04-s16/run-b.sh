#!/usr/bin/env bash
# Device run B (s16): Hive inserts with their uncommon paths queued per warp (p1_insert_kernel,
# hive_insert.cu) — the Hive tests and sanitizers on it, then interleaved A/B against the inline
# path (wixbench_inline: -DHIVE_INSERT_QUEUE=0) and the queue with the next key prefetched
# (wixbench_pf: -DHIVE_INSERT_PREFETCH=1).
set -u
cd "$(dirname "$0")/../../.."
T=build/native/native/tests; W=build/native/native/bench
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
t() { local name=$1; shift; local t0=$SECONDS; timeout 200 "$@" >$OUT/test-$name.txt 2>&1; echo "rc=$? ${name} $((SECONDS-t0)) s" >>$OUT/tests.txt; }
export WIXLIB_REQUIRE_GPU=1
t hive_invariants $T/gpu_hive_invariants
t hive_resize $T/gpu_hive_resize
t api_hive $T/gpu_api_hive
t stress_hive env WIXLIB_STRESS_OPS=10000000 $T/gpu_stress_hive
for tool in memcheck racecheck; do
  t san-$tool-hive env WIXLIB_SMALL=1 compute-sanitizer --tool $tool --error-exitcode 9 $T/gpu_hive_invariants
done
cat $OUT/tests.txt
for round in 1 2; do
  for v in wixbench wixbench_inline wixbench_pf; do
    echo "== $v round $round" >>$OUT/wixbench.txt
    timeout 120 $W/$v --kind hive --bench static --lf 0.8,0.95 --reps 5 2>&1 | grep -E "^static.*insert" >>$OUT/wixbench.txt
    timeout 120 $W/$v --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$OUT/wixbench.txt
  done
done
cat $OUT/wixbench.txt
