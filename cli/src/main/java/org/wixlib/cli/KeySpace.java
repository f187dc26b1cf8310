package org.wixlib.cli;

import org.wixlib.HashTable;

/**
 * Distinct pseudo-random 32-bit keys by index, without storing them: key(i) is a seeded bijection of
 * the 32-bit index, so different indices always give different keys. The two reserved keys (-1, -2)
 * are never produced: an index that would map to one takes the key of a spare index at or above the
 * space's size instead (those are never handed out directly, so keys stay distinct).
 */
public final class KeySpace {
  private final long size;
  /** Seed-derived offsets of the bijection (package-private for tests). */
  final int s1;
  final int s2;
  private final int spareForEmpty;
  private final int spareForTombstone;

  /** Largest size: leaves room for the spare indices within 32 bits. */
  static final long MAX_SIZE = (1L << 32) - 8;

  /** A space of {@code size} distinct keys (at most {@link #MAX_SIZE}). */
  public KeySpace(long seed, long size) {
    if (size < 0 || size > MAX_SIZE) {
      throw new IllegalArgumentException("key space size must be in [0, 2^32 - 8], got " + size);
    }
    this.size = size;
    long z = seed;
    this.s1 = (int) splitMix(z);
    this.s2 = (int) splitMix(z + 0x9E3779B97F4A7C15L);
    long spare = size;
    while (isReserved(raw(spare))) {
      spare++;
    }
    int a = raw(spare);
    spare++;
    while (isReserved(raw(spare))) {
      spare++;
    }
    this.spareForEmpty = a;
    this.spareForTombstone = raw(spare);
  }

  long size() {
    return size;
  }

  /** The key of index i, {@code 0 <= i < size}. */
  public int key(long i) {
    int k = raw(i);
    if (k == HashTable.EMPTY_KEY) {
      return spareForEmpty;
    }
    if (k == HashTable.TOMBSTONE_KEY) {
      return spareForTombstone;
    }
    return k;
  }

  /**
   * The index of key in this space (key(index) == key), or -1 when the space does not hand it out:
   * the bijection inverted, the spare keys mapped back to the indices they stand in for.
   */
  public long index(int key) {
    long i = rawIndex(key);
    if (i >= size) {
      if (key == spareForEmpty) {
        i = rawIndex(HashTable.EMPTY_KEY);
      } else if (key == spareForTombstone) {
        i = rawIndex(HashTable.TOMBSTONE_KEY);
      } else {
        return -1;
      }
    }
    return i < size && key(i) == key ? i : -1;
  }

  /** The index whose raw key is k. */
  private long rawIndex(int k) {
    return Integer.toUnsignedLong(unmix(unmix(k) ^ s2) - s1);
  }

  /** Fills out[j] = key(from + j). */
  public void fill(int[] out, long from) {
    for (int j = 0; j < out.length; j++) {
      out[j] = key(from + j);
    }
  }

  /** The library's reserved keys (empty and tombstone slots), never a key of a table. */
  public static boolean isReserved(int key) {
    return key == HashTable.EMPTY_KEY || key == HashTable.TOMBSTONE_KEY;
  }

  /** The bijection before reserved keys are replaced. */
  int raw(long i) {
    return mix(mix((int) i + s1) ^ s2);
  }

  /** A bijection of 32-bit ints (xorshift-multiply; each step is invertible). */
  public static int mix(int x) {
    x ^= x >>> 16;
    x *= 0x7feb352d;
    x ^= x >>> 15;
    x *= 0x846ca68b;
    x ^= x >>> 16;
    return x;
  }

  private static final int INV_1 = inverse(0x7feb352d);
  private static final int INV_2 = inverse(0x846ca68b);

  /** The inverse of {@link #mix}. */
  public static int unmix(int x) {
    x ^= x >>> 16;
    x *= INV_2;
    x ^= x >>> 15 ^ x >>> 30;
    x *= INV_1;
    x ^= x >>> 16;
    return x;
  }

  /** The multiplicative inverse of an odd int modulo 2^32 (Newton's iteration). */
  private static int inverse(int a) {
    int inv = a;
    for (int i = 0; i < 5; i++) {
      inv *= 2 - a * inv;
    }
    return inv;
  }

  static long splitMix(long z) {
    z += 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
