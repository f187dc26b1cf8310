package org.wixlib;

/** An action on one key and its value of a 64-bit table ({@link HashTable#forEachLong}). */
@FunctionalInterface
public interface LongLongConsumer {
  void accept(long key, long value);
}
