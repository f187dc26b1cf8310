package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The CPU kind runs out of host memory, not device memory: HostOutOfMemoryException, the table intact. */
class OutOfMemoryTest {
  /** 2^36 keys at load 0.5: 2^37 slots, a terabyte, more than any machine that runs this has. */
  static final long HUGE = 1L << 36;

  @Test
  void creatingATableTooLargeForTheHost() {
    HashTable.Builder b = HashTable.builder().kind(TableKind.CPU).capacity(HUGE).maxLoadFactor(0.5);
    WixlibException e = assertThrows(HostOutOfMemoryException.class, b::build);
    assertFalse(e instanceof DeviceOutOfMemoryException);
    assertEquals("OUT_OF_MEMORY", e.statusName());
  }

  @Test
  void resizingBeyondTheHostLeavesTheTableIntact() {
    try (HashTable t = HashTable.builder().kind(TableKind.CPU).capacity(100).maxLoadFactor(0.5).build()) {
      t.insert(new int[] {1, 2}, new int[] {10, 20});
      assertThrows(HostOutOfMemoryException.class, () -> t.resize(HUGE));
      assertArrayEquals(new int[] {10, 20}, t.find(new int[] {1, 2}, 0));
    }
  }
}
