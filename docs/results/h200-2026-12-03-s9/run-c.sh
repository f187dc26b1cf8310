#!/usr/bin/env bash
# Device run C (s9): growth 2^20 -> 2^26 / 2^27 with the stash drained above 32/64 (landed) vs 4/64
# (_a4, s8), interleaved, on run B's binaries.
set -u
cd "$(dirname "$0")/../../.."
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
W=build/native/native/bench; R=$OUT/wixbench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
for v in "" _a4 "" _a4 "" _a4; do
  log "hive growth$v"; $W/wixbench$v --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
  log "hive growth 2^27$v"; $W/wixbench$v --kind hive --bench growth --log2n 27 --reps 3 2>&1 | grep -E "^growth" >>$R
done
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench growth --reps 1 2>&1 | grep -E "mode 2" >$OUT/trace-growth.txt
WIXLIB_TRACE=1 $W/wixbench_a4 --kind hive --bench growth --reps 1 2>&1 | grep -E "mode 2" >$OUT/trace-growth-a4.txt
log done
