#!/usr/bin/env bash
# Device run G (s16): the final tree end to end through Java — `wixlib bench --kind hive` at 2^26 keys,
# load factors 0.8 and 0.95, with the [20,20,60] mix (kernel_mops = device-resident kernel time).
set -u
cd "$(dirname "$0")/../../.."
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
jre=/tmp/wixlib-jre; mkdir -p $jre && tar -C $jre --strip-components=1 -xzf .carry/jre.tgz
export WIXLIB_JAVA_HOME=$jre JDK_JAVA_OPTIONS="-Dwixlib.library.path=$PWD/build/native/libwixlib.so" WIXLIB_JAR=$PWD/.carry/cli/wixlib-cli.jar
export WIXLIB_JAVA_OPTS="-Xmx16g"
for lf in 0.8 0.95; do
  timeout 200 bin/wixlib bench --kind hive --keys 2^26 --load-factor $lf --reps 5 --mix 20,20,60 \
    >$OUT/wixlib-bench-hive-lf$lf.txt 2>$OUT/wixlib-bench-hive-lf$lf.err
  echo "rc=$? lf=$lf" >>$OUT/rc.txt
done
cat $OUT/rc.txt $OUT/wixlib-bench-hive-lf*.txt
