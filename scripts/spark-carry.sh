#!/usr/bin/env bash
# Prepares the Spark runs of the GPU machine (Spark's join against wixlib's on TPC-H,
# org.wixlib.spark.compare.JoinComparison), which has neither Java nor Maven nor network: a Java
# runtime with the modules Spark uses, the jars the runner loads (Spark's own included, found by
# running it here once on the CPU kind with class loading logged: ~60 of the module's ~180 jars) and
# the JVM options Spark needs, packed as one xz tarball cut into parts of at most 56 MiB, one per
# .carry-sparkN folder (git-ignored).
#
# The device tool carries at most 64 MiB a call, so the parts travel in consecutive calls to one warm
# machine, each naming its folder in carry (a call keeps the ignored folders an earlier call brought);
# the last call runs them: SPARK_SF="1 10" SPARK_KINDS="glht hive" STAGES=spark bash scripts/device-run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/java-env.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pack="$work/spark"
mkdir -p "$pack/lib"

mvn -B -q install -DskipTests -Dmaven.javadoc.skip=true -Dwixlib.cuda=OFF -Dwixlib.native.dir="$PWD/build/native-nocuda"
mvn -B -q -pl spark dependency:copy-dependencies -DincludeScope=compile -DoutputDirectory="$work/all" -Dmdep.useBaseVersion=true
cp "$(ls spark/target/wixlib-spark-*.jar | grep -v -e sources -e javadoc | head -n1)" "$work/all/"
# The JVM options of Spark's launcher on modern JDKs plus native access for wixlib (spark/pom.xml).
sed -n '/<spark.jvm.options>/,/<\/spark.jvm.options>/p' spark/pom.xml | sed 's/<[^>]*>//g' | tr -s ' \n' ' ' >"$pack/jvm.options"

# The jars the runner loads classes from: one run on the CPU kind with class loading logged, at SF 1
# (smaller scale factors broadcast every side and never shuffle, so shuffle classes would be missed).
"$JAVA_HOME/bin/java" $(cat "$pack/jvm.options") -Xlog:class+load=info:file="$work/classes.log" \
  -Dwixlib.library.path="$PWD/build/native-nocuda/libwixlib.so" -cp "$work/all/*" \
  org.wixlib.spark.compare.JoinComparison --sf 1 --kind cpu --reps 1 >"$work/run.csv" 2>"$work/run.err" ||
  { tail -20 "$work/run.err" >&2; echo "spark-carry: the runner failed here" >&2; exit 1; }
grep -o 'source: file:[^ ]*\.jar' "$work/classes.log" | sed 's/source: file://' | sort -u | xargs -I{} cp {} "$pack/lib/"
echo "spark-carry: $(ls "$pack/lib" | wc -l) of $(ls "$work/all" | wc -l) jars loaded, $(du -sm "$pack/lib" | cut -f1) MB" >&2

jlink --add-modules java.se,jdk.unsupported,jdk.management,jdk.management.jfr,jdk.jfr,jdk.security.auth,jdk.crypto.ec,jdk.localedata,jdk.zipfs \
  --strip-debug --no-man-pages --no-header-files --output "$pack/jre"
rm -rf .carry-spark*
tar -C "$work" -cf - spark | xz -6 -T2 | split -b 56m -d - "$work/part-"
i=1
for p in "$work"/part-*; do
  mkdir -p ".carry-spark$i" && mv "$p" ".carry-spark$i/"
  echo "spark-carry: .carry-spark$i $(du -sm ".carry-spark$i" | cut -f1) MiB" >&2
  i=$((i + 1))
done
