#!/usr/bin/env bash
# The GPU suite (small batches) with memcheck + racecheck on the Hive / GLHT API tests and Hive resizes.
set -u
cd "$(dirname "$0")/.."
WIXLIB_BIG=0 STAGES="native sanitize" WIXLIB_STRESS_OPS=10000000 WIXLIB_LEAK_CYCLES=20000 SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TESTS="${SANITIZE_TESTS:-gpu_api_glht gpu_api_hive gpu_hive_invariants gpu_hive_resize}" GPU_TEST_TIMEOUT=200 bash scripts/device-run.sh >$OUT/suite-log.txt 2>&1
echo "suite rc=$?" >>$OUT/summary.txt
