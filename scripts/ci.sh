#!/usr/bin/env bash
# The CI run on a machine without a GPU (what .ci/run and .github/workflows/ci.yml both call):
#  1. scripts/test.sh (CUDA parts compiled where nvcc exists; WIXLIB_CUDA=OFF skips them): bindings currency, the native build and
#     CTest (GPU tests reported skipped), the Java build and tests through Maven (javadoc with
#     doclint, sources jar), installed into the local Maven repository;
#  2. scripts/consumer.sh: examples/consumer, a project outside the build, against the installed jars
#     (API and each natives jar) on the class path and on the module path;
#  3. scripts/check-glibc.sh: the built libraries (build/native, build/native-cpu) need no newer glibc
#     than the README states;
#  4. scripts/sanitize.sh: the host tests under ASan/LSan/UBSan;
#  5. scripts/fuzz.sh: the C API under libFuzzer for FUZZ_SECONDS (default 60).
# About 6 minutes on 2 cores. Expects cmake, a C++ compiler, Maven and a JDK 22+ (scripts/java-env.sh
# finds it); the fuzz step installs clang when none with libFuzzer is found.
# Usage: scripts/ci.sh
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
step() { echo "== ci: $1 ($((SECONDS - start)) s)" >&2; }

step "build and tests (GPU tests skip without a device)"
bash scripts/test.sh
step "consumer project (installed jars, class path and module path)"
bash scripts/consumer.sh
step "glibc symbol versions of libwixlib.so (both natives jars' libraries)"
bash scripts/check-glibc.sh build/native/libwixlib.so
bash scripts/check-glibc.sh build/native-cpu/libwixlib.so
step "host tests under sanitizers"
bash scripts/sanitize.sh
step "C API fuzzing"
bash scripts/fuzz.sh "${FUZZ_SECONDS:-60}"
step "passed"
