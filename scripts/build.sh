#!/usr/bin/env bash
# Builds everything: the native library (CMake; CUDA parts where nvcc exists), the Java API jar with
# the library packed in, and the runnable CLI jar used by bin/wixlib. Extra args go to Maven.
# WIXLIB_CUDA=OFF builds without CUDA: no nvcc needed and no kernels compiled (the CPU table only;
# GPU kinds then report NO_DEVICE). ON requires CUDA; AUTO (default) uses it where nvcc exists.
# CMake and compiler output goes to build/native/native-build.log, printed if the build fails.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/java-env.sh
jobs=$(nproc 2>/dev/null || echo 2)
cuda=${WIXLIB_CUDA:-AUTO}
case "$cuda" in
  ON|OFF|AUTO) ;;
  *) echo "build.sh: WIXLIB_CUDA must be ON, OFF or AUTO, got '$cuda'" >&2; exit 2 ;;
esac
# No javadoc here (mvn verify and scripts/test.sh build it): this is the quick path to a runnable jar.
mvn -B -q install -DskipTests -Dmaven.javadoc.skip=true -Dwixlib.jobs="$jobs" -Dwixlib.cuda="$cuda" "$@"
echo "built: cli/target/wixlib-cli.jar (run bin/wixlib; CUDA $cuda)" >&2
