package org.wixlib;

/** An action on one key and its value of a 32-bit table ({@link HashTable#forEach}). */
@FunctionalInterface
public interface IntIntConsumer {
  void accept(int key, int value);
}
