#!/usr/bin/env bash
# Device run C (s16): Hive's phase-1 access pattern (the warp reads 64-byte buckets, then CASes one
# word each) at 8 / 5 / 4 resident blocks of 256 per SM and with an insert batch's own reads and
# writes (8 bytes in, 1 out per op), on a 1 GB table.
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
$W/atomic_probe 26 26 >$OUT/probe-1gib.txt 2>&1
cat $OUT/probe-1gib.txt
# Then the queued insert kernel at 5 resident blocks (wixbench) against 4 (56 registers, wixbench_q4)
# and 6 (40 registers, 82 bytes spilled, wixbench_q6) and the inline path (wixbench_inline), interleaved.
for round in 1 2; do
  for v in wixbench wixbench_q4 wixbench_q6 wixbench_inline; do
    echo "== $v round $round" >>$OUT/wixbench.txt
    timeout 120 $W/$v --kind hive --bench static --lf 0.8 --reps 5 2>&1 | grep -E "^static.*insert" >>$OUT/wixbench.txt
  done
done
cat $OUT/wixbench.txt
