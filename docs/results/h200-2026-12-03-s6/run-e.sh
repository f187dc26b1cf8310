#!/usr/bin/env bash
# Device run E (s6): combining arena, GLHT mixed kernel at 6 blocks (m8 = 8): benches, then the GPU suite.
set -u
cd "$(dirname "$0")/.."
B=build/native; W=$B/native/bench; R=$OUT/bench.txt
rm -rf $B; mkdir -p $B && tar -C $B -xJf .carry/native-build.tar.xz
for k in glht hive; do $W/wixbench --kind $k --bench dynamic --reps 3 2>&1 | grep -E "^dynamic|^kind" >>$R; done
echo "-- m8 (GLHT mixed kernel at 8 blocks)" >>$R
$W/wixbench_m8 --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R
$W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_glht_invariants gpu_hive_invariants" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >/dev/null 2>&1
echo "suite rc=$?" >>$R
