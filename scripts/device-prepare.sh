#!/usr/bin/env bash
# Prepares .carry/ (git-ignored) for the GPU machine, which has CUDA but no Java, Maven or network:
# a jlinked Java runtime, the built jars, the compiled Java tests and their test dependencies.
# WITH_DUCKDB=1 adds DuckDB's JDBC jar with only its linux_amd64 library (~19 MB) for
# `wixlib join --baseline duckdb` and its test: it is left out by default because the device tool
# carries at most 64 MiB (working tree + .carry) and the rest already takes ~40 MB.
# Then, on the GPU machine: bash scripts/device-run.sh (name .carry in the run's carry list).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/java-env.sh
carry=.carry
rm -rf "$carry" && mkdir -p "$carry/lib"

# Jars and test classes. The .so packed here is a host build; the GPU machine builds its own with
# CUDA and points the loader at it (wixlib.library.path).
mvn -B -q install -DskipTests -Dmaven.javadoc.skip=true -Dwixlib.cuda=OFF -Dwixlib.native.dir="$PWD/build/native-nocuda"  # leaves build/native as it was
mvn -B -q test-compile -Dwixlib.native.skip=true
# Not the spark module's: Spark's jars (~280 MB) are far over what the device tool carries.
mvn -B -q dependency:copy-dependencies -pl java-api,cli -DincludeScope=test -DoutputDirectory="$PWD/$carry/lib" -Dmdep.useBaseVersion=true \
  -DexcludeArtifactIds=fastutil,xchart,duckdb_jdbc  # the shaded CLI jar holds what it uses; DuckDB: below
mvn -B -q dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:"${JUNIT_PLATFORM:-1.14.1}" \
  -DoutputDirectory="$PWD/$carry/lib" -Dmdep.stripVersion=true
cp java-api/target/*.jar cli/target/wixlib-cli.jar "$carry/lib/" 2>/dev/null || true
rm -f "$carry"/lib/*-sources.jar "$carry"/lib/*-javadoc.jar
for m in java-api cli; do
  mkdir -p "$carry/test-classes/$m"
  cp -r "$m/target/test-classes/." "$carry/test-classes/$m/" 2>/dev/null || true
done

# DuckDB's jar holds native libraries for four platforms (~80 MB); the GPU machine needs linux_amd64's.
if [ "${WITH_DUCKDB:-0}" = 1 ]; then
  src=$(ls cli/target/lib/duckdb_jdbc-*.jar | tail -n1)  # copied there by the cli module's package phase
  tmp=$(mktemp -d)
  (cd "$tmp" && jar xf "$OLDPWD/$src" && rm -f libduckdb_java.so_osx_* libduckdb_java.so_windows_* libduckdb_java.so_linux_arm64 &&
    jar --create --no-manifest --file "$OLDPWD/$carry/lib/$(basename "$src" .jar)-linux_amd64.jar" -C . .)
  rm -rf "$tmp"
fi

# A small runtime: only the modules the jars use (java.desktop for the CLI's charts: AWT drawing and
# PNG writing; java.sql for the JDBC driver of wixlib join --baseline duckdb). xz packs it to ~21 MB
# against ~32 MB for gzip: room for the DuckDB jar within the 64 MiB the device tool carries.
jlink --add-modules java.base,java.logging,jdk.unsupported,java.management,java.xml,java.desktop,java.sql \
  --strip-debug --no-man-pages --no-header-files --output "$carry/jre"
# The GPU machine has neither fontconfig nor fonts, and AWT cannot measure or draw text without them
# ("Fontconfig head is null"). So the runtime carries DejaVu Sans (~1.4 MB) and a
# lib/fontconfig.properties that maps every logical font to it; AWT then needs no system font.
fonts=${CHART_FONTS:-/usr/share/fonts/truetype/dejavu}
if [ -f "$fonts/DejaVuSans.ttf" ] && [ -f "$fonts/DejaVuSans-Bold.ttf" ]; then
  mkdir -p "$carry/jre/lib/fonts" && cp "$fonts/DejaVuSans.ttf" "$fonts/DejaVuSans-Bold.ttf" "$carry/jre/lib/fonts/"
  {
    echo "version=1"
    echo "sequence.allfonts=latin-1"
    for f in serif sansserif monospaced dialog dialoginput; do
      for s in plain italic; do echo "$f.$s.latin-1=DejaVu Sans"; done
      for s in bold bolditalic; do echo "$f.$s.latin-1=DejaVu Sans Bold"; done
    done
    echo 'filename.DejaVu_Sans=$JRE_LIB_FONTS/DejaVuSans.ttf'
    echo 'filename.DejaVu_Sans_Bold=$JRE_LIB_FONTS/DejaVuSans-Bold.ttf'
  } >"$carry/jre/lib/fontconfig.properties"
else
  echo "device-prepare: no DejaVuSans.ttf in $fonts (Debian: fonts-dejavu-core; or set CHART_FONTS):" \
    "bench charts will fail on the GPU machine" >&2
fi
tar -C "$carry" -cf - jre | xz -9 -T2 >"$carry/jre.tar.xz" && rm -rf "$carry/jre"

# With PREBUILD=1 the CUDA library, native tests and benchmark are built here (binaries built here
# run there) and travel as native-build.tar.xz, so the GPU machine's time goes to tests, not compiling.
# xz with a large window: the test binaries share most of their bytes (every kernel), so they pack
# to little more than one.
if [ "${PREBUILD:-0}" = 1 ]; then
  cmake -S . -B build/cuda -DCMAKE_BUILD_TYPE=Release -DWIXLIB_CUDA=ON >/dev/null
  cmake --build build/cuda -j "$(nproc)"
  # The device tool takes at most 64 MiB along (working tree + carry): PREBUILD_ONLY="gpu_a wixbench"
  # packs only those test/bench binaries (each holds all kernels, ~7 MB).
  files="native/tests/ native/bench/"
  if [ -n "${PREBUILD_ONLY:-}" ]; then
    files=""
    for b in $PREBUILD_ONLY; do files="$files $(cd build/cuda && ls -d native/tests/$b native/bench/$b 2>/dev/null)"; done
  fi
  XZ_OPT="-9 -T2" tar -C build/cuda --exclude=CMakeFiles --exclude='*.cmake' --exclude=Makefile \
    -cJf "$carry/native-build.tar.xz" libwixlib.so $files
fi
# The device tool carries at most 64 MiB: the working tree's tracked files and .carry together.
carry_bytes=$(du -sb "$carry" | cut -f1)
tree_bytes=$(git ls-files -z | xargs -0 du -cb 2>/dev/null | tail -n1 | cut -f1)
total=$(( (carry_bytes + tree_bytes) / 1048576 ))
echo "device-prepare: .carry $((carry_bytes / 1048576)) MiB + working tree $((tree_bytes / 1048576)) MiB = $total MiB" \
  "(the device tool carries at most 64 MiB)" >&2
[ "$total" -lt 64 ] || echo "device-prepare: too large to carry: drop WITH_DUCKDB or PREBUILD, or narrow PREBUILD_ONLY" >&2
