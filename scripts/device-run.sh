#!/usr/bin/env bash
# Runs on the GPU machine (CUDA, no Java, no network), from the repository root, with .carry/ from
# scripts/device-prepare.sh. Builds the native library with CUDA, runs the native tests (GPU ones
# required), compute-sanitizer on small cases, the Java tests against the CUDA build, `wixlib info`
# and the benchmarks. Logs go to a work folder packed at the end into $OUT/results.tgz, with
# $OUT/summary.txt beside it (the device tool brings back only a few files). Stages: STAGES="native
# sanitize java stress bench" (default all), plus "spark" on request (Spark's join against wixlib's
# from scripts/spark-carry.sh's parts: SPARK_SF, SPARK_KINDS (compared in one run), SPARK_REPS, SPARK_ARGS
# such as "--warmups 0 --sql off"), and "join" on request: `wixlib join` on TPC-H at each
# scale factor of JOIN_SF (default "1 10") for JOIN_KINDS (default glht,hive,cpu), extra JOIN_ARGS, and
# `--baseline duckdb` when .carry holds DuckDB's jar (scripts/device-prepare.sh with WITH_DUCKDB=1).
# Exit status: the number of failed stages.
# Knobs: WIXLIB_SEED (native tests and stress), WIXLIB_BIG=0 drops the 2^28-element batch (default 1),
# WIXLIB_LEAK_CYCLES (gpu_leaks, default 10^5), WIXLIB_STRESS_OPS (gpu_stress_*, default 10^8),
# GPU_TEST_TIMEOUT (per GPU test, default 300 s), JAVA_CLASSES (only these Java test classes),
# ATOMIC_PROBE=0 and WIXBENCH_KINDS="" (skip those benchmarks), GPU_TESTS="gpu_a gpu_b" (only these GPU tests, in the
# native and sanitize stages; host tests then run only with HOST_TESTS=1), SANITIZE_TOOLS (default
# "memcheck racecheck synccheck"), SANITIZE_TESTS (GPU tests under the sanitizer; default GPU_TESTS less gpu_stress_*), STRESS_OPS / STRESS_KINDS / STRESS_KEY_BITS (`wixlib verify`
# runs of the stress stage, default 10^8 ops on glht and hive at 32 and 64 key bits: uniform then Zipf
# keys, resizes interleaved).
set -uo pipefail
cd "$(dirname "$0")/.."
FINAL=${OUT:-$PWD/device-out}
OUT=$(mktemp -d /tmp/wixlib-results.XXXX)
mkdir -p "$FINAL"
# summary.txt is written straight into $FINAL so a run cut short still brings back what it reached.
trap 'tar -C "$OUT" -czf "$FINAL/results.tgz" .' EXIT
STAGES=${STAGES:-native sanitize java stress bench}
export WIXLIB_SEED=${WIXLIB_SEED:-$(date +%s)}
jobs=$(nproc)
build=build/native
lib=$PWD/$build/libwixlib.so
failed=0
stage() { echo "== $1 ($(date +%T))" | tee -a "$FINAL/summary.txt"; }
result() { echo "   $1: $2" | tee -a "$FINAL/summary.txt"; [ "$2" = ok ] || failed=$((failed + 1)); }
has() { [[ " $STAGES " == *" $1 "* ]]; }
# GPU tests picked by GPU_TESTS (all when unset).
picked() { [ -z "${GPU_TESTS:-}" ] || [[ " $GPU_TESTS " == *" $(basename "$1") "* ]]; }
# GPU tests run under compute-sanitizer: SANITIZE_TESTS="gpu_a" (default: those GPU_TESTS picks, less
# the stress tests: they run the kernels the API tests run, and take ~80 s each under racecheck even
# with WIXLIB_SMALL).
sanitized() {
  if [ -n "${SANITIZE_TESTS:-}" ]; then [[ " $SANITIZE_TESTS " == *" $(basename "$1") "* ]]
  else picked "$1" && [[ $(basename "$1") != gpu_stress_* ]]; fi
}

