#!/usr/bin/env bash
# Device run E (s15): the final tree (kReliefRounds from the HIVE_RELIEF_ROUNDS macro, default 2, as
# in run C): the Hive tests and the sanitizers on them once more, and the Hive static table.
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
$W/wixbench --kind hive --bench static --lf 0.8,0.95 --reps 5 2>&1 | grep -E "^static" >$OUT/wixbench.txt
