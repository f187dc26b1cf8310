package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A reserved key is never present: every lookup overload answers "not found" for it without an
 * exception, while calls that change the table still refuse it (every kind; GPU kinds skip without a GPU).
 */
class ReservedKeyLookupsTest {

  static HashTable table(TableKind kind, int keyBits) {
    if (kind.isGpu()) {
      GpuAssumptions.requireOrSkip(kind);
    }
    HashTable t = HashTable.builder().kind(kind).keyBits(keyBits).capacity(100).build();
    if (keyBits == 64) {
      t.insert(new long[] {1, 2}, new long[] {10, 20});
    } else {
      t.insert(new int[] {1, 2}, new int[] {10, 20});
    }
    return t;
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void arrays(TableKind kind) {
    try (HashTable t = table(kind, 32); HashTable w = table(kind, 64)) {
      int[] keys = {1, HashTable.EMPTY_KEY, 2, HashTable.TOMBSTONE_KEY};
      assertArrayEquals(new int[] {10, -9, 20, -9}, t.find(keys, -9));
      assertArrayEquals(new boolean[] {true, false, true, false}, t.contains(keys));
      byte[] found = new byte[4];
      t.contains(keys, found);
      assertArrayEquals(new byte[] {1, 0, 1, 0}, found);
      long[] wide = {1, HashTable.EMPTY_KEY64, 2, HashTable.TOMBSTONE_KEY64};
      assertArrayEquals(new long[] {10, -9, 20, -9}, w.find(wide, -9L));
      assertArrayEquals(new boolean[] {true, false, true, false}, w.contains(wide));
      // Changes still refuse them, element by element: the other keys are applied.
      assertEquals(1, assertThrows(InvalidKeyException.class, () -> t.erase(keys)).index());
      assertEquals(0, t.size());
      assertEquals(1, assertThrows(InvalidKeyException.class, () -> t.insert(keys, null)).index());
      assertEquals(2, t.size());
      assertEquals(1, assertThrows(InvalidKeyException.class, () -> w.insertOrAssign(wide, wide)).index());
      assertEquals(2, w.size());
      assertArrayEquals(new long[] {1, 2}, w.find(new long[] {1, 2}, -9L));
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void hostSegments(TableKind kind) {
    try (HashTable t = table(kind, 32); HashTable w = table(kind, 64); Arena a = Arena.ofConfined()) {
      MemorySegment k = a.allocateFrom(JAVA_INT, 1, -1, 2, -2);
      MemorySegment v = a.allocate(JAVA_INT, 4);
      t.find(k, v, 4, -9);
      assertArrayEquals(new int[] {10, -9, 20, -9}, v.toArray(JAVA_INT));
      MemorySegment f = a.allocate(4);
      t.contains(k, f, 4);
      assertArrayEquals(new byte[] {1, 0, 1, 0}, f.toArray(JAVA_BYTE));
      MemorySegment kw = a.allocateFrom(JAVA_LONG, 1L, -1L, 2L, -2L);
      MemorySegment vw = a.allocate(JAVA_LONG, 4);
      w.find(kw, vw, 4, -9L);
      assertArrayEquals(new long[] {10, -9, 20, -9}, vw.toArray(JAVA_LONG));
      w.contains(kw, f, 4);
      assertArrayEquals(new byte[] {1, 0, 1, 0}, f.toArray(JAVA_BYTE));
      // Changes: an exception after the call (the other elements were applied), naming the element.
      assertEquals(1, assertThrows(InvalidKeyException.class, () -> t.erase(k, 4, null)).index());
      assertEquals(0, t.size());
    }
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void deviceBuffers(TableKind kind) {
    try (HashTable t = table(kind, 32);
        DeviceBuffer k = DeviceBuffer.ofInts(t.device(), new int[] {1, -1, 2, -2});
        DeviceBuffer v = DeviceBuffer.allocate(t.device(), 16);
        DeviceBuffer f = DeviceBuffer.allocate(t.device(), 4)) {
      t.find(k, v, 4, -9);
      int[] got = new int[4];
      v.copyTo(got);
      assertArrayEquals(new int[] {10, -9, 20, -9}, got);
      t.contains(k, f, 4);
      byte[] found = new byte[4];
      f.copyTo(found);
      assertArrayEquals(new byte[] {1, 0, 1, 0}, found);
    }
  }
}
