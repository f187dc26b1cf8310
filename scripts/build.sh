#!/usr/bin/env bash
# Builds everything: the native library (CMake; CUDA parts where nvcc exists), the Java API jar with
# the library packed in, and the runnable CLI jar used by bin/wixlib. Extra args go to Maven.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/java-env.sh
jobs=$(nproc 2>/dev/null || echo 2)
# No javadoc here (mvn verify and scripts/test.sh build it): this is the quick path to a runnable jar.
mvn -B -q install -DskipTests -Dmaven.javadoc.skip=true -Dwixlib.jobs="$jobs" "$@"
echo "built: cli/target/wixlib-cli.jar (run bin/wixlib)" >&2
