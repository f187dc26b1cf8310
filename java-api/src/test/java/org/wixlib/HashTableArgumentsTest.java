package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Argument checks of the facade: nulls, lengths, closed tables, reserved keys, absurd sizes. */
class HashTableArgumentsTest {
  private HashTable t;

  @BeforeEach
  void open() {
    t = HashTable.builder().capacity(1000).build();
    t.insert(new int[] {10, 20}, new int[] {1, 2});
  }

  @AfterEach
  void close() {
    t.close();
  }

  private void assertUnchanged() {
    assertEquals(2, t.size(), "nothing applied");
    assertEquals(1, t.find(new int[] {10}, -5)[0]);
    assertEquals(2, t.find(new int[] {20}, -5)[0]);
  }

  @Test
  void nullArraysThrowNullPointerException() {
    int[] k = {1};
    int[] v = {1};
    byte[] o = new byte[1];
    Executable[] calls = {
      () -> t.insert(null, v), () -> t.insert(null, v, o), () -> t.insertOrAssign(null, v),
      () -> t.insertOrAssign(k, null), () -> t.insertOrAssign(k, null, o),
      () -> t.find((int[]) null, 0), () -> t.find(k, null, 0), () -> t.contains((int[]) null),
      () -> t.contains(k, null), () -> t.erase((int[]) null), () -> t.erase((int[]) null, o),
      () -> t.batch(null, k, v, o), () -> t.batch(new byte[1], null, v, o),
      () -> t.batch(new byte[1], k, null, o),
      () -> t.insert((MemorySegment) null, null, 1, null),
      () -> t.find((MemorySegment) null, null, 1, 0),
      () -> t.insert((DeviceBuffer) null, null, 1, null),
      () -> HashTable.builder().kind(null), () -> HashTable.builder().growPolicy(null),
    };
    for (int i = 0; i < calls.length; i++) {
      assertThrows(NullPointerException.class, calls[i], "call #" + i);
    }
    assertUnchanged();
  }

  @Test
  void lengthMismatchesThrowInvalidArgument() {
    int[] k = {1, 2};
    Executable[] calls = {
      () -> t.insert(k, new int[1]), () -> t.insert(k, new int[2], new byte[3]),
      () -> t.insertOrAssign(k, new int[3]), () -> t.insertOrAssign(k, new int[2], new byte[1]),
      () -> t.find(k, new int[1], 0), () -> t.contains(k, new byte[3]), () -> t.erase(k, new byte[1]),
      () -> t.batch(new byte[1], k, new int[2], null), () -> t.batch(new byte[2], k, new int[1], null),
      () -> t.batch(new byte[2], k, new int[2], new byte[1]),
    };
    for (int i = 0; i < calls.length; i++) {
      InvalidArgumentException e = assertThrows(InvalidArgumentException.class, calls[i], "call #" + i);
      assertEquals(1, e.status());
      assertTrue(e.getMessage().contains("length"), e.getMessage());
    }
    assertUnchanged();
  }

  @Test
  void reservedKeysAreRefusedByIndex() {
    for (int bad : new int[] {-1, -2}) {
      int[] keys = {30, 40, bad, 50, -1};
      int[] values = {3, 4, 5, 6, 7};
      Executable[] calls = {
        () -> t.insert(keys, values), () -> t.insertOrAssign(keys, values), () -> t.erase(keys),
        () -> t.batch(new byte[5], keys, values, null),
      };
      for (int i = 0; i < calls.length; i++) {
        InvalidKeyException e = assertThrows(InvalidKeyException.class, calls[i], "call #" + i);
        assertEquals(2, e.index(), "first offending index");
        assertEquals("INVALID_KEY", e.statusName());
        assertTrue(e.getMessage().contains("index 2"), e.getMessage());
      }
      // With outcomes the refusals are results.
      t.erase(new int[] {30, 40, 50});
      byte[] out = new byte[5];
      t.insert(keys, values, out);
      assertArrayEquals(new byte[] {Outcome.INSERTED, Outcome.INSERTED, Outcome.INVALID_KEY, Outcome.INSERTED,
          Outcome.INVALID_KEY}, out);
      t.erase(new int[] {30, 40, 50});
      assertUnchanged();
    }
  }

