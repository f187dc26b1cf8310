#!/usr/bin/env bash
# Prepares .carry/ (git-ignored) for the GPU machine, which has CUDA but no Java, Maven or network:
# a jlinked Java runtime, the built jars, the compiled Java tests and their test dependencies.
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
mvn -B -q dependency:copy-dependencies -DincludeScope=test -DoutputDirectory="$PWD/$carry/lib" -Dmdep.useBaseVersion=true \
  -DexcludeArtifactIds=fastutil,xchart  # the shaded CLI jar already holds what it uses
mvn -B -q dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:"${JUNIT_PLATFORM:-1.14.1}" \
  -DoutputDirectory="$PWD/$carry/lib" -Dmdep.stripVersion=true
cp java-api/target/*.jar cli/target/wixlib-cli.jar "$carry/lib/" 2>/dev/null || true
rm -f "$carry"/lib/*-sources.jar "$carry"/lib/*-javadoc.jar
for m in java-api cli; do
  mkdir -p "$carry/test-classes/$m"
  cp -r "$m/target/test-classes/." "$carry/test-classes/$m/" 2>/dev/null || true
done

# A small runtime: only the modules the jars use (java.desktop for the CLI's charts: AWT drawing and
# PNG writing; ~24 MB unpacked, ~9 MB in the tarball).
jlink --add-modules java.base,java.logging,jdk.unsupported,java.management,java.xml,java.desktop \
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
tar -C "$carry" -czf "$carry/jre.tgz" jre && rm -rf "$carry/jre"

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
du -sh "$carry" >&2
