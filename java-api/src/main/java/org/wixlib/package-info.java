/**
 * wixlib: GPU hash tables (GLHT, Hive) and a concurrent CPU hopscotch table for Java.
 *
 * <p>Start with {@link org.wixlib.HashTable#builder()}; {@link org.wixlib.Wixlib#info()} tells what
 * this machine can use. Status codes of the native library become {@link org.wixlib.WixlibException}
 * subclasses; per-element results are {@link org.wixlib.Outcome} bytes. Needs Java 22+ and
 * {@code --enable-native-access=ALL-UNNAMED}.
 */
package org.wixlib;
