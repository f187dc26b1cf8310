package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * 64-bit keys and values (keyBits(64)): long[] overloads, width checks, reserved keys; the round trip
 * and the batch run on every kind (GPU kinds skip visibly without a device).
 */
class WideKeysTest {
  static final long NOT_FOUND = 0x5EA1F00D_CAFEBABEL;

  static HashTable wide(long capacity) {
    return wide(TableKind.CPU, capacity);
  }

  static HashTable wide(TableKind kind, long capacity) {
    if (kind.isGpu()) {
      GpuAssumptions.requireOrSkip(kind);
    }
    return HashTable.builder().kind(kind).keyBits(64).capacity(capacity).build();
  }

  /** Distinct keys, many above 2^32 and negative as Java longs, none reserved. */
  static long[] distinctKeys(Random rnd, int n, long range) {
    Set<Long> seen = new HashSet<>();
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      long k;
      do {
        long r = Math.floorMod(rnd.nextLong(), range);
        k = rnd.nextBoolean() ? r : (r * 0x9E3779B97F4A7C15L) | (1L << 40); // spread over all 64 bits
      } while (k == HashTable.EMPTY_KEY64 || k == HashTable.TOMBSTONE_KEY64 || !seen.add(k));
      keys[i] = k;
    }
    return keys;
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void roundTripAgainstHashMap(TableKind kind) {
    Random rnd = new Random(64);
    Map<Long, Long> oracle = new HashMap<>();
    try (HashTable t = wide(kind, 64)) {
      assertEquals(64, t.keyBits());
      long cap0 = t.capacity();
      for (int round = 0; round < 30; round++) {
        int n = 2000 + rnd.nextInt(3000);
        long[] keys = distinctKeys(rnd, n, 50_000);
        long[] vals = rnd.longs(n).toArray();
        byte[] out = new byte[n];
        switch (round < 5 ? 0 : rnd.nextInt(5)) {
          case 0 -> {
            t.insert(keys, vals, out);
            for (int i = 0; i < n; i++) {
              assertEquals(oracle.containsKey(keys[i]) ? Outcome.PRESENT : Outcome.INSERTED, out[i]);
              oracle.putIfAbsent(keys[i], vals[i]);
            }
          }
          case 1 -> {
            t.insertOrAssign(keys, vals, out);
            for (int i = 0; i < n; i++) {
              assertEquals(oracle.containsKey(keys[i]) ? Outcome.ASSIGNED : Outcome.INSERTED, out[i]);
              oracle.put(keys[i], vals[i]);
            }
          }
          case 2 -> {
            long[] got = t.find(keys, NOT_FOUND);
            for (int i = 0; i < n; i++) {
              assertEquals(oracle.getOrDefault(keys[i], NOT_FOUND), got[i], "find of key " + keys[i]);
            }
          }
          case 3 -> {
            boolean[] has = t.contains(keys);
            for (int i = 0; i < n; i++) {
              assertEquals(oracle.containsKey(keys[i]), has[i]);
            }
          }
          default -> {
            t.erase(keys, out);
            for (int i = 0; i < n; i++) {
              assertEquals(oracle.remove(keys[i]) != null ? Outcome.ERASED : Outcome.NOT_FOUND, out[i]);
            }
          }
        }
        assertEquals(oracle.size(), t.size());
      }
      assertTrue(t.capacity() > cap0, "the table must have grown");
      LongPairs all = t.retrieveAllLong();
      assertEquals(oracle.size(), all.size());
      for (int i = 0; i < all.size(); i++) {
        assertEquals(oracle.get(all.keys()[i]), all.values()[i], "pair of key " + all.keys()[i]);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void batchAndFullWidthValues(TableKind kind) {
    try (HashTable t = wide(kind, 100)) {
      long big = 0xFFFF_FFFF_0000_0001L; // high half all ones: an ordinary key (only -1L, -2L are reserved)
      long[] keys = {big, 0xFFFFFFFFL, 0xFFFFFFFEL, 1L << 33};
      long[] vals = {Long.MIN_VALUE, -3L, 0x1_0000_0000L, 7L};
      t.insert(keys, vals);
      assertArrayEquals(vals, t.find(keys, NOT_FOUND));
      long[] miss = t.find(new long[] {5L, 6L << 40}, NOT_FOUND);
      assertArrayEquals(new long[] {NOT_FOUND, NOT_FOUND}, miss);
      byte[] ops = {Op.FIND, Op.INSERT_OR_ASSIGN, Op.ERASE, Op.INSERT};
      long[] bk = {big, 1L << 33, 0xFFFFFFFFL, 9L << 50};
      long[] bv = {0, -9L, 0, 11L << 40};
      byte[] out = new byte[4];
      t.batch(ops, bk, bv, out);
      assertArrayEquals(new byte[] {Outcome.FOUND, Outcome.ASSIGNED, Outcome.ERASED, Outcome.INSERTED}, out);
      assertEquals(Long.MIN_VALUE, bv[0]);
      assertArrayEquals(new long[] {Long.MIN_VALUE, -9L, NOT_FOUND, 0x1_0000_0000L, 11L << 40},
          t.find(new long[] {big, 1L << 33, 0xFFFFFFFFL, 0xFFFFFFFEL, 9L << 50}, NOT_FOUND));
      t.insert(new long[] {42L}, null);
      assertArrayEquals(new long[] {0L}, t.find(new long[] {42L}, NOT_FOUND));
    }
  }

  @Test
  void reservedKeysAreRefusedAndTheOthersApplied() {
    try (HashTable t = wide(100)) {
      for (long bad : new long[] {-1L, -2L}) {
        long[] keys = {10L, bad, 12L};
        InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> t.insert(keys, new long[3]));
        assertEquals(1, e.index());
        assertEquals(2, t.size(), "the other keys inserted");
        assertEquals(1, assertThrows(InvalidKeyException.class, () -> t.erase(keys)).index());
        assertEquals(0, t.size(), "the other keys erased");
        assertThrows(InvalidKeyException.class, () -> t.batch(new byte[3], keys, new long[3], null));
        t.erase(new long[] {10L, 12L});
      }
      // The 32-bit reserved patterns are ordinary keys on a 64-bit table.
      t.insert(new long[] {0xFFFFFFFFL, 0xFFFFFFFEL}, new long[] {1, 2});
      assertEquals(2, t.size());
    }
  }

  @Test
  void reservedKeyInSegmentReportsIndex() {
    try (HashTable t = wide(100); Arena a = Arena.ofConfined()) {
      MemorySegment k = a.allocate(ValueLayout.JAVA_LONG, 3);
      k.setAtIndex(ValueLayout.JAVA_LONG, 0, 5L);
      k.setAtIndex(ValueLayout.JAVA_LONG, 1, 6L << 36);
      k.setAtIndex(ValueLayout.JAVA_LONG, 2, -2L);
      MemorySegment v = a.allocate(ValueLayout.JAVA_LONG, 3);
      InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> t.insert(k, v, 3, null));
      assertEquals(2, e.index());
      assertEquals(2, t.size(), "the other elements were applied");
      MemorySegment got = a.allocate(ValueLayout.JAVA_LONG, 2);
      t.find(k, got, 2, NOT_FOUND);
      assertEquals(0L, got.getAtIndex(ValueLayout.JAVA_LONG, 0));
      // A segment sized for 32-bit elements is too small for a 64-bit table.
      assertThrows(InvalidArgumentException.class, () -> t.find(k, a.allocate(8), 2, NOT_FOUND));
    }
  }

  @Test
  void widthMismatchThrows() {
    try (HashTable w = wide(100); HashTable n = HashTable.builder().kind(TableKind.CPU).build()) {
      assertEquals(32, n.keyBits());
      int[] ik = {1};
      long[] lk = {1L};
      Executable[] intOnWide = {
        () -> w.insert(ik, new int[1]), () -> w.insertOrAssign(ik, new int[1]), () -> w.find(ik, 0),
        () -> w.contains(ik), () -> w.erase(ik), () -> w.batch(new byte[1], ik, new int[1], null),
        w::retrieveAll,
      };
      for (Executable c : intOnWide) {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class, c);
        assertTrue(e.getMessage().contains("64-bit") && e.getMessage().contains("long[]"), e.getMessage());
      }
      Executable[] longOnNarrow = {
        () -> n.insert(lk, new long[1]), () -> n.insertOrAssign(lk, new long[1]), () -> n.find(lk, 0L),
        () -> n.contains(lk), () -> n.erase(lk), () -> n.batch(new byte[1], lk, new long[1], null),
        n::retrieveAllLong,
      };
      for (Executable c : longOnNarrow) {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class, c);
        assertTrue(e.getMessage().contains("32-bit") && e.getMessage().contains("int[]"), e.getMessage());
      }
      assertEquals(0, w.size());
      assertEquals(0, n.size());
      assertThrows(InvalidArgumentException.class, () -> HashTable.builder().keyBits(16));
    }
  }

}
