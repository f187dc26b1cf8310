#!/usr/bin/env bash
# Host tests under AddressSanitizer + LeakSanitizer + UBSan (no CUDA): a separate build in build/asan
# (-DWIXLIB_SANITIZE=ON adds -fsanitize=address,undefined to the library and every test), then
# `ctest -L host`. Any memory error, leak or undefined behaviour aborts the test and fails this script.
# Usage: scripts/sanitize.sh [extra ctest args, e.g. -R test_api]
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/asan
jobs=${WIXLIB_JOBS:-$(nproc 2>/dev/null || echo 2)}

cmake -S . -B "$build" -DWIXLIB_SANITIZE=ON -DWIXLIB_CUDA=OFF -DWIXLIB_BENCH=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# Only the host test executables (the tests link the library objects; libwixlib.so is not needed).
mapfile -t targets < <(ctest --test-dir "$build" -N -L host | awk '/Test +#[0-9]+:/ {print $3}')
[ ${#targets[@]} -gt 0 ] || { echo "sanitize: no host tests found" >&2; exit 1; }
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

# halt_on_error makes every UBSan report fatal (the build's checks are recoverable by default);
# WIXLIB_SMALL shrinks the suites' sizes, which the sanitizers slow down several times.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export WIXLIB_SMALL=${WIXLIB_SMALL:-1}
ctest --test-dir "$build" -L host --output-on-failure -j "$jobs" "$@"
echo "sanitize: all host tests clean under ASan/LSan/UBSan (${#targets[@]} tests)"
