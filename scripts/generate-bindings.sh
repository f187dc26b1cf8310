#!/usr/bin/env bash
# Generates the Java FFM bindings of native/include/wixlib.h with jextract into
# java-api/src/main/java/org/wixlib/internal/ffi/ (generated code: never edit it by hand).
#
#   scripts/generate-bindings.sh            regenerate the committed bindings
#   scripts/generate-bindings.sh --check    generate into a temp dir and diff; exit 1 when stale
#
# jextract comes from $JEXTRACT, else `jextract` on PATH. No --library is passed, and the symbol
# lookup jextract writes (SymbolLookup.loaderLookup(): only libraries System.load-ed by the same
# class loader) is replaced by org.wixlib.internal.NativeLoader.symbols(), the library NativeLoader
# opened with dlopen: so wixlib works in several class loaders of one JVM. The script fails when
# jextract's output no longer has that line.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HEADER="$ROOT/native/include/wixlib.h"
PACKAGE="org.wixlib.internal.ffi"
OUT_ROOT="$ROOT/java-api/src/main/java"
PKG_DIR="$OUT_ROOT/${PACKAGE//.//}"

MODE=generate
case "${1:-}" in
  "") ;;
  --check) MODE=check ;;
  -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

JEXTRACT_BIN="${JEXTRACT:-}"
if [[ -z "$JEXTRACT_BIN" ]]; then
  JEXTRACT_BIN="$(command -v jextract || true)"
fi
if [[ -z "$JEXTRACT_BIN" || ! -x "$JEXTRACT_BIN" ]]; then
  cat >&2 <<'MSG'
generate-bindings: jextract not found (set JEXTRACT=/path/to/bin/jextract or put jextract on PATH).
  Get it from https://github.com/openjdk/jextract (sources, commit 0b89a462): it builds with a plain
  javac against a JDK 22+ and libclang (Debian: apt-get install libclang-14-dev), or use a binary
  release from https://jdk.java.net/jextract/.
MSG
  exit 3
fi

# Only the wixlib API: explicit symbol lists keep libc/stdint declarations out of the bindings.
FUNCTIONS=(
  wx_version wx_version_string wx_last_error wx_status_name wx_kind_available wx_cuda_versions
  wx_device_count wx_device_name wx_device_memory wx_device_properties wx_device_alloc
  wx_device_free wx_copy wx_host_alloc wx_host_free wx_host_register wx_host_unregister wx_link_measure
  wx_config_init wx_table_create wx_table_destroy
  wx_insert wx_insert_or_assign wx_find wx_contains wx_erase wx_batch
  wx_size wx_capacity wx_load_factor wx_stats_get wx_shard_stats_get wx_clear wx_resize wx_retrieve_all
  wx_hash_keys wx_find_hashed wx_insert_hashed
  wx_join_create wx_join_destroy wx_join_stats_get wx_join_hash wx_join_count wx_join_probe wx_join_semi
)
STRUCTS=(wx_config wx_stats wx_join_stats wx_link_rates)
# wx_table and wx_join are opaque (a pointer type only): jextract has nothing to generate for it.
TYPEDEFS=(wx_config wx_stats wx_join_stats wx_link_rates)
CONSTANTS=(
  WX_VERSION_MAJOR WX_VERSION_MINOR WX_VERSION_PATCH
  WX_OK WX_ERR_INVALID_ARGUMENT WX_ERR_INVALID_KEY WX_ERR_OUT_OF_MEMORY WX_ERR_NO_DEVICE
  WX_ERR_CUDA WX_ERR_FULL WX_ERR_UNSUPPORTED WX_ERR_INTERNAL
  WX_KIND_CPU WX_KIND_GLHT WX_KIND_HIVE
  WX_MEM_HOST WX_MEM_DEVICE
  WX_OUT_NONE WX_OUT_INSERTED WX_OUT_PRESENT WX_OUT_ASSIGNED WX_OUT_FOUND WX_OUT_NOT_FOUND
  WX_OUT_ERASED WX_OUT_FULL WX_OUT_INVALID_KEY
  WX_OP_INSERT WX_OP_ERASE WX_OP_FIND WX_OP_INSERT_OR_ASSIGN
  WX_GROW_AUTO WX_GROW_NEVER
  WX_KEY32_EMPTY WX_KEY32_TOMBSTONE WX_KEY64_EMPTY WX_KEY64_TOMBSTONE
  WX_JOIN_UNIQUE WX_JOIN_MULTI
  WX_LOAD_FACTOR_MIN WX_LOAD_FACTOR_MAX WX_STAGING_CHUNK_MIN WX_STAGING_CHUNK_MAX WX_HOT_SHARE_MAX
  WX_MIXED_GROUP_MAX WX_MAX_SHARDS WX_MAX_DEVICES
)

ARGS=(--target-package "$PACKAGE" --header-class-name wixlib_h)
for f in "${FUNCTIONS[@]}"; do ARGS+=(--include-function "$f"); done
for s in "${STRUCTS[@]}"; do ARGS+=(--include-struct "$s"); done
for t in "${TYPEDEFS[@]}"; do ARGS+=(--include-typedef "$t"); done
for c in "${CONSTANTS[@]}"; do ARGS+=(--include-constant "$c"); done

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
"$JEXTRACT_BIN" "${ARGS[@]}" --output "$TMP" "$HEADER"
GEN_DIR="$TMP/${PACKAGE//.//}"
if [[ ! -d "$GEN_DIR" ]]; then
  echo "generate-bindings: jextract produced no $PACKAGE package" >&2
  exit 4
fi

# The bindings' symbol lookup: exactly one initialiser of SYMBOL_LOOKUP, from loaderLookup().
HEADER_CLASS="$GEN_DIR/wixlib_h.java"
LOOKUP_FROM='static final SymbolLookup SYMBOL_LOOKUP = SymbolLookup.loaderLookup()'
LOOKUP_TO='static final SymbolLookup SYMBOL_LOOKUP = org.wixlib.internal.NativeLoader.symbols()'
found="$(grep -cF "$LOOKUP_FROM" "$HEADER_CLASS" || true)"
if [[ "$found" != 1 ]]; then
  echo "generate-bindings: expected one '$LOOKUP_FROM' in $(basename "$HEADER_CLASS"), found ${found:-0};" \
    "jextract's output changed: update the rewrite in $0" >&2
  exit 5
fi
sed -i "s/${LOOKUP_FROM//./\\.}/${LOOKUP_TO}/" "$HEADER_CLASS"
if [[ "$(grep -cF "$LOOKUP_TO" "$HEADER_CLASS")" != 1 ]] || grep -q 'loaderLookup' "$GEN_DIR"/*.java; then
  echo "generate-bindings: rewriting SYMBOL_LOOKUP in $(basename "$HEADER_CLASS") failed" >&2
  exit 5
fi

if [[ "$MODE" == check ]]; then
  if diff -r -u "$PKG_DIR" "$GEN_DIR" >"$TMP/diff.txt" 2>&1; then
    echo "generate-bindings: bindings are up to date ($PKG_DIR)"
    exit 0
  fi
  head -n 60 "$TMP/diff.txt" >&2
  echo "generate-bindings: bindings are STALE: run scripts/generate-bindings.sh and commit the result" >&2
  exit 1
fi

rm -rf "$PKG_DIR"
mkdir -p "$PKG_DIR"
cp "$GEN_DIR"/*.java "$PKG_DIR"/
echo "generate-bindings: wrote $(ls "$PKG_DIR" | wc -l) files to $PKG_DIR"