stage "machine"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nvcc --version | tail -2; nproc; } 2>&1 | tee -a "$FINAL/summary.txt"
echo "seed: WIXLIB_SEED=$WIXLIB_SEED (tests and stress replay with it)" | tee -a "$FINAL/summary.txt"

if [ -f .carry/native-build.tar.xz ]; then
  stage "native build: prebuilt (scripts/device-prepare.sh with PREBUILD=1)"
  mkdir -p "$build" && tar -C "$build" -xJf .carry/native-build.tar.xz && result build ok
else
  stage "native build (CUDA)"
  if cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DWIXLIB_CUDA=ON >"$OUT/cmake.log" 2>&1 &&
     cmake --build "$build" -j "$jobs" >>"$OUT/cmake.log" 2>&1; then result build ok
  else result build FAILED; tail -40 "$OUT/cmake.log"; exit 1; fi
fi

if has native; then
  # The test binaries run directly (not through ctest) so a prebuilt tree works from any path.
  # Host tests run in the background; GPU tests one after another (gpu_leaks measures free memory).
  stage "native tests (WIXLIB_REQUIRE_GPU=1)"
  tests=$build/native/tests
  for t in "$tests"/test_*; do
    [ -z "${GPU_TESTS:-}" ] || [ "${HOST_TESTS:-0}" = 1 ] || break
    [ -x "$t" ] && (WIXLIB_REQUIRE_GPU=1 "$t" >"$OUT/$(basename "$t").log" 2>&1; echo $? >"$OUT/$(basename "$t").rc") &
  done
  for t in "$tests"/gpu_*; do
    [ -x "$t" ] && picked "$t" || continue
    s0=$SECONDS
    if WIXLIB_BIG=${WIXLIB_BIG:-1} WIXLIB_REQUIRE_GPU=1 timeout "${GPU_TEST_TIMEOUT:-300}" "$t" >"$OUT/$(basename "$t").log" 2>&1; then result "$(basename "$t") ($((SECONDS - s0)) s)" ok
    else result "$(basename "$t") ($((SECONDS - s0)) s)" FAILED; tail -8 "$OUT/$(basename "$t").log"; fi
    # Figures worth a line in the summary: ops checked by the stress tests, leak and OOM figures,
    # the 2^28 batch and the Hive growth.
    grep -E "^  ok: [0-9]+ ops in|create/destroy:|grow/shrink:|out-of-memory:|^\[big\]|grow 2\^10|shrunk back|halfway down" \
      "$OUT/$(basename "$t").log" | sed 's/^/      /' | tee -a "$FINAL/summary.txt"
  done
  wait
  for r in "$OUT"/test_*.rc; do
    [ -f "$r" ] || continue
    n=$(basename "$r" .rc)
    [ "$(cat "$r")" = 0 ] && result "$n" ok || { result "$n" FAILED; tail -5 "$OUT/$n.log"; }
  done
fi

if has sanitize; then
  stage "compute-sanitizer (small cases)"
  for t in "$build"/native/tests/gpu_*; do
    [ -x "$t" ] && sanitized "$t" || continue
    [[ $t == *gpu_leaks ]] && continue  # measures free device memory; meaningless under the sanitizer
    for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck}; do
      s0=$SECONDS
      if WIXLIB_SMALL=1 WIXLIB_REQUIRE_GPU=1 timeout 600 compute-sanitizer --tool $tool --error-exitcode 99 "$t" \
          >"$OUT/sanitize-$(basename "$t")-$tool.log" 2>&1; then result "$(basename "$t") $tool ($((SECONDS - s0)) s)" ok
      else result "$(basename "$t") $tool ($((SECONDS - s0)) s)" FAILED; tail -15 "$OUT/sanitize-$(basename "$t")-$tool.log"; fi
    done
  done
fi

