package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The width of a table's or a join's keys (and a table's values): what differs between 32-bit tables
 * ({@code int[]}) and 64-bit tables ({@code long[]}), so that one code path serves both.
 */
enum KeyWidth {
  W32(32, "int[]", "0xFFFFFFFF and 0xFFFFFFFE"),
  W64(64, "long[]", "0xFFFFFFFFFFFFFFFF and 0xFFFFFFFFFFFFFFFE");

  final int bits;
  /** Bytes per key (and per value). */
  final int bytes;
  /** The Java array of this width's keys. */
  final String array;
  /** The reserved keys, as text. */
  final String reserved;

  KeyWidth(int bits, String array, String reserved) {
    this.bits = bits;
    this.bytes = bits / 8;
    this.array = array;
    this.reserved = reserved;
  }

  static KeyWidth of(int bits) {
    return bits == 64 ? W64 : W32;
  }

  /**
   * The length of an {@code int[]} / {@code long[]} argument (name), which must be this width's
   * array (else InvalidArgumentException naming the owner's width, e.g. "this table has 64-bit keys").
   */
  int length(Object array, String name, String owner) {
    Objects.requireNonNull(array, name);
    int length = switch (array) {
      case int[] a -> a.length;
      case long[] a -> a.length;
      default -> throw new IllegalArgumentException(name + " is not an int[] or long[]: " + array.getClass());
    };
    require(array instanceof long[] ? W64 : W32, owner);
    return length;
  }

  /**
   * Throws InvalidArgumentException unless a call made for {@code asked} keys (its arrays, or its
   * int/long overload) fits this width; owner: "table" or "join".
   */
  void require(KeyWidth asked, String owner) {
    if (asked != this) {
      throw new InvalidArgumentException("this " + owner + " has " + bits + "-bit keys: use the " + array
          + " (" + array.replace("[]", "") + ") calls, not the " + asked.array + " ones");
    }
  }

  /** An int[] or long[] as a heap segment. */
  static MemorySegment heap(Object array) {
    return switch (array) {
      case int[] d -> MemorySegment.ofArray(d);
      case long[] d -> MemorySegment.ofArray(d);
      default -> throw new IllegalArgumentException("not an int[] or long[]: " + array.getClass());
    };
  }

  /** Whether key (raw bits; a 32-bit width looks at the low 32) is reserved. */
  boolean isReserved(long key) {
    return this == W64 ? key == HashTable.EMPTY_KEY64 || key == HashTable.TOMBSTONE_KEY64
        : (int) key == HashTable.EMPTY_KEY || (int) key == HashTable.TOMBSTONE_KEY;
  }

  /** The index of the first reserved key among n keys (any alignment), or -1. */
  long firstReserved(MemorySegment keys, long n) {
    for (long i = 0; i < n; i++) {
      long key = this == W64 ? keys.getAtIndex(LONG_UNALIGNED, i) : keys.getAtIndex(INT_UNALIGNED, i);
      if (isReserved(key)) {
        return i;
      }
    }
    return -1;
  }

  private static final java.lang.foreign.ValueLayout.OfInt INT_UNALIGNED = JAVA_INT.withByteAlignment(1);
  private static final java.lang.foreign.ValueLayout.OfLong LONG_UNALIGNED = JAVA_LONG.withByteAlignment(1);
}