  @Test
  void badOpCodesThrowBeforeAnythingIsApplied() {
    InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
        () -> t.batch(new byte[] {Op.INSERT, 7}, new int[] {30, 40}, new int[2], null));
    assertTrue(e.getMessage().contains("ops[1]"), e.getMessage());
    assertUnchanged();
  }

  @Test
  void closedTableThrowsIllegalState() {
    HashTable c = HashTable.builder().build();
    c.close();
    c.close(); // idempotent
    assertTrue(c.isClosed());
    int[] k = {1};
    Executable[] calls = {
      () -> c.insert(k, k), () -> c.insertOrAssign(k, k), () -> c.find(k, 0), () -> c.contains(k),
      () -> c.erase(k), () -> c.batch(new byte[1], k, k, null), c::size, c::capacity,
      c::loadFactor, c::stats, c::clear, () -> c.resize(10), c::retrieveAll,
    };
    for (int i = 0; i < calls.length; i++) {
      assertThrows(IllegalStateException.class, calls[i], "call #" + i);
    }
  }

  @Test
  void absurdCapacitiesFailCleanly() {
    for (long cap : new long[] {Long.MAX_VALUE, (1L << 36) + 1, 1L << 62}) {
      InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
          () -> HashTable.builder().capacity(cap).build(), "capacity " + cap);
      assertTrue(e.getMessage().contains("capacity"), e.getMessage());
    }
    assertThrows(InvalidArgumentException.class, () -> HashTable.builder().capacity(-1));
    assertThrows(InvalidArgumentException.class, () -> t.resize(Long.MAX_VALUE));
    assertThrows(InvalidArgumentException.class, () -> t.resize(-1));
    assertUnchanged();
  }

  @Test
  void badConfigurationsThrowInvalidArgument() {
    Executable[] calls = {
      () -> HashTable.builder().maxLoadFactor(0), () -> HashTable.builder().maxLoadFactor(1.5),
      () -> HashTable.builder().maxLoadFactor(Double.NaN), () -> HashTable.builder().minLoadFactor(-0.1),
      () -> HashTable.builder().minLoadFactor(1), () -> HashTable.builder().device(-1),
      () -> HashTable.builder().threads(-1),
      () -> HashTable.builder().maxLoadFactor(0.5).minLoadFactor(0.6).build(),
    };
    for (int i = 0; i < calls.length; i++) {
      assertThrows(InvalidArgumentException.class, calls[i], "call #" + i);
    }
    try (HashTable ok = HashTable.builder().maxLoadFactor(1.0).minLoadFactor(0.0).capacity(0).build()) {
      ok.insert(new int[] {5}, new int[] {6});
      assertEquals(6, ok.find(new int[] {5}, 0)[0]);
    }
  }

  @Test
  void segmentArgumentsAreChecked() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment keys = a.allocate(ValueLayout.JAVA_INT, 4);
      MemorySegment vals = a.allocate(ValueLayout.JAVA_INT, 4);
      MemorySegment outs = a.allocate(4);
      Executable[] calls = {
        () -> t.insert(keys, vals, -1, outs), // negative n
        () -> t.insert(keys, vals, 5, outs), // keys too small
        () -> t.insert(keys, vals, 4, a.allocate(3)), // outcomes too small
        () -> t.insert(MemorySegment.ofArray(new int[4]), vals, 4, outs), // heap segment
        () -> t.insert(MemorySegment.NULL, vals, 4, outs), // NULL keys
        () -> t.insertOrAssign(keys, MemorySegment.NULL, 4, outs), // values required
        () -> t.find(keys, vals.asReadOnly(), 4, 0), // read-only output
        () -> t.find(keys, vals, Long.MAX_VALUE, 0), // absurd n
        () -> t.contains(keys, a.allocate(3), 4),
        () -> t.erase(keys, -5, null),
        () -> t.batch(a.allocate(3), keys, vals, 4, null),
        () -> t.retrieveAll(keys, vals, -1),
      };
      for (int i = 0; i < calls.length; i++) {
        assertThrows(InvalidArgumentException.class, calls[i], "call #" + i);
      }
    }
    assertUnchanged();
  }

  @Test
  void negativeDeviceBufferCountIsRejected() {
    assertThrows(InvalidArgumentException.class, () -> t.erase((DeviceBuffer) null, -1, null));
    assertThrows(InvalidArgumentException.class, () -> DeviceBuffer.allocate(0, -1));
    assertThrows(InvalidArgumentException.class, () -> DeviceBuffer.allocate(-1, 16));
  }
}
