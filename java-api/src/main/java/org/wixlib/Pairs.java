package org.wixlib;

/** Key/value pairs of a table, as returned by {@link HashTable#retrieveAll()}; keys[i] maps to values[i]. */
public record Pairs(int[] keys, int[] values) {
  /** Number of pairs. */
  public int size() {
    return keys.length;
  }
}
