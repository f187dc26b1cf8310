package org.wixlib.cli.bench;

import java.util.SplittableRandom;
import org.wixlib.Op;
import org.wixlib.cli.KeySpace;

/**
 * The inputs of a benchmark, made once from the seed and shared by every kind: n distinct keys with their
 * values and n absent keys, as 32-bit keys or (keyBits 64) widened one to one to 64 bits, so both widths
 * run on the same key sets. Key k widens to {@code (k << 32) | (k * golden ratio, low 32 bits)}: the high half is
 * k itself, so keys stay distinct and never reach the reserved -1 / -2 (k is never -1 or -2); the low half
 * spreads every bit. 64-bit values keep bit 31 clear in their low half, so none equals the sign-extended
 * NOT_FOUND that finds of absent keys write.
 */
public final class BenchData {
  /** Value find writes for absent keys (sign-extended for 64-bit keys); present keys never get it. */
  static final int NOT_FOUND = 0x80000000;

  /** Width of keys and values: 32 or 64. */
  final int keyBits;
  /** n distinct keys to insert, find and erase (the 32-bit keys; the 64-bit ones are widened from them). */
  final int[] keys;
  /** Their values. */
  final int[] values;
  /** n distinct keys that are never inserted (disjoint from keys). */
  final int[] absent;
  final long[] keys64;
  final long[] values64;
  final long[] absent64;

  public BenchData(long seed, int n) {
    this(seed, n, 32);
  }

  public BenchData(long seed, int n, int keyBits) {
    this.keyBits = keyBits;
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
    boolean wide = keyBits == 64;
    keys64 = wide ? widen(keys) : null;
    absent64 = wide ? widen(absent) : null;
    values64 = wide ? new long[n] : null;
    for (int i = 0; wide && i < n; i++) {
      values64[i] = ((long) values[i] << 32) | (keys[i] & 0x7FFFFFFFL);
    }
  }

  int n() {
    return keys.length;
  }

  boolean wide() {
    return keyBits == 64;
  }

  static long[] widen(int[] k) {
    long[] out = new long[k.length];
    for (int i = 0; i < k.length; i++) {
      long u = k[i] & 0xFFFFFFFFL;
      out[i] = (u << 32) | ((u * 0x9E3779B1L) & 0xFFFFFFFFL);
    }
    return out;
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

    /** The batch placed in one path's memory: ops, keys, values (reset before each run) and outcomes. */
    final class Placed {
      final Object ops;
      final Object keys;
      final Object values;
      final Object outcomes;
      private final Placement mem;
      private final byte[] outcomesRead;

      Placed(Placement mem) {
        this.mem = mem;
        this.ops = mem.place(Mixed.this.ops);
        this.keys = mem.place(Mixed.this.keys);
        this.values = mem.place(Mixed.this.values);
        this.outcomes = mem.room(Placement.Elem.BYTE, Mixed.this.ops.length);
        this.outcomesRead = new byte[Mixed.this.ops.length];
      }

      /** The values as generated: a batch's finds overwrite them. */
      void reset() {
        mem.write(values, Mixed.this.values);
      }

      /** Every outcome must be one its op can produce. */
      void check(String who, String op) {
        mem.read(outcomes, outcomesRead);
        Checks.outcomes(who, Mixed.this.ops, Mixed.this.keys, outcomesRead, op);
      }
    }
  }

  /** The keys to insert, find and erase in this data's key width (int[] or long[]). */
  Object keyArray() {
    return wide() ? keys64 : keys;
  }

  /** Their values (int[] or long[]). */
  Object valueArray() {
    return wide() ? values64 : values;
  }

  /** The absent keys (int[] or long[]). */
  Object absentArray() {
    return wide() ? absent64 : absent;
  }

  /**
   * The data's keys, values and absent keys placed in one path's memory, with room for the finds'
   * values and the outcomes of inserts and erases: the arrays of the bulk calls ({@link BulkCalls}).
   */
  final class Placed {
    final Object keys;
    final Object values;
    final Object absent;
    final Object out;
    final Object outcomes;
    private final Placement mem;
    private final Object outRead = wide() ? new long[n()] : new int[n()];
    private final byte[] outcomesRead = new byte[n()];

    Placed(Placement mem) {
      this.mem = mem;
      keys = mem.place(keyArray());
      values = mem.place(valueArray());
      absent = mem.place(absentArray());
      out = mem.room(wide() ? Placement.Elem.LONG : Placement.Elem.INT, n());
      outcomes = mem.room(Placement.Elem.BYTE, n());
    }

    /** The last find's results must be the keys' values (present) or NOT_FOUND for every key (absent). */
    void checkFind(String who, boolean present, String op) {
      mem.read(out, outRead);
      if (outRead instanceof long[] got) {
        Checks.values(who, present ? keys64 : absent64, got, present ? values64 : null, op);
      } else if (present) {
        Checks.values(who, BenchData.this.keys, (int[]) outRead, BenchData.this.values, op);
      } else {
        Checks.absent(who, BenchData.this.absent, (int[]) outRead, op);
      }
    }

    /** The last insert's or erase's outcomes must all be {@code expected}. */
    void checkOutcomes(String who, byte expected, String op) {
      mem.read(outcomes, outcomesRead);
      Checks.allOutcomes(who, outcomesRead, expected, op);
    }
  }
}
