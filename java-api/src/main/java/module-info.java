/**
 * wixlib: GPU hash tables (GLHT, Hive) and a concurrent CPU hopscotch table for Java 22+ (FFM API).
 * Only {@code org.wixlib} is exported; the loader, the native calls and the generated bindings stay
 * inside. Grant native access to this module: {@code --enable-native-access=org.wixlib} on the
 * module path ({@code ALL-UNNAMED} on the class path).
 */
module org.wixlib {
  exports org.wixlib;
}
