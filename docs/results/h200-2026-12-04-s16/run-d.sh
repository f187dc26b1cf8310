#!/usr/bin/env bash
# Device run D (s16): the tree with p1_insert_kernel (queued uncommon paths) — the whole GPU suite at
# full size with memcheck and racecheck on five tests, a traced LF 0.8 insert, and growth against the
# inline path (wixbench_inline: -DHIVE_INSERT_QUEUE=0), interleaved.
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
OUT=$OUT/suite WIXLIB_BIG=1 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 \
  SANITIZE_TOOLS="memcheck racecheck" \
  SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_glht_invariants gpu_hive_invariants gpu_hive_resize" \
  GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >/dev/null 2>&1
tail -n 30 $OUT/suite/summary.txt
WIXLIB_TRACE=1 timeout 60 $W/wixbench --kind hive --bench static --lf 0.8 --reps 3 >$OUT/trace-lf80.txt 2>&1
for round in 1 2 3; do
  for v in wixbench wixbench_inline; do
    echo "== $v round $round" >>$OUT/wixbench.txt
    timeout 120 $W/$v --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$OUT/wixbench.txt
  done
done
cat $OUT/wixbench.txt
grep -E "trace\] mode 2|static" $OUT/trace-lf80.txt | tail -n 6
