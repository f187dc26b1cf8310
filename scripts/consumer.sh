#!/usr/bin/env bash
# Builds examples/consumer, a Maven project outside this build, against the wixlib-java-api jars that
# `mvn install` put in the local repository (scripts/test.sh does): the API jar (classes only) with
# each natives jar in turn (linux-x86_64: GPU and CPU kinds; linux-x86_64-cpu: CPU only), and runs it
# twice: on the class path, then on the module path (as module org.wixlib, native access denied to
# all else). The program checks its results and how it was loaded; any failure fails this script.
# Usage: scripts/consumer.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/java-env.sh
# The version this tree installs: the parent POM's own <version>.
version=$(sed -n 's|^  <version>\(.*\)</version>.*|\1|p' pom.xml | head -n1)
[ -n "$version" ] || { echo "consumer: no version found in pom.xml" >&2; exit 1; }
# The installed jars (Maven's default local repository; -Dmaven.repo.local is not used here).
jars="$HOME/.m2/repository/org/wixlib/wixlib-java-api/$version"
entries() { "$JAVA_HOME/bin/jar" tf "$1" | grep -v -e '/$' -e '^META-INF/'; }
# The API jar holds classes only; each natives jar holds its library and nothing else.
[ "$(entries "$jars/wixlib-java-api-$version.jar" | grep -c '^native/')" = 0 ] || { echo "consumer: the API jar holds a native library" >&2; exit 1; }
for natives in linux-x86_64 linux-x86_64-cpu; do
  e=$(entries "$jars/wixlib-java-api-$version-$natives.jar")
  [ "$e" = "native/$natives/libwixlib.so" ] || { echo "consumer: the $natives jar holds: $e" >&2; exit 1; }
done
for natives in linux-x86_64 linux-x86_64-cpu; do
  rc=0
  out=$(mvn -B -q -Dstyle.color=never -f examples/consumer/pom.xml verify -Dwixlib.version="$version" \
    -Dwixlib.natives="$natives") || rc=$?
  echo "$out"
  [ $rc -eq 0 ] || { echo "consumer: failed with the $natives jar (is org.wixlib:wixlib-java-api:$version installed? mvn install)" >&2; exit 1; }
  for mode in class-path module-path; do
    line=$(grep "consumer ($mode): ok, wixlib $version," <<<"$out") || { echo "consumer: no ok line for $mode ($natives)" >&2; exit 1; }
    # The CPU-only library says so for the GPU kinds.
    if [ "$natives" = linux-x86_64-cpu ] && ! grep -q "no CUDA support" <<<"$line"; then
      echo "consumer: the $natives jar did not load the CPU-only library: $line" >&2; exit 1
    fi
  done
done
