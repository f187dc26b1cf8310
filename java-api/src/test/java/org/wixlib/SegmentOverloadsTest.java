package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The host MemorySegment overloads: same results as the arrays; reserved keys as results. */
class SegmentOverloadsTest {

  private static MemorySegment ints(Arena a, int[] data) {
    MemorySegment s = a.allocate(JAVA_INT, data.length);
    MemorySegment.copy(data, 0, s, JAVA_INT, 0, data.length);
    return s;
  }

  @Test
  void roundTripThroughSegments() {
    Random rnd = new Random(5);
    int n = 20_000;
    int[] keys = new int[n];
    for (int i = 0; i < n; i++) {
      keys[i] = i * 3 + 1; // distinct
    }
    int[] values = Oracle.values(rnd, n);
    Map<Integer, Integer> oracle = new HashMap<>();
    try (HashTable t = HashTable.builder().capacity(128).build(); Arena a = Arena.ofConfined()) {
      MemorySegment k = ints(a, keys);
      MemorySegment v = ints(a, values);
      MemorySegment o = a.allocate(n);
      t.insert(k, v, n, o);
      for (int i = 0; i < n; i++) {
        assertEquals(Outcome.INSERTED, o.get(JAVA_BYTE, i));
        oracle.put(keys[i], values[i]);
      }
      // insertOrAssign the first half with new values, no outcomes (NULL).
      int[] nv = Oracle.values(rnd, n);
      t.insertOrAssign(k, ints(a, nv), n / 2, MemorySegment.NULL);
      for (int i = 0; i < n / 2; i++) {
        oracle.put(keys[i], nv[i]);
      }
      MemorySegment out = a.allocate(JAVA_INT, n);
      t.find(k, out, n, -9);
      for (int i = 0; i < n; i++) {
        assertEquals(oracle.get(keys[i]).intValue(), out.getAtIndex(JAVA_INT, i), "key " + keys[i]);
      }
      // erase every third key; contains reflects it.
      int[] er = new int[n / 3];
      for (int i = 0; i < er.length; i++) {
        er[i] = keys[3 * i];
        oracle.remove(er[i]);
      }
      MemorySegment eo = a.allocate(er.length);
      t.erase(ints(a, er), er.length, eo);
      for (int i = 0; i < er.length; i++) {
        assertEquals(Outcome.ERASED, eo.get(JAVA_BYTE, i));
      }
      MemorySegment found = a.allocate(n);
      t.contains(k, found, n);
      for (int i = 0; i < n; i++) {
        assertEquals(oracle.containsKey(keys[i]) ? 1 : 0, found.get(JAVA_BYTE, i), "key " + keys[i]);
      }
      // mixed batch: find all keys.
      MemorySegment ops = a.allocate(n);
      ops.fill(Op.FIND);
      MemorySegment bv = a.allocate(JAVA_INT, n);
      bv.fill((byte) 0x7F);
      MemorySegment bo = a.allocate(n);
      t.batch(ops, k, bv, n, bo);
      for (int i = 0; i < n; i++) {
        Integer want = oracle.get(keys[i]);
        assertEquals(want == null ? Outcome.NOT_FOUND : Outcome.FOUND, bo.get(JAVA_BYTE, i));
        assertEquals(want == null ? 0x7F7F7F7F : want, bv.getAtIndex(JAVA_INT, i));
      }
      // retrieveAll into segments.
      long size = t.size();
      assertEquals(oracle.size(), size);
      MemorySegment rk = a.allocate(JAVA_INT, size);
      MemorySegment rv = a.allocate(JAVA_INT, size);
      assertEquals(size, t.retrieveAll(rk, rv, size));
      Map<Integer, Integer> got = new HashMap<>();
      for (long i = 0; i < size; i++) {
        got.put(rk.getAtIndex(JAVA_INT, i), rv.getAtIndex(JAVA_INT, i));
      }
      assertEquals(oracle, got);
      assertThrows(InvalidArgumentException.class, () -> t.retrieveAll(rk, rv, size - 1),
          "too small: nothing written, clear error");
    }
  }

  @Test
  void reservedKeysInSegmentsAreResultsWithOutcomesAndExceptionsWithout() {
    try (HashTable t = HashTable.builder().capacity(100).build(); Arena a = Arena.ofConfined()) {
      MemorySegment k = ints(a, new int[] {1, -1, 2, -2});
      MemorySegment v = ints(a, new int[] {10, 11, 12, 13});
      MemorySegment o = a.allocate(4);
      t.insert(k, v, 4, o); // outcomes given: no exception
      assertArrayEquals(new byte[] {Outcome.INSERTED, Outcome.INVALID_KEY, Outcome.INSERTED, Outcome.INVALID_KEY},
          o.toArray(JAVA_BYTE));
      assertEquals(2, t.size());
      MemorySegment k2 = ints(a, new int[] {3, 4, -2});
      InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> t.insert(k2, v, 3, null));
      assertEquals(2, e.index());
      assertEquals(4, t.size(), "the other elements were applied");
      MemorySegment out = a.allocate(JAVA_INT, 4);
      t.find(k, out, 4, -9); // lookups: a reserved key is simply not found
      assertArrayEquals(new int[] {10, -9, 12, -9}, out.toArray(JAVA_INT));
    }
  }

  @Test
  void fullIsAResultWithOutcomesAndAnExceptionWithCountWithout() {
    try (HashTable t = HashTable.builder().capacity(50).growPolicy(GrowPolicy.NEVER).build();
        Arena a = Arena.ofConfined()) {
      int n = (int) t.capacity() * 3;
      int[] keys = new int[n];
      for (int i = 0; i < n; i++) {
        keys[i] = i;
      }
      MemorySegment k = ints(a, keys);
      MemorySegment o = a.allocate(n);
      t.insert(k, k, n, o);
      long full = 0;
      for (int i = 0; i < n; i++) {
        full += o.get(JAVA_BYTE, i) == Outcome.FULL ? 1 : 0;
      }
      assertEquals(n - t.size(), full);
      MemorySegment k2 = ints(a, new int[] {n + 1, n + 2, n + 3});
      TableFullException e = assertThrows(TableFullException.class, () -> t.insert(k2, null, 3, null));
      assertEquals(3, e.count() + (t.size() - (n - full)), "count plus placed = batch");
    }
  }
}
