#!/usr/bin/env bash
# Device run D (s15): the stash relief against none (wixbench_norelief: scripts/bench-variant.sh
# norelief native/src/hive/hive_table.cu -DHIVE_RELIEF_ROUNDS=0), interleaved: Hive growth 2^20 -> 2^26
# (run C measured 4.75 G/s with it, run A 4.90 without) and static LF 0.95; one traced growth rep.
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench; R=$OUT/wixbench.txt
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
log() { echo "-- $* ($(date +%T))" >>$R; }
for round in 1 2; do
  for v in wixbench wixbench_norelief; do
    log "hive growth $v"; $W/$v --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth   insert" >>$R
    log "hive static 0.95 $v"; $W/$v --kind hive --bench static --lf 0.95 --reps 3 --seed 3 2>&1 | grep -E "^static   insert" >>$R
  done
done
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench growth --reps 1 2>&1 | grep -E "relief|full|mode 2" | grep -v ", 0 full" >$OUT/trace-growth.txt
