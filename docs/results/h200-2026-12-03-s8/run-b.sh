#!/usr/bin/env bash
# Device run B (s8): mixed lazy overflow bit A/B (main vs eager, interleaved), stash drain with victims
# in pairs (main) vs one by one (dold), drain trace split, writers at 5 blocks (main).
set -u
cd "$(dirname "$0")/.."
B=build/native; W=$B/native/bench; T=$B/native/tests; R=$OUT/bench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
rm -rf $B; mkdir -p $B && tar -C $B -xJf .carry/native-build.tar.xz
log "gpu_hive_invariants"; WIXLIB_REQUIRE_GPU=1 timeout 100 $T/gpu_hive_invariants >$OUT/hive-inv.txt 2>&1; echo "rc=$?" >>$R
for i in 1 2 3; do
  for v in "" _eager; do log "mixed$v"; $W/wixbench$v --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R; done
done
for v in "" _dold; do
  log "static$v"; $W/wixbench$v --kind hive --bench static --lf 0.8,0.95 --reps 3 2>&1 | grep -E "^static.*insert" >>$R
  WIXLIB_TRACE=1 $W/wixbench$v --kind hive --bench static --lf 0.8,0.95 --reps 1 2>&1 | grep -E "drain|mode 2|insert" >$OUT/trace$v.txt
done
log "growth"; $W/wixbench --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
log "gpu_api_hive"; WIXLIB_REQUIRE_GPU=1 timeout 100 $T/gpu_api_hive >$OUT/api-hive.txt 2>&1; echo "rc=$?" >>$R
log done
