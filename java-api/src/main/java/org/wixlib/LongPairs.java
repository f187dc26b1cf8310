package org.wixlib;

/** Key/value pairs of a 64-bit table, as returned by {@link HashTable#retrieveAllLong()}; keys[i] maps to values[i]. */
public record LongPairs(long[] keys, long[] values) {
  /** Number of pairs. */
  public int size() {
    return keys.length;
  }
}
