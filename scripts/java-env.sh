# Sourced by the scripts: points JAVA_HOME at a JDK 22+ (FFM is final from 22 on).
# Order: $JAVA_HOME if it is 22+, then Temurin 25 where Debian's package puts it, then any JDK under
# /usr/lib/jvm that is 22+.
java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/ *java.specification.version = //p'; }
wixlib_find_jdk() {
  local c
  for c in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*; do
    [ -n "$c" ] && [ -x "$c/bin/javac" ] || continue
    local v; v=$(java_major "$c")
    if [ -n "$v" ] && [ "${v%%.*}" -ge 22 ] 2>/dev/null; then echo "$c"; return 0; fi
  done
  return 1
}
if ! JAVA_HOME=$(wixlib_find_jdk); then
  echo "wixlib: no JDK 22 or newer found (set JAVA_HOME; Temurin 25 is what we build with)" >&2
  exit 3
fi
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
