#!/usr/bin/env bash
# Device run F (s16): the tree with the tidy flag in p1_insert_kernel — the whole GPU suite at full
# size with memcheck and racecheck on five tests, then interleaved A/B of Hive inserts: wixbench
# (tidy), wixbench_tidy0 (-DHIVE_TIDY=0 on hive_insert.cu: the overflow bit read by every element),
# wixbench_inline (-DHIVE_INSERT_QUEUE=0 on hive_ops.cu: no queue).
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
OUT=$OUT/suite WIXLIB_BIG=1 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 \
  SANITIZE_TOOLS="memcheck racecheck" \
  SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_glht_invariants gpu_hive_invariants gpu_hive_resize" \
  GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >/dev/null 2>&1
grep -E "FAILED|done:" $OUT/suite/summary.txt
B=$OUT/wixbench.txt
for round in 1 2; do
  for v in wixbench wixbench_tidy0 wixbench_inline; do
    echo "== $v round $round" >>$B
    timeout 100 $W/$v --kind hive --bench static --lf 0.8,0.95 --reps 5 2>&1 | grep -E "^static.*insert" >>$B
  done
done
for v in wixbench wixbench_tidy0; do
  echo "== $v growth" >>$B
  timeout 100 $W/$v --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$B
done
cat $B
