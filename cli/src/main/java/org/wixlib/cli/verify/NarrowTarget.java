package org.wixlib.cli.verify;

import java.util.stream.IntStream;
import org.wixlib.HashTable;
import org.wixlib.LongPairs;
import org.wixlib.Pairs;

/**
 * A 32-bit table as a {@link VerifyTarget}: keys and values narrowed to ints on the way in (the checker
 * only hands it sign-extended ints) and sign-extended on the way out, large arrays in parallel slices
 * (common pool: plain copies, the same on any thread count). The int arrays of batches and of reads are
 * kept apart for the next call of the same length (a run's batches mostly have one size).
 */
final class NarrowTarget implements VerifyTarget {
  private final HashTable t;
  private int[] batchKeys = new int[0];
  private int[] batchValues = new int[0];
  private int[] readKeys = new int[0];
  private int[] readValues = new int[0];

  NarrowTarget(HashTable t) {
    this.t = t;
  }

  @Override
  public int keyBits() {
    return 32;
  }

  @Override
  public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
    batchKeys = narrow(keys, batchKeys);
    batchValues = narrow(values, batchValues);
    t.batch(ops, batchKeys, batchValues, outcomes);
    widen(batchValues, values);
  }

  @Override
  public void contains(long[] keys, byte[] found) {
    readKeys = narrow(keys, readKeys);
    t.contains(readKeys, found);
  }

  @Override
  public void find(long[] keys, long[] valuesOut, long notFound) {
    readKeys = narrow(keys, readKeys);
    readValues = readValues.length == keys.length ? readValues : new int[keys.length];
    t.find(readKeys, readValues, (int) notFound);
    widen(readValues, valuesOut);
  }

  @Override
  public long size() {
    return t.size();
  }

  @Override
  public LongPairs retrieveAll() {
    Pairs p = t.retrieveAll();
    long[] k = new long[p.size()];
    long[] v = new long[p.size()];
    widen(p.keys(), k);
    widen(p.values(), v);
    return new LongPairs(k, v);
  }

  @Override
  public void resize(long capacity) {
    t.resize(capacity);
  }

  @Override
  public void clear() {
    t.clear();
  }

  /** The ints of a, in have when it has a's length, else in a new array. */
  private static int[] narrow(long[] a, int[] have) {
    int[] out = have.length == a.length ? have : new int[a.length];
    slices(a.length, (from, to) -> {
      for (int i = from; i < to; i++) {
        out[i] = (int) a[i];
      }
    });
    return out;
  }

  private static void widen(int[] from, long[] to) {
    slices(from.length, (a, b) -> {
      for (int i = a; i < b; i++) {
        to[i] = from[i];
      }
    });
  }

  /** Arrays shorter than this are copied in the caller's thread. */
  private static final int PARALLEL = 1 << 16;

  /** Runs copy over [0, n): in 64 slices in parallel when n is large. */
  private static void slices(int n, Copy copy) {
    if (n < PARALLEL) {
      copy.run(0, n);
      return;
    }
    int k = 64;
    IntStream.range(0, k).parallel().forEach(s -> copy.run((int) ((long) n * s / k), (int) ((long) n * (s + 1) / k)));
  }

  @FunctionalInterface
  private interface Copy {
    void run(int from, int to);
  }
}
