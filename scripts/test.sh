#!/usr/bin/env bash
# Runs every test: native CTest (host tests; GPU tests run where a device exists, else are reported
# skipped), then the Java tests through Maven (GPU tests skip visibly through JUnit assumptions).
# WIXLIB_REQUIRE_GPU=1 turns every skipped GPU test into a failure (GPU runners).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/java-env.sh
jobs=$(nproc 2>/dev/null || echo 2)
build=build/native

echo "== bindings" >&2
bash scripts/generate-bindings.sh --check || { rc=$?; [ $rc -eq 3 ] && echo "bindings: jextract not found, currency not checked" >&2 || exit $rc; }

echo "== native build and tests" >&2
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DWIXLIB_CUDA="${WIXLIB_CUDA:-AUTO}" >/dev/null
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" --output-on-failure -j "$jobs"

echo "== Java build and tests" >&2
mvn -B install -Dwixlib.jobs="$jobs" "$@"
