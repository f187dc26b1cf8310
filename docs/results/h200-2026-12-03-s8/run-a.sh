#!/usr/bin/env bash
# Device run A (s8): lazy overflow-bit read (hits in b0 skip it), lazy drain (>1/16 of the stash),
# review mends. Variants: eager (ovf with b0), d0 (drain always), w5 (writers at 5 blocks),
# w5m4 (+ mixed at 4), gm5/gm7 (GLHT mixed at 5/7 blocks).
set -u
cd "$(dirname "$0")/.."
B=build/native; W=$B/native/bench; T=$B/native/tests; R=$OUT/bench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
rm -rf $B; mkdir -p $B && tar -C $B -xJf .carry/native-build.tar.xz
log "gpu_api_hive"; WIXLIB_REQUIRE_GPU=1 timeout 100 $T/gpu_api_hive >$OUT/api-hive.txt 2>&1; echo "rc=$?" >>$R
log "new: hive dynamic"; $W/wixbench --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic|^kind|^wixbench" >>$R
log "new: hive static"; $W/wixbench --kind hive --bench static --lf 0.8,0.95 --reps 3 2>&1 | grep -E "^static" >>$R
for v in eager d0 w5 w5m4; do
  log "$v: dynamic [0,2^24) + static 0.8"
  $W/wixbench_$v --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R
  $W/wixbench_$v --kind hive --bench static --lf 0.8 --reps 3 2>&1 | grep -E "^static" >>$R
done
log "new: hive growth"; $W/wixbench --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
log "glht dynamic new / gm5 / gm7"
for v in "" _gm5 _gm7; do $W/wixbench$v --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R; done
log "trace"
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench static --lf 0.95 --reps 1 2>&1 | head -40 >$OUT/static95-trace.txt
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench dynamic --reps 1 2>&1 | head -24 >$OUT/dynamic-trace.txt
log "gpu_hive_invariants"; WIXLIB_REQUIRE_GPU=1 timeout 100 $T/gpu_hive_invariants >$OUT/hive-inv.txt 2>&1; echo "rc=$?" >>$R
log done
