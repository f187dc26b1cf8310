#!/usr/bin/env bash
# One device call for the Hive backend without the whole-project CMake build (saves device time):
# compiles the Hive sources with the design tests and the kernel-level bench directly with nvcc, runs
# the tests, compute-sanitizer (memcheck + racecheck) on the small case, and the bench.
# Binaries can also be built on the workstation and carried (see build lines below).
# Usage (repo root): bash native/bench/hive_run.sh [resize_log=27] [bench_log=26] [sanitize=1]
set -u
OUT=${OUT:-hive-out}
mkdir -p "$OUT"
RLOG=${1:-27}
BLOG=${2:-26}
SAN=${3:-1}
NV="nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -lineinfo -Inative/include -Inative/src -Inative/tests"
H=native/src/hive
B=build-dev/hb
mkdir -p $B
if [ ! -x $B/bench8 ]; then
  $NV $H/*.cu native/tests/gpu_hive_invariants.cu -o $B/gpu_hive_invariants > "$OUT/build.log" 2>&1 & P1=$!
  $NV $H/*.cu native/tests/gpu_hive_resize.cu -o $B/gpu_hive_resize >> "$OUT/build.log" 2>&1 & P2=$!
  $NV $H/*.cu native/bench/hive_bench.cu -o $B/bench8 >> "$OUT/build.log" 2>&1 & P3=$!
  wait $P1 $P2 $P3
  tail -5 "$OUT/build.log"
fi
export WIXLIB_REQUIRE_GPU=1
echo "== gpu_hive_invariants"; timeout 120 stdbuf -oL $B/gpu_hive_invariants 2>&1 | tee "$OUT/invariants.log"; echo "rc=${PIPESTATUS[0]}"
echo "== gpu_hive_resize $RLOG"; timeout 180 stdbuf -oL $B/gpu_hive_resize "$RLOG" 2>&1 | tee "$OUT/resize.log"; echo "rc=${PIPESTATUS[0]}"
if [ "$SAN" = 1 ]; then
  echo "== memcheck (small)"; timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/gpu_hive_invariants small > "$OUT/memcheck.log" 2>&1; echo "rc=$?"; tail -2 "$OUT/memcheck.log"
  echo "== racecheck (small)"; timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $B/gpu_hive_invariants small > "$OUT/racecheck.log" 2>&1; echo "rc=$?"; tail -2 "$OUT/racecheck.log"
fi
echo "== bench"; timeout 90 $B/bench8 "$BLOG" 2>&1 | tee "$OUT/bench8.log"
echo "== bench mixed"; timeout 60 $B/bench8 "$BLOG" mixed 2>&1 | tee "$OUT/bench8_mixed.log"
