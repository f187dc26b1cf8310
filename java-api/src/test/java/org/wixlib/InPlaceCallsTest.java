package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The array paths, a slice at a time: in place (critical downcalls on the heap arrays: what GPU
 * tables take, routed here through CPU tables so it runs on every machine) and, in
 * {@link StagedCallsTest}, through the CPU table's reused off-heap buffer. Slices of 1000 elements so
 * that calls span many of them. Results against java.util.HashMap (RoundTrip), FULL counted over
 * slices.
 */
class InPlaceCallsTest {
  /** Which path the tables of this class take. */
  boolean inPlace() {
    return true;
  }

  @BeforeEach
  void slices() {
    HashTable.inPlaceOnCpu = inPlace();
    TableCalls.sliceOverride = 1000;
  }

  @AfterEach
  void restore() {
    HashTable.inPlaceOnCpu = false;
    TableCalls.sliceOverride = 0;
  }

  @Test
  void roundTripOverManySlices() {
    try (HashTable t = HashTableCpuTest.cpu(64)) {
      new RoundTrip(t, 5, 30_000).run(4, 4_321);
    }
  }

  @Test
  void oneSliceAndEmptyCalls() {
    TableCalls.sliceOverride = org.wixlib.internal.HeapCalls.MAX_ELEMENTS;
    try (HashTable t = HashTableCpuTest.cpu(64)) {
      t.insert(new int[0], null);
      t.insert(new int[] {3, 4}, null);
      t.insertOrAssign(new int[] {4, 5}, new int[] {40, 50});
      assertArrayEquals(new int[] {0, 40, 50, -1}, t.find(new int[] {3, 4, 5, 6}, -1));
      assertArrayEquals(new boolean[] {true, false}, t.contains(new int[] {5, 6}));
      byte[] out = new byte[2];
      t.erase(new int[] {5, 6}, out);
      assertArrayEquals(new byte[] {Outcome.ERASED, Outcome.NOT_FOUND}, out);
    }
    try (HashTable t = HashTableCpuTest.cpu(64)) {
      new RoundTrip(t, 9, 5_000).run(2, 1_500);
    }
  }

  @Test
  void fullOutcomesAndCountOverSlices() {
    try (HashTable t = HashTable.builder().kind(TableKind.CPU).capacity(1500).maxLoadFactor(1.0)
        .growPolicy(GrowPolicy.NEVER).build()) {
      int n = 5_500;
      int[] keys = new int[n];
      for (int i = 0; i < n; i++) {
        keys[i] = i * 7 + 1;
      }
      byte[] out = new byte[n];
      t.insert(keys, keys, out); // FULL is a result with outcomes
      int inserted = 0;
      for (byte b : out) {
        assertTrue(b == Outcome.INSERTED || b == Outcome.FULL, "outcome " + Outcome.name(b));
        inserted += b == Outcome.INSERTED ? 1 : 0;
      }
      assertEquals(inserted, t.size());
      assertTrue(inserted < n, "a table of " + t.capacity() + " slots took all " + n);
      int[] found = t.find(keys, -5);
      for (int i = 0; i < n; i++) {
        assertEquals(out[i] == Outcome.INSERTED ? keys[i] : -5, found[i], "key " + keys[i]);
      }
      // Without outcomes: one exception after every slice ran, counting all of them.
      int[] more = new int[2_500];
      for (int i = 0; i < more.length; i++) {
        more[i] = 1_000_000 + i;
      }
      long before = t.size();
      TableFullException e = assertThrows(TableFullException.class, () -> t.insert(more, more));
      assertEquals(more.length - (t.size() - before), e.count(), e.getMessage());
      assertTrue(e.getMessage().contains(e.count() + " of 2500 inserts"), e.getMessage());
    }
  }

  @Test
  void reservedKeysAreRefusedInEverySliceAndTheOthersApplied() {
    try (HashTable t = HashTableCpuTest.cpu(64)) {
      int[] keys = new int[10_000];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = i;
      }
      keys[2_500] = HashTable.TOMBSTONE_KEY;  // third slice
      keys[9_999] = HashTable.EMPTY_KEY;      // last key of the last slice
      InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> t.insert(keys, keys));
      assertEquals(2_500, e.index(), "the first reserved key is named");
      assertEquals(keys.length - 2, t.size(), "every other element of every slice applied");
      assertEquals(-3, t.find(keys, -3)[2_500], "a lookup of a reserved key finds nothing");
      byte[] out = new byte[keys.length];
      t.insertOrAssign(keys, keys, out);  // with outcomes: results, no exception
      for (int i = 0; i < keys.length; i++) {
        byte want = i == 2_500 || i == 9_999 ? Outcome.INVALID_KEY : Outcome.ASSIGNED;
        assertEquals(want, out[i], "element " + i);
      }
      assertEquals(9_999, assertThrows(InvalidKeyException.class,
          () -> t.erase(java.util.Arrays.copyOfRange(keys, 3_000, keys.length))).index() + 3_000);
      assertEquals(3_000 - 1, t.size(), "erase applied to the others");
    }
  }

  @Test
  void reservedWideKeysAreRefusedAndTheOthersApplied() {
    try (HashTable t = HashTable.builder().kind(TableKind.CPU).keyBits(64).capacity(64).build()) {
      long[] keys = new long[10_000];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = (long) i << 32 | 0xFFFF_FFFFL; // low halves equal to the 32-bit sentinels: ordinary keys
      }
      keys[4_095] = HashTable.EMPTY_KEY64;
      keys[4_096] = HashTable.TOMBSTONE_KEY64;
      assertEquals(4_095, assertThrows(InvalidKeyException.class, () -> t.insert(keys, keys)).index());
      assertEquals(keys.length - 2, t.size());
      assertEquals(4_095, assertThrows(InvalidKeyException.class, () -> t.erase(keys)).index());
      assertEquals(0, t.size());
    }
  }
}
