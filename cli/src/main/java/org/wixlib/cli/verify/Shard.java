package org.wixlib.cli.verify;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * One shard of a verify run: the oracle of the keys it owns (an array by key index: no hashing, and a
 * shard's part is small enough to stay in cache while the shard works), its random stream, the key
 * indices it draws distinct keys from, and its work arrays, reused from batch to batch.
 */
final class Shard {
  /** The oracle's value of an absent key (no run generates it). */
  static final long NONE = KeyWidth.NO_VALUE;

  final int index;
  /** Value of each owned key by local index ({@link Shards#local}), NONE when absent. */
  private final long[] value;
  private int size;
  /** The whole-table checksums of the keys present: see {@link TableCompare}. */
  private long keySum;
  private long pairSum;
  final SplittableRandom rnd;
  /** Local indices of the owned keys; a distinct-key batch takes a partial Fisher-Yates of them. */
  final int[] pool;
  /** Counter of this shard's unique values. */
  long valueCounter;
  /** Mismatches of the current step. */
  final Findings findings = new Findings();
  final PerKeyCheck.Scratch scratch = new PerKeyCheck.Scratch();

  // ---- per-key batches: the elements this shard drew, by owner, and the keys it owns --------------
  /**
   * bucket[c][0..bucketSize[c]): the elements this shard drew whose key shard c owns, as (position << 32)
   * | key's local index (or hot slot).
   */
  final long[][] bucket = new long[Shards.COUNT][16];
  final int[] bucketSize = new int[Shards.COUNT];
  /** Where shard g's bucket for this shard starts in its list of elements. */
  final int[] bucketStart = new int[Shards.COUNT];
  /** Rank 0 hits of a Zipf batch. */
  int hottest;
  /** Keys owned in the current batch (slot order): key, local index, first position, states. */
  int keys;
  long[] key = new long[16];
  int[] local = new int[16];
  int[] firstPos = new int[16];
  byte[] prePresent = new byte[16];
  long[] preValue = new long[16];
  byte[] nowPresent = new byte[16];
  long[] nowValue = new long[16];
  /** 1 where a key failed its check in this batch. */
  byte[] failed = new byte[16];
  /**
   * The elements hitting them, gathered from every shard's bucket: element j is batch position elem[j],
   * hits key slot[j], and after the batch its op, outcome and values in and out are copied here
   * (eOps..eOut), so the per-key checks read this shard's arrays only.
   */
  int elems;
  int[] elem = new int[16];
  int[] slot = new int[16];
  byte[] eOps = new byte[16];
  byte[] eOutcomes = new byte[16];
  long[] eIn = new long[16];
  long[] eOut = new long[16];
  /** Zipf batches: the slot of each local index in the batch, -1 when none (reset after gathering). */
  int[] slotOfLocal;
  /** Offset of this shard's keys in the batch's list of touched keys. */
  int keyOffset;

  /** Shard index of a run over keyRange keys. */
  Shard(int index, long keyRange, SplittableRandom rnd) {
    this.index = index;
    this.rnd = rnd;
    int n = Shards.owned(keyRange, index);
    this.value = new long[n];
    Arrays.fill(value, NONE);
    this.pool = new int[n];
    for (int l = 0; l < n; l++) {
      pool[l] = l;
    }
  }

  /** Keys this shard owns. */
  int owned() {
    return value.length;
  }

  /** The oracle's value of local key l, or {@link #NONE} when absent. */
  long get(int l) {
    return value[l];
  }

  void put(int l, long v) {
    if (v == NONE) {
      throw new IllegalStateException("the oracle cannot hold the value reserved for absent keys");
    }
    long idx = Shards.index(index, l);
    if (value[l] == NONE) {
      size++;
      keySum += TableCompare.keyHash(idx);
    } else {
      pairSum -= TableCompare.pairHash(idx, value[l]);
    }
    pairSum += TableCompare.pairHash(idx, v);
    value[l] = v;
  }

  void remove(int l) {
    if (value[l] != NONE) {
      long idx = Shards.index(index, l);
      size--;
      keySum -= TableCompare.keyHash(idx);
      pairSum -= TableCompare.pairHash(idx, value[l]);
      value[l] = NONE;
    }
  }

  /** Sets the oracle's state of local key l. */
  void set(int l, boolean present, long v) {
    if (present) {
      put(l, v);
    } else {
      remove(l);
    }
  }

  void clear() {
    Arrays.fill(value, NONE);
    size = 0;
    keySum = 0;
    pairSum = 0;
  }

  int size() {
    return size;
  }

  long keySum() {
    return keySum;
  }

  long pairSum() {
    return pairSum;
  }

  /** Appends position i, whose key has local index (or hot slot) id, to bucket c. */
  void drop(int c, int i, int id) {
    int n = bucketSize[c];
    if (n == bucket[c].length) {
      bucket[c] = Arrays.copyOf(bucket[c], 2 * n);
    }
    bucket[c][n] = ((long) i << 32) | (id & 0xFFFFFFFFL);
    bucketSize[c] = n + 1;
  }

  /** Room for h keys and n elements. */
  void reserve(int h, int n) {
    if (key.length < h) {
      int c = Math.max(h, 2 * key.length);
      key = Arrays.copyOf(key, c);
      local = Arrays.copyOf(local, c);
      firstPos = Arrays.copyOf(firstPos, c);
      prePresent = Arrays.copyOf(prePresent, c);
      preValue = Arrays.copyOf(preValue, c);
      nowPresent = Arrays.copyOf(nowPresent, c);
      nowValue = Arrays.copyOf(nowValue, c);
      failed = Arrays.copyOf(failed, c);
    }
    if (elem.length < n) {
      int c = Math.max(n, 2 * elem.length);
      elem = Arrays.copyOf(elem, c);
      slot = Arrays.copyOf(slot, c);
      eOps = new byte[c];
      eOutcomes = new byte[c];
      eIn = new long[c];
      eOut = new long[c];
    }
  }
}
