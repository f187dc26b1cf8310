package org.wixlib.cli.bench;

import java.util.SplittableRandom;
import org.wixlib.Op;
import org.wixlib.cli.KeySpace;

/** The inputs of a benchmark, made once from the seed and shared by every kind. */
public final class BenchData {
  /** Value find writes for absent keys; present keys never get it in the checks below. */
  static final int NOT_FOUND = 0x80000000;

  /** n distinct keys to insert, find and erase. */
  final int[] keys;
  /** Their values. */
  final int[] values;
  /** n distinct keys that are never inserted (disjoint from keys). */
  final int[] absent;

  public BenchData(long seed, int n) {
    KeySpace space = new KeySpace(seed, 2L * n);
    keys = new int[n];
    absent = new int[n];
    space.fill(keys, 0);
    space.fill(absent, n);
    values = new int[n];
    SplittableRandom rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
    for (int i = 0; i < n; i++) {
      int v = rnd.nextInt();
      values[i] = v == NOT_FOUND ? 0 : v;
    }
  }

  /** A mixed batch: ops drawn by the mix's percentages on keys drawn uniformly from a key range. */
  static final class Mixed {
    final Mix mix;
    final long keyRange;
    final byte[] ops;
    final int[] keys;
    final int[] values;
    /** Keys present before the batch: the first half of the key range. */
    final int[] prefill;
    /** Upper bound of distinct keys present during the batch (the table is sized for it). */
    final long maxKeys;

    Mixed(long seed, Mix mix, int n, long keyRange) {
      this.mix = mix;
      this.keyRange = keyRange;
      KeySpace space = new KeySpace(seed * 31 + 7, keyRange);
      SplittableRandom rnd = new SplittableRandom(seed ^ mix.hashCode());
      ops = new byte[n];
      keys = new int[n];
      values = new int[n];
      long inserts = 0;
      for (int i = 0; i < n; i++) {
        int p = rnd.nextInt(100);
        ops[i] = p < mix.insert() ? Op.INSERT : p < mix.insert() + mix.erase() ? Op.ERASE : Op.FIND;
        inserts += ops[i] == Op.INSERT ? 1 : 0;
        keys[i] = space.key(rnd.nextLong(keyRange));
        values[i] = rnd.nextInt();
      }
      prefill = new int[(int) Math.min(keyRange / 2, Integer.MAX_VALUE - 8)];
      space.fill(prefill, 0);
      maxKeys = Math.min(keyRange, prefill.length + inserts);
    }
  }
}
