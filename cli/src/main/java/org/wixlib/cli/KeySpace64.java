package org.wixlib.cli;

import org.wixlib.HashTable;

/**
 * Distinct pseudo-random 64-bit keys by index, the 64-bit counterpart of {@link KeySpace}: key(i) is a
 * seeded bijection of the 64-bit index whose halves both vary. Indices 2j and 2j+1 give keys with the
 * same low 32 bits and different high 32 bits, so every key set of more than a few keys holds pairs
 * that only the high half tells apart (a table that drops or ignores it mixes them up). The reserved
 * keys (-1, -2) are never produced: an index that would map to one takes the key of a spare index at or
 * above the space's size instead (never handed out directly, so keys stay distinct).
 */
public final class KeySpace64 {
  private final long size;
  /** Seed-derived offsets of the bijection (package-private for tests). */
  final int a;
  final int b;
  final int c;
  private final long spareForEmpty;
  private final long spareForTombstone;

  /** Largest size: leaves room for the spare indices. */
  static final long MAX_SIZE = Long.MAX_VALUE - 8;

  /** A space of {@code size} distinct keys (at most {@link #MAX_SIZE}). */
  public KeySpace64(long seed, long size) {
    if (size < 0 || size > MAX_SIZE) {
      throw new IllegalArgumentException("key space size must be in [0, 2^63 - 9], got " + size);
    }
    this.size = size;
    long z = KeySpace.splitMix(seed ^ 0x6A09E667F3BCC909L);
    this.a = (int) z;
    this.b = (int) (z >>> 32);
    this.c = (int) KeySpace.splitMix(z);
    long spare = size;
    while (isReserved(raw(spare))) {
      spare++;
    }
    long first = raw(spare);
    spare++;
    while (isReserved(raw(spare))) {
      spare++;
    }
    this.spareForEmpty = first;
    this.spareForTombstone = raw(spare);
  }

  long size() {
    return size;
  }

  /** The key of index i, 0 <= i < size. */
  public long key(long i) {
    long k = raw(i);
    if (k == HashTable.EMPTY_KEY64) {
      return spareForEmpty;
    }
    if (k == HashTable.TOMBSTONE_KEY64) {
      return spareForTombstone;
    }
    return k;
  }

  /**
   * The index of key in this space (key(index) == key), or -1 when the space does not hand it out:
   * the bijection inverted, the spare keys mapped back to the indices they stand in for.
   */
  public long index(long key) {
    long i = rawIndex(key);
    if (i < 0 || i >= size) {
      if (key == spareForEmpty) {
        i = rawIndex(HashTable.EMPTY_KEY64);
      } else if (key == spareForTombstone) {
        i = rawIndex(HashTable.TOMBSTONE_KEY64);
      } else {
        return -1;
      }
    }
    return i >= 0 && i < size && key(i) == key ? i : -1;
  }

  /** The index whose raw key is k (the steps of {@link #raw} undone in reverse). */
  private long rawIndex(long k) {
    int lo = (int) k;
    int hi = (int) (k >>> 32);
    int yLo = KeySpace.unmix(lo) - a;
    int yHi = KeySpace.unmix(hi - c) ^ KeySpace.mix(lo + b);
    return Long.rotateLeft(((long) yHi << 32) | (yLo & 0xFFFFFFFFL), 1);
  }

  /** The library's reserved 64-bit keys (empty and tombstone slots), never a key of a table. */
  public static boolean isReserved(long key) {
    return key == HashTable.EMPTY_KEY64 || key == HashTable.TOMBSTONE_KEY64;
  }

  /**
   * The bijection before reserved keys are replaced: the index rotated right by one (its bit 0 becomes
   * the top bit, so 2j and 2j+1 share the low half), then a two-half Feistel step: low = mix(low + a),
   * high = mix(high ^ mix(low + b)) + c; each step is invertible.
   */
  long raw(long i) {
    long y = Long.rotateRight(i, 1);
    int lo = KeySpace.mix((int) y + a);
    int hi = KeySpace.mix((int) (y >>> 32) ^ KeySpace.mix(lo + b)) + c;
    return ((long) hi << 32) | (lo & 0xFFFFFFFFL);
  }

  /** A bijection of 64-bit words (splitmix64's finalizer), for seeded unique values. */
  public static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
