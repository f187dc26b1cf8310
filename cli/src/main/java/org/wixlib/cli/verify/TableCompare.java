package org.wixlib.cli.verify;

import java.util.Arrays;
import org.wixlib.LongPairs;
import org.wixlib.cli.KeySpace64;

/** Whole-table comparisons of a verify run: retrieveAll() against the sharded oracle. */
final class TableCompare {
  private TableCompare() {}

  /** Null when pairs hold exactly the oracle's pairs, else the first difference found. */
  static Mismatch compare(Verifier v, LongPairs pairs, String phase) {
    if (matches(v, pairs)) {
      return null;
    }
    Mismatch m = diff(v, pairs, phase);
    return m != null ? m : v.mismatch(phase, 0, "retrieveAll differs from the oracle");
  }

  /** Checksum term of a present key, by its index. */
  static long keyHash(long idx) {
    return KeySpace64.mix(idx ^ 0x243F6A8885A308D3L);
  }

  /** Checksum term of a key (by index) holding a value. */
  static long pairHash(long idx, long value) {
    return KeySpace64.mix(KeySpace64.mix(idx) + value);
  }

  /**
   * Whether pairs equal the oracle, by checksums the oracle keeps as it changes (one pass over the
   * pairs, no lookups): the same count, every key in the run's key space, and the sums of
   * {@link #keyHash} and of {@link #pairHash} equal. A missing, foreign or duplicate key or a wrong
   * value changes a sum but for a chance of about 2^-64 (both are sums of a bijective 64-bit mix of
   * different inputs); {@link #diff} then names the key. The pairs are summed on fixed slices in
   * parallel.
   */
  static boolean matches(Verifier v, LongPairs pairs) {
    int n = pairs.size();
    if (n != v.oracleSize()) {
      return false;
    }
    long[] k = pairs.keys();
    long[] val = pairs.values();
    long[] keys = new long[Shards.COUNT];
    long[] sum = new long[Shards.COUNT];
    boolean[] bad = new boolean[Shards.COUNT];
    v.shards.slices(n, (slice, from, to) -> {
      long ka = 0;
      long pa = 0;
      for (int i = from; i < to; i++) {
        long idx = v.width.index(k[i]);
        if (idx < 0) {
          bad[slice] = true;
          return;
        }
        ka += keyHash(idx);
        pa += pairHash(idx, val[i]);
      }
      keys[slice] = ka;
      sum[slice] = pa;
    });
    long gotKeys = 0;
    long gotPairs = 0;
    long wantKeys = 0;
    long wantPairs = 0;
    for (int s = 0; s < Shards.COUNT; s++) {
      if (bad[s]) {
        return false;
      }
      gotKeys += keys[s];
      gotPairs += sum[s];
      wantKeys += v.shard[s].keySum();
      wantPairs += v.shard[s].pairSum();
    }
    return gotKeys == wantKeys && gotPairs == wantPairs;
  }

  /** The first difference between pairs and the oracle, or null when there is none. */
  static Mismatch diff(Verifier v, LongPairs pairs, String phase) {
    long[] sorted = pairs.keys().clone();
    Arrays.parallelSort(sorted);
    for (int i = 1; i < sorted.length; i++) {
      if (sorted[i] == sorted[i - 1]) {
        return v.mismatch(phase, sorted[i], "retrieveAll returns the key twice");
      }
    }
    for (int i = 0; i < pairs.size(); i++) {
      long key = pairs.keys()[i];
      long idx = v.width.index(key);
      long have = idx < 0 ? Shard.NONE : v.shard[Shards.owner(idx)].get(Shards.local(idx));
      if (have == Shard.NONE) {
        return v.mismatch(phase, key, "retrieveAll returns a key the oracle does not hold"
            + " (value " + pairs.values()[i] + ")");
      }
      if (have != pairs.values()[i]) {
        return v.mismatch(phase, key, "retrieveAll gives value " + pairs.values()[i] + ", the oracle " + have);
      }
    }
    if (pairs.size() != v.oracleSize()) {
      for (Shard sh : v.shard) {
        for (int l = 0; l < sh.owned(); l++) {
          long key = v.width.key(Shards.index(sh.index, l));
          if (sh.get(l) != Shard.NONE && Arrays.binarySearch(sorted, key) < 0) {
            return v.mismatch(phase, key, "the key (value " + sh.get(l) + ") is missing from retrieveAll");
          }
        }
      }
    }
    return null;
  }
}
