#!/usr/bin/env bash
# Device run 2 (s7): warp-read b0 (warp_b0) + thread_step for erase/mixed, inserts on thread_insert,
# drain lists from the swap pass; variants tb (per-thread b0 reads), m4 (mixed at 4 blocks).
set -u
cd "$(dirname "$0")/.."
B=build/native; W=$B/native/bench; T=$B/native/tests; R=$OUT/bench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
rm -rf $B; mkdir -p $B && tar -C $B -xJf .carry/native-build.tar.xz
log "gpu_api_hive"; WIXLIB_REQUIRE_GPU=1 timeout 120 $T/gpu_api_hive >$OUT/api-hive.txt 2>&1; echo "rc=$?" >>$R
log "gpu_api_glht"; WIXLIB_REQUIRE_GPU=1 timeout 120 $T/gpu_api_glht >$OUT/api-glht.txt 2>&1; echo "rc=$?" >>$R
log "new: hive dynamic"; $W/wixbench --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic|^kind|^wixbench" >>$R
log "new: hive static 0.8 0.95"; $W/wixbench --kind hive --bench static --lf 0.8,0.95 --reps 3 2>&1 | grep -E "^static" >>$R
log "new: hive growth"; $W/wixbench --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
for v in tb m4 old; do
  log "$v: dynamic [0,2^24) + static 0.8"
  $W/wixbench_$v --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R
  $W/wixbench_$v --kind hive --bench static --lf 0.8 --reps 3 2>&1 | grep -E "^static" >>$R
done
log "tb: growth"; $W/wixbench_tb --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
log "glht dynamic new / old"
$W/wixbench --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic" >>$R
$W/wixbench_old --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R
log "trace"
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench growth --reps 1 >$OUT/growth-trace.txt 2>&1
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench dynamic --reps 1 2>&1 | head -40 >$OUT/dynamic-trace.txt
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench static --lf 0.8 --reps 1 2>&1 | head -40 >$OUT/static-trace.txt
log done
