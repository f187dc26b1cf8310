#!/usr/bin/env bash
# Device run E (s14): the GLHT paper's static and dynamic suites through Java on the landed library
# (GLHT, Hive and the CPU table on the machine's 16 cores, which runs up to 2^24 keys / ops here).
set -u
cd "$(dirname "$0")/../../.."
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
jre=/tmp/wixlib-jre; rm -rf $jre; mkdir -p $jre && tar -C $jre --strip-components=1 -xzf .carry/jre.tgz
export WIXLIB_JAVA_HOME=$jre JDK_JAVA_OPTIONS="-Dwixlib.library.path=$PWD/build/native/libwixlib.so" WIXLIB_JAR=$PWD/.carry/cli/wixlib-cli.jar
timeout 200 bin/wixlib bench --suite static,dynamic --kind glht,hive,cpu --max-cpu-keys 2^24 --out $OUT/suite \
  >$OUT/java-suite.txt 2>$OUT/java-suite-progress.txt
echo "rc=$?" >>$OUT/java-suite.txt
