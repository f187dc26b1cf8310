package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The Map-shaped one-key calls against java.util.HashMap, on every kind (GPU kinds skip without a GPU). */
class MapCallsTest {

  static HashTable table(TableKind kind, int keyBits) {
    if (kind.isGpu()) {
      GpuAssumptions.requireOrSkip(kind);
    }
    return HashTable.builder().kind(kind).keyBits(keyBits).capacity(64).build();
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void intCallsFollowHashMap(TableKind kind) {
    Random rnd = new Random(17);
    Map<Integer, Integer> oracle = new HashMap<>();
    try (HashTable t = table(kind, 32)) {
      assertTrue(t.isEmpty());
      for (int i = 0; i < 3_000; i++) {
        int key = Oracle.key(rnd, 300);
        int value = rnd.nextInt();
        switch (rnd.nextInt(6)) {
          case 0 -> assertEquals(opt(oracle.put(key, value)), t.put(key, value), "put " + key);
          case 1 -> assertEquals(opt(oracle.putIfAbsent(key, value)), t.putIfAbsent(key, value), "putIfAbsent " + key);
          case 2 -> assertEquals(opt(oracle.remove(key)), t.remove(key), "remove " + key);
          case 3 -> assertEquals(opt(oracle.get(key)), t.get(key), "get " + key);
          case 4 -> assertEquals(oracle.getOrDefault(key, -7), t.getOrDefault(key, -7), "getOrDefault " + key);
          default -> assertEquals(oracle.containsKey(key), t.containsKey(key), "containsKey " + key);
        }
        assertEquals(oracle.size(), t.size());
      }
      assertEquals(oracle.isEmpty(), t.isEmpty());
      // Bulk and one-key calls see the same table.
      int[] keys = oracle.keySet().stream().mapToInt(Integer::intValue).toArray();
      int[] values = t.find(keys, 0);
      for (int i = 0; i < keys.length; i++) {
        assertEquals(oracle.get(keys[i]).intValue(), values[i]);
      }
      for (int k : keys) {
        t.remove(k);
      }
      assertTrue(t.isEmpty());
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void longCallsFollowHashMap(TableKind kind) {
    Random rnd = new Random(23);
    Map<Long, Long> oracle = new HashMap<>();
    try (HashTable t = table(kind, 64)) {
      for (int i = 0; i < 3_000; i++) {
        long key = (rnd.nextInt(300) - 150) * 0x1_0000_0001L; // both halves used, negatives too
        long value = rnd.nextLong();
        switch (rnd.nextInt(5)) {
          case 0 -> assertEquals(optL(oracle.put(key, value)), t.put(key, value), "put " + key);
          case 1 -> assertEquals(optL(oracle.putIfAbsent(key, value)), t.putIfAbsent(key, value));
          case 2 -> assertEquals(optL(oracle.remove(key)), t.remove(key), "remove " + key);
          case 3 -> assertEquals(optL(oracle.get(key)), t.get(key), "get " + key);
          default -> assertEquals(oracle.containsKey(key), t.containsKey(key), "containsKey " + key);
        }
      }
      assertEquals(oracle.size(), t.size());
      assertEquals(-9L, t.getOrDefault(0x7_0000_0000L, -9L));
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void reservedKeysAreAbsentForLookupsAndRejectedForPuts(TableKind kind) {
    try (HashTable t = table(kind, 32); HashTable w = table(kind, 64)) {
      for (int r : new int[] {HashTable.EMPTY_KEY, HashTable.TOMBSTONE_KEY}) {
        assertEquals(OptionalInt.empty(), t.get(r));
        assertFalse(t.containsKey(r));
        assertEquals(5, t.getOrDefault(r, 5));
        assertEquals(OptionalInt.empty(), t.remove(r));
        assertThrows(InvalidKeyException.class, () -> t.put(r, 1));
        assertThrows(InvalidKeyException.class, () -> t.putIfAbsent(r, 1));
      }
      for (long r : new long[] {HashTable.EMPTY_KEY64, HashTable.TOMBSTONE_KEY64}) {
        assertEquals(OptionalLong.empty(), w.get(r));
        assertFalse(w.containsKey(r));
        assertEquals(OptionalLong.empty(), w.remove(r));
        assertThrows(InvalidKeyException.class, () -> w.put(r, 1L));
      }
      // On 64-bit tables the 32-bit patterns are ordinary keys.
      assertEquals(OptionalLong.empty(), w.put(0xFFFFFFFFL, 3L));
      assertEquals(OptionalLong.of(3L), w.get(0xFFFFFFFFL));
      assertEquals(0, t.size());
      assertEquals(1, w.size());
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void wrongWidthAndClosedTable(TableKind kind) {
    HashTable t = table(kind, 32);
    try (HashTable w = table(kind, 64)) {
      assertThrows(InvalidArgumentException.class, () -> t.get(5L));
      assertThrows(InvalidArgumentException.class, () -> t.put(5L, 6L));
      InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> w.get(5));
      assertTrue(e.getMessage().contains("long"), e.getMessage());
      assertThrows(InvalidArgumentException.class, () -> w.containsKey(5));
    }
    t.close();
    assertThrows(IllegalStateException.class, () -> t.get(5));
    assertThrows(IllegalStateException.class, () -> t.put(5, 6));
    assertThrows(IllegalStateException.class, t::isEmpty);
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void putIntoAFullTableThatMayNotGrow(TableKind kind) {
    if (kind.isGpu()) {
      GpuAssumptions.requireOrSkip(kind);
    }
    try (HashTable t = HashTable.builder().kind(kind).capacity(100).growPolicy(GrowPolicy.NEVER).build()) {
      int stored = 0;
      TableFullException full = null;
      for (int k = 0; k < 100_000 && full == null; k++) {
        try {
          t.put(k, k);
          stored++;
        } catch (TableFullException e) {
          full = e;
        }
      }
      assertTrue(full != null, "a table that may not grow fills up");
      assertEquals(1, full.count());
      assertEquals(stored, t.size(), "the table keeps what it stored");
      assertEquals(OptionalInt.of(0), t.put(0, 1), "present keys are still assigned");
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void forEachVisitsEveryPairOnceAcrossChunks(TableKind kind) {
    int n = 10_000; // more than two steps of 4096 pairs; on GPU kinds four device chunks of 3000
    Random rnd = new Random(5);
    Map<Integer, Integer> oracle = new HashMap<>();
    int devicePairs = PairChunks.devicePairs;
    PairChunks.devicePairs = 3000;
    try (HashTable t = table(kind, 32); HashTable w = table(kind, 64)) {
      int[] keys = new int[n];
      int[] values = Oracle.values(rnd, n);
      for (int i = 0; i < n; i++) {
        keys[i] = i * 7 - 5_003; // negatives included, never -1 or -2
        oracle.put(keys[i], values[i]);
      }
      t.insert(keys, values);
      Map<Integer, Integer> seen = new HashMap<>();
      t.forEach((k, v) -> assertEquals(null, seen.put(k, v), "key " + k + " visited twice"));
      assertEquals(oracle, seen);

      long[] wide = new long[n];
      for (int i = 0; i < n; i++) {
        wide[i] = ((long) keys[i] << 32) | i;
      }
      w.insert(wide, wide);
      Map<Long, Long> seenWide = new HashMap<>();
      w.forEachLong((k, v) -> seenWide.put(k, v));
      assertEquals(n, seenWide.size());
      for (long k : wide) {
        assertEquals(k, seenWide.get(k).longValue());
      }
      assertThrows(InvalidArgumentException.class, () -> w.forEach((k, v) -> { }));
      assertThrows(InvalidArgumentException.class, () -> t.forEachLong((k, v) -> { }));
    } finally {
      PairChunks.devicePairs = devicePairs;
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void forEachSeesTheTableAsItWasAndTheActionMayChangeIt(TableKind kind) {
    try (HashTable t = table(kind, 32)) {
      int n = 5_000;
      int[] keys = new int[n];
      for (int i = 0; i < n; i++) {
        keys[i] = i;
      }
      t.insert(keys, keys);
      long[] visited = new long[1];
      t.forEach((k, v) -> {
        visited[0]++;
        t.remove(k); // the copy was taken under the lock, which is free again here
        t.put(k + n, v);
      });
      assertEquals(n, visited[0], "keys the action added are not visited");
      assertEquals(n, t.size());
      assertEquals(OptionalInt.empty(), t.get(0));
      assertEquals(OptionalInt.of(3), t.get(3 + n));
      int[] count = new int[1];
      try (HashTable empty = table(kind, 32)) {
        empty.forEach((k, v) -> count[0]++);
      }
      assertEquals(0, count[0]);
    }
  }

  private static OptionalInt opt(Integer v) {
    return v == null ? OptionalInt.empty() : OptionalInt.of(v);
  }

  private static OptionalLong optL(Long v) {
    return v == null ? OptionalLong.empty() : OptionalLong.of(v);
  }
}
