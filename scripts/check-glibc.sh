#!/usr/bin/env bash
# Fails when a built libwixlib.so needs a newer glibc than wixlib states (README, Requirements), read
# from the GLIBC_x.y versions of the symbols it imports (objdump -T), or when it needs the shared C++
# runtime (libstdc++ is linked in statically: the C++ runtime of the build machine must not be needed).
# A library built on a newer distribution can need more (its static libstdc++ refers to newer glibc
# symbols): the minimum holds for builds on Debian 12 (glibc 2.36 toolchain) and older.
# Usage: scripts/check-glibc.sh [path/to/libwixlib.so]   (default build/native/libwixlib.so)
set -euo pipefail
cd "$(dirname "$0")/.."
min=2.34
lib=${1:-build/native/libwixlib.so}
[ -f "$lib" ] || { echo "check-glibc: $lib not found (build it first)" >&2; exit 1; }

newer() { [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n1)" = "$1" ]; }
symbols=$(objdump -T "$lib")
need=$(grep -o 'GLIBC_[0-9][0-9.]*' <<<"$symbols" | sed 's/^GLIBC_//' | sort -Vu | tail -n1)
status=0
if [ -n "$need" ] && newer "$need" "$min"; then
  echo "check-glibc: $lib needs glibc $need, newer than the stated minimum $min; symbols:" >&2
  while read -r v sym; do
    newer "$v" "$min" && echo "  $sym@GLIBC_$v" >&2
  done < <(sed -n 's/.*(GLIBC_\([0-9.]*\))[[:space:]]*\([^[:space:]]*\)$/\1 \2/p' <<<"$symbols")
  status=1
fi
if objdump -p "$lib" | grep -q 'NEEDED.*libstdc++'; then
  echo "check-glibc: $lib needs the shared libstdc++ (link it with -static-libstdc++)" >&2
  status=1
fi
[ $status -eq 0 ] && echo "check-glibc: $lib needs glibc ${need:-none} (stated minimum $min)" >&2
exit $status
