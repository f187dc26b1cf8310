package org.wixlib;

import java.util.Random;

/** Test data helpers. */
final class Oracle {
  private Oracle() {}

  /** A random non-reserved key drawn from [0, range) or the full int range when range <= 0. */
  static int key(Random rnd, int range) {
    while (true) {
      int k = range > 0 ? rnd.nextInt(range) : rnd.nextInt();
      if (k != HashTable.EMPTY_KEY && k != HashTable.TOMBSTONE_KEY) {
        return k;
      }
    }
  }

  static int[] keys(Random rnd, int n, int range) {
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = key(rnd, range);
    }
    return out;
  }

  static int[] values(Random rnd, int n) {
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = rnd.nextInt();
    }
    return out;
  }
}
