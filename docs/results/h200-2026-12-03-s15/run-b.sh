#!/usr/bin/env bash
# Device run B (s15): where the slow LF 0.95 insert reps go. Traced (WIXLIB_TRACE=1: each phase
# synchronised and timed) 2^26-key inserts at LF 0.95, 8 reps twice, then untraced medians.
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
for s in 1 2; do
  WIXLIB_TRACE=1 $W/wixbench --kind hive --bench static --lf 0.95 --reps 8 --seed $s 2>&1 | grep -v "erase n\|after the erases" >$OUT/trace-lf95-seed$s.txt
done
for s in 3 4 5; do $W/wixbench --kind hive --bench static --lf 0.95 --reps 5 --seed $s 2>&1 | grep "insert"; done >$OUT/untraced.txt
