#!/usr/bin/env bash
# Device run C (s14): the whole GPU suite at full size (WIXLIB_BIG=1: the 2^28-element batches, which
# GLHT now bulk-builds), and the L2 fetch granularity (cudaLimitMaxL2FetchGranularity: how many bytes
# L2 asks DRAM for per miss) as an experiment: atomic_probe at the default and at 32 / 64 / 128 B,
# and wixbench with WIXLIB_L2_FETCH=32|64 (set by the GPU tables when made) against the default.
# WIXLIB_L2_FETCH existed only in this run's build (run-c-l2-fetch.patch, not kept: the default,
# 64 B, was best); unset, that build's kernels and host code are the landed ones.
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench; R=$OUT/wixbench.txt
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
log() { echo "-- $* ($(date +%T))" >>$R; }
for f in 0 32 64 128; do timeout 60 $W/atomic_probe 27 26 $f >>$OUT/atomic-probe.txt 2>&1; done
for round in 1 2; do
  for f in "" 32 64; do
    log "glht static, dynamic L2 fetch ${f:-default}"
    WIXLIB_L2_FETCH=$f $W/wixbench --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
    WIXLIB_L2_FETCH=$f $W/wixbench --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*(16777215|,100\])" >>$R
    log "hive static L2 fetch ${f:-default}"
    WIXLIB_L2_FETCH=$f $W/wixbench --kind hive --bench static --lf 0.8,0.95 --reps 3 2>&1 | grep -E "^static" >>$R
  done
done
log "suite"
mkdir -p $OUT/suite
OUT=$OUT/suite WIXLIB_BIG=1 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="gpu_api_glht gpu_api_hive gpu_glht_invariants gpu_hive_invariants gpu_hive_resize" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/suite/summary.txt
log done
