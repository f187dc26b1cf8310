#!/usr/bin/env bash
# Device run A (s16): what an 8-byte claim costs on this card — read then CAS, read and exchange
# issued together (a speculative claim), the same guided by a per-bucket hint, and Hive's phase-1
# warp read then CAS — on a 2 GB and a 1 GB table; then Hive's static inserts on the same card.
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
$W/atomic_probe 27 26 >$OUT/probe-2gib.txt 2>&1
$W/atomic_probe 26 26 >$OUT/probe-1gib.txt 2>&1
$W/wixbench --kind hive --bench static --lf 0.8 --reps 5 2>&1 | grep -E "^static|device" >$OUT/wixbench.txt
cat $OUT/probe-2gib.txt $OUT/probe-1gib.txt $OUT/wixbench.txt
