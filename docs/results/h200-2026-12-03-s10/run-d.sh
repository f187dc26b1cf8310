#!/usr/bin/env bash
# Device run D (s10): run C's binaries. How much Hive LF 0.95 inserts vary from key set to key set:
# nine reps untraced (median), then six traced inserts (phase 1 / phase 2 / drain per call).
set -u
cd "$(dirname "$0")/../../.."
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
W=build/native/native/bench; R=$OUT/wixbench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
log "hive static lf 0.95 reps 9"; $W/wixbench --kind hive --bench static --lf 0.95 --reps 9 --seed 7 2>&1 | grep -E "^static" >>$R
log "hive static lf 0.95 traced"; WIXLIB_TRACE=1 $W/wixbench --kind hive --bench static --lf 0.95 --reps 5 --seed 7 2>&1 | grep -E "mode 2|drain|static" >$OUT/trace.txt
log done
