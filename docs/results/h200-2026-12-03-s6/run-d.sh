#!/usr/bin/env bash
# Device run D (s6): persistent combining scratch; GLHT register-cap variants; Hive growth trace; tests.
set -u
cd "$(dirname "$0")/.."
B=$PWD/build/native; rm -rf $B; mkdir -p $B && tar -C $B -xJf .carry/native-build.tar.xz
R=$OUT/all.txt; T=$B/native/tests; W=$B/native/bench
export WIXLIB_REQUIRE_GPU=1 WIXLIB_SEED=${WIXLIB_SEED:-$(date +%s)}
log() { echo "== $* ($(date +%T))" >>$R; }
run() { local s=$SECONDS; "$@" >/tmp/t.log 2>&1; local rc=$?; echo "   rc=$rc ($((SECONDS-s)) s): $*" >>$R; tail -3 /tmp/t.log >>$R; }
echo "seed $WIXLIB_SEED" >>$R
log "tests: mixed parts (default threshold, then combining forced), stress, memcheck"
WIXLIB_PARTS=mixed run $T/gpu_api_glht
WIXLIB_PARTS=mixed run $T/gpu_api_hive
WIXLIB_HOT_SHARE=100 WIXLIB_PARTS=mixed run $T/gpu_api_glht
WIXLIB_HOT_SHARE=100 WIXLIB_PARTS=mixed run $T/gpu_api_hive
WIXLIB_STRESS_OPS=10000000 run $T/gpu_stress_glht
WIXLIB_STRESS_OPS=10000000 run $T/gpu_stress_hive
WIXLIB_LEAK_CYCLES=20000 run $T/gpu_leaks
WIXLIB_SMALL=1 WIXLIB_PARTS=mixed run compute-sanitizer --tool memcheck --error-exitcode 9 $T/gpu_api_glht
WIXLIB_SMALL=1 WIXLIB_PARTS=mixed run compute-sanitizer --tool memcheck --error-exitcode 9 $T/gpu_api_hive
log "wixbench dynamic, both kinds (persistent scratch)"
for k in glht hive; do $W/wixbench --kind $k --bench dynamic --reps 3 2>&1 | grep -E "^dynamic|^kind" >>$R; done
log "GLHT register caps: default (4 blocks) vs 5 vs 6"
for r in 1 2; do for w in wixbench wixbench_g5 wixbench_g6; do echo "-- $w round $r" >>$R
  $W/$w --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
  $W/$w --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R; done; done
log "Hive growth trace"
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench growth --reps 1 >$OUT/growth-trace.txt 2>&1
log done