jre=/tmp/wixlib-jre
if has java || has bench || has stress || has join; then
  rm -rf "$jre" && mkdir -p "$jre" && tar -C "$jre" --strip-components=1 -xJf .carry/jre.tar.xz
  export WIXLIB_JAVA_HOME=$jre JDK_JAVA_OPTIONS="-Dwixlib.library.path=$lib" WIXLIB_JAR=$PWD/.carry/lib/wixlib-cli.jar
fi

if has java; then
  stage "Java tests against the CUDA build (WIXLIB_REQUIRE_GPU=1)"
  cp=$(ls .carry/lib/*.jar | grep -v console-standalone | tr '\n' ':')
  for m in java-api cli; do
    # JAVA_CLASSES="org.wixlib.A org.wixlib.cli.B": only those test classes (of whichever module has them)
    select="--scan-class-path .carry/test-classes/$m"
    if [ -n "${JAVA_CLASSES:-}" ]; then
      select=""
      for c in $JAVA_CLASSES; do [ -f ".carry/test-classes/$m/${c//.//}.class" ] && select="$select --select-class $c"; done
      [ -n "$select" ] || continue
    fi
    if WIXLIB_REQUIRE_GPU=1 "$jre/bin/java" --enable-native-access=ALL-UNNAMED -jar .carry/lib/junit-platform-console-standalone.jar \
        execute --class-path ".carry/test-classes/$m:$cp" $select \
        --reports-dir "$OUT/junit-$m" --details=summary >"$OUT/java-$m.log" 2>&1; then result "java $m" ok
    else result "java $m" FAILED; fi
    grep -E "tests (successful|failed|skipped|aborted)" "$OUT/java-$m.log"
  done
fi

if has stress; then
  # wixlib verify per GPU kind and key width: half the ops with distinct keys per batch (uniform), half
  # with Zipf keys over the whole range, the table resized up and down every 16 batches, every batch checked.
  stage "stress: wixlib verify, ${STRESS_OPS:=100000000} ops per kind and key width (seed $WIXLIB_SEED)"
  for k in ${STRESS_KINDS:-glht hive}; do
    for bits in ${STRESS_KEY_BITS:-32 64}; do
      s0=$SECONDS
      log="$OUT/verify-$k-$bits"
      if WIXLIB_JAVA_OPTS="${WIXLIB_JAVA_OPTS:-} -Xmx32g" bin/wixlib verify --kind "$k" --key-bits "$bits" \
          --ops "$STRESS_OPS" --batch 2^20 --key-range 2^22 --hot-fraction 0.5 --zipf 0.99 --resize-every 16 \
          --seed "$WIXLIB_SEED" >"$log.txt" 2>"$log.err"; then result "verify $k $bits-bit ($((SECONDS - s0)) s)" ok
      else result "verify $k $bits-bit ($((SECONDS - s0)) s)" FAILED; tail -20 "$log.err"; fi
      grep -E "^(ops checked|zipf batches|hottest key share|explicit resizes|table resizes|mismatches|first mismatch|seconds|result):" \
        "$log.txt" | sed 's/^/      /' | tee -a "$FINAL/summary.txt"
    done
  done
fi

if has bench; then
  stage "wixlib info and bench"
  bin/wixlib info 2>&1 | tee "$OUT/info.txt"
  bin/wixlib bench ${BENCH_ARGS:-} 2>"$OUT/bench.err" | tee "$OUT/bench.txt" && result "wixlib bench" ok || result "wixlib bench" FAILED
  if [ -n "${SUITES:-}" ]; then
    bin/wixlib bench --suite "$SUITES" --kind glht,hive,cpu --out "$OUT/bench-suite" ${SUITE_ARGS:-} \
        >"$OUT/bench-suite.txt" 2>"$OUT/bench-suite.err" && result "bench suites" ok || result "bench suites" FAILED
    tail -30 "$OUT/bench-suite.txt"
    cp "$OUT"/bench-suite/*.svg "$OUT"/bench-suite/*.png "$FINAL"/ 2>/dev/null  # the charts come back outside the tarball too
  fi
  if [ "${ATOMIC_PROBE:-1}" = 1 ] && [ -x "$build/native/bench/atomic_probe" ]; then  # the GPU's load/CAS rates: what bounds the write kernels
    "$build/native/bench/atomic_probe" 2>&1 | tee "$OUT/atomic_probe.txt" | tee -a "$FINAL/summary.txt"
  fi
  if [ -x "$build/native/bench/wixbench" ]; then
    for k in ${WIXBENCH_KINDS-glht hive}; do  # WIXBENCH_KINDS="" skips wixbench
      "$build/native/bench/wixbench" --kind "$k" ${WIXBENCH_ARGS:-} 2>"$OUT/wixbench-$k.err" | tee "$OUT/wixbench-$k.txt" |
        tee -a "$FINAL/summary.txt" && result "wixbench $k" ok || result "wixbench $k" FAILED
    done
  fi
fi

if has join; then
  stage "wixlib join (TPC-H join cores against a Java HashMap join)"
  duckdb=""
  ls .carry/lib/duckdb_jdbc*.jar >/dev/null 2>&1 && duckdb="--baseline duckdb"  # found beside wixlib-cli.jar
  for sf in ${JOIN_SF:-1 10}; do
    if bin/wixlib join --sf "$sf" --kind "${JOIN_KINDS:-glht,hive,cpu}" $duckdb ${JOIN_ARGS:-} >"$OUT/join-sf$sf.txt" 2>"$OUT/join-sf$sf.err"
    then result "wixlib join --sf $sf $duckdb" ok; else result "wixlib join --sf $sf $duckdb" FAILED; tail -5 "$OUT/join-sf$sf.err"; fi
    tee -a "$FINAL/summary.txt" <"$OUT/join-sf$sf.txt"
  done
fi

if has spark; then
  # Spark's join against wixlib's (org.wixlib.spark.compare.JoinComparison) in local mode on all cores,
  # from the parts scripts/spark-carry.sh made (carried in consecutive calls to this machine).
  stage "spark: Spark's join against wixlib's on TPC-H (JoinComparison)"
  sdir=/tmp/wixlib-spark
  if ls .carry-spark*/part-* >/dev/null 2>&1; then
    rm -rf "$sdir" && mkdir -p "$sdir" && cat .carry-spark*/part-* | xz -d | tar -C "$sdir" -xf -
    kinds=$(tr -s ' ' ',' <<<"${SPARK_KINDS:-glht hive}")
    for sf in ${SPARK_SF:-1}; do
      log="$OUT/spark-sf$sf"
      if timeout "${SPARK_TIMEOUT:-500}" "$sdir/spark/jre/bin/java" -Xmx${SPARK_HEAP:-64g} $(cat "$sdir/spark/jvm.options") \
          -Dwixlib.library.path="$lib" -cp "$sdir/spark/lib/*" org.wixlib.spark.compare.JoinComparison \
          --sf "$sf" --kind "$kinds" --reps "${SPARK_REPS:-3}" ${SPARK_ARGS:-} >"$log.csv" 2>"$log.err"
      then result "spark join comparison --sf $sf --kind $kinds ${SPARK_ARGS:-}" ok
      else result "spark join comparison --sf $sf --kind $kinds ${SPARK_ARGS:-}" FAILED; tail -5 "$log.err"; fi
      grep -E "^(spark|java|wixlib|device [0-9]|tpch|sql extension):|^generated " "$log.err" | sed 's/^/      /' | tee -a "$FINAL/summary.txt"
      tee -a "$FINAL/summary.txt" <"$log.csv"
    done
  else
    result "spark: no .carry-spark*/part-* (scripts/spark-carry.sh, carried in consecutive calls)" FAILED
  fi
fi

stage "done: $failed failed stage(s)"
exit $failed
