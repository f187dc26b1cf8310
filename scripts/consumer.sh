#!/usr/bin/env bash
# Builds examples/consumer, a Maven project outside this build, against the wixlib-java-api that
# `mvn install` put in the local repository (scripts/test.sh does), and runs it twice: the jar on the
# class path, then on the module path (as module org.wixlib, native access denied to all else). The
# program checks its results and how it was loaded; any failure fails this script.
# Usage: scripts/consumer.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/java-env.sh
# The version this tree installs: the parent POM's own <version>.
version=$(sed -n 's|^  <version>\(.*\)</version>.*|\1|p' pom.xml | head -n1)
[ -n "$version" ] || { echo "consumer: no version found in pom.xml" >&2; exit 1; }
rc=0
out=$(mvn -B -q -Dstyle.color=never -f examples/consumer/pom.xml verify -Dwixlib.version="$version") || rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "consumer: failed (is org.wixlib:wixlib-java-api:$version installed? mvn install)" >&2; exit 1; }
for mode in class-path module-path; do
  grep -q "consumer ($mode): ok, wixlib $version," <<<"$out" || { echo "consumer: no ok line for $mode" >&2; exit 1; }
done
