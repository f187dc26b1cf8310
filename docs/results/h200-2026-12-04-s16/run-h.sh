#!/usr/bin/env bash
# Device run H (s16): on one card, Hive LF 0.8 inserts of 2^26 keys by wixbench (writes an outcome
# byte per key) and by `wixlib bench` (device-resident inserts without outcomes), interleaved.
set -u
cd "$(dirname "$0")/../../.."
W=build/native/native/bench
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
jre=/tmp/wixlib-jre; mkdir -p $jre && tar -C $jre --strip-components=1 -xzf .carry/jre.tgz
export WIXLIB_JAVA_HOME=$jre JDK_JAVA_OPTIONS="-Dwixlib.library.path=$PWD/build/native/libwixlib.so" WIXLIB_JAR=$PWD/.carry/cli/wixlib-cli.jar
export WIXLIB_JAVA_OPTS="-Xmx16g"
for round in 1 2; do
  echo "== wixbench round $round" >>$OUT/h.txt
  $W/wixbench --kind hive --bench static --lf 0.8 --reps 5 2>&1 | grep -E "^static.*insert" >>$OUT/h.txt
  echo "== wixlib bench round $round" >>$OUT/h.txt
  timeout 120 bin/wixlib bench --kind hive --keys 2^26 --reps 5 2>/dev/null | grep -E "insert" >>$OUT/h.txt
done
cat $OUT/h.txt
