#!/usr/bin/env bash
# Builds the libFuzzer target build/fuzz/fuzz_capi: the CPU library sources compiled directly with
# clang and -fsanitize=fuzzer,address,undefined (no CUDA; GPU kinds report NO_DEVICE).
# Installs clang (Debian: clang-14 + libclang-rt-14-dev) when no clang with libFuzzer is found.
# Usage: native/fuzz/build.sh [BUILD_DIR]   (default build/fuzz)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build/fuzz}
rm -rf "$out/obj"
mkdir -p "$out/obj"

# A clang that links -fsanitize=fuzzer; newest first.
find_clang() {
  local probe="$out/probe.cpp"
  printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' >"$probe"
  for cxx in clang++ clang++-19 clang++-18 clang++-17 clang++-16 clang++-15 clang++-14; do
    command -v "$cxx" >/dev/null || continue
    if "$cxx" -fsanitize=fuzzer,address,undefined "$probe" -o "$out/probe" 2>/dev/null; then
      echo "$cxx"
      return 0
    fi
  done
  return 1
}

CXX=$(find_clang || true)
if [ -z "$CXX" ]; then
  echo "fuzz: installing clang-14 (libFuzzer)" >&2
  sudo=; [ "$(id -u)" = 0 ] || sudo=sudo  # hosted CI runners are not root
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang-14 libclang-rt-14-dev >&2
  CXX=$(find_clang) || { echo "fuzz: no clang with -fsanitize=fuzzer available" >&2; exit 2; }
fi
echo "fuzz: compiler $CXX" >&2

# -O1 keeps the sanitizers fast enough; -fno-sanitize-recover turns any UB report into a crash.
flags=(-std=c++17 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=all -Inative/include -Inative/src -DWIXLIB_VERSION_STRING='"fuzz"' -pthread)
shopt -s nullglob
srcs=(native/src/*.cpp native/src/common/*.cpp native/src/cpu/*.cpp native/src/nocuda/*.cpp
      native/src/shard/*.cpp native/src/shard/nocuda/*.cpp)

# Library objects without the fuzzer's main; -fsanitize=fuzzer-no-link still instruments them.
lib_flags=("${flags[@]/-fsanitize=fuzzer,address,undefined/-fsanitize=fuzzer-no-link,address,undefined}")
export CXX out
printf '%s\n' "${srcs[@]}" | xargs -P 2 -I{} sh -c '
  o="$out/obj/$(echo "{}" | tr / _).o"
  exec "$CXX" "$@" -c "{}" -o "$o"' sh "${lib_flags[@]}"
"$CXX" "${flags[@]}" native/fuzz/fuzz_capi.cpp "$out"/obj/*.o -o "$out/fuzz_capi"
echo "fuzz: built $out/fuzz_capi" >&2
