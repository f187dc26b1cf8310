#!/usr/bin/env bash
# Fuzzes the C API on the CPU kind for SECONDS (default 60) with libFuzzer + ASan/UBSan/LSan:
# builds build/fuzz/fuzz_capi (native/fuzz/build.sh, installs clang if needed), runs it from the seed
# corpus native/fuzz/corpus/ (read-only; new inputs go to build/fuzz/corpus), prints executions and
# crashes, exits non-zero on any crash (crash inputs are kept in build/fuzz/crash-*).
# Usage: scripts/fuzz.sh [SECONDS]      replay one input: build/fuzz/fuzz_capi FILE
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=build/fuzz
bash native/fuzz/build.sh "$out"
mkdir -p "$out/corpus"
rm -f "$out"/crash-* "$out"/leak-* "$out"/timeout-* "$out"/oom-*

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
log="$out/fuzz.log"
set +e
# -rss_limit_mb: a table the library should have refused shows up as an OOM crash.
"$out/fuzz_capi" -max_total_time="$seconds" -max_len=4096 -timeout=20 -rss_limit_mb=2048 \
  -artifact_prefix="$out/" -print_final_stats=1 "$out/corpus" native/fuzz/corpus >"$log" 2>&1
rc=$?
set -e

execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
crashes=$(find "$out" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
echo "fuzz: ${seconds}s, executions: $execs ($rate/s), $cov, crashes: $crashes, exit code $rc"
if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
  grep -E 'FUZZ CHECK FAILED|ERROR: |SUMMARY|runtime error' "$log" | head -20 >&2 || true
  tail -40 "$log" >&2
  find "$out" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) >&2
  echo "fuzz: FAILED (full log: $log; replay: $out/fuzz_capi <crash file>)" >&2
  exit 1
fi
