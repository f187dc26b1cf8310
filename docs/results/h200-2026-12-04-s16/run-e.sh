#!/usr/bin/env bash
# Device run E (s16): the final tree — gpu_hive_invariants (queued_inserts included) whole and under
# memcheck and racecheck (small mode), then Hive's benchmarks: static at LF 0.8 / 0.95, the mixed
# batches, growth; and LF 0.8 inserts once more against the inline path (wixbench_inline).
set -u
cd "$(dirname "$0")/../../.."
T=build/native/native/tests; W=build/native/native/bench
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
t() { local name=$1; shift; local t0=$SECONDS; timeout 200 "$@" >$OUT/test-$name.txt 2>&1; echo "rc=$? ${name} $((SECONDS-t0)) s" >>$OUT/tests.txt; }
export WIXLIB_REQUIRE_GPU=1
t hive_invariants $T/gpu_hive_invariants
for tool in memcheck racecheck; do
  t san-$tool-hive env WIXLIB_SMALL=1 compute-sanitizer --tool $tool --error-exitcode 9 $T/gpu_hive_invariants
done
cat $OUT/tests.txt
B=$OUT/wixbench.txt
$W/wixbench --kind hive --bench static --lf 0.8,0.95 --reps 5 2>&1 | grep -E "^static|device" >>$B
$W/wixbench --kind hive --bench dynamic --reps 5 2>&1 | grep -E "^dynamic" >>$B
$W/wixbench --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$B
for round in 1 2; do
  for v in wixbench_inline wixbench; do
    echo "== $v round $round" >>$B
    $W/$v --kind hive --bench static --lf 0.8 --reps 5 2>&1 | grep -E "^static.*insert" >>$B
  done
done
cat $B
