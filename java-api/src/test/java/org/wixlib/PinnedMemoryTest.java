package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * PinnedMemory: page-locked segments and registrations give the same results as ordinary memory on
 * every kind (GPU kinds copy them straight to and from the device, in chunks); without a GPU they are
 * ordinary memory. LinkRates on a GPU.
 */
class PinnedMemoryTest {
  private static final int N = 300_007;  // several staging chunks of 2^16, the last one ragged

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void pinnedSegmentsGiveTheSameResults(TableKind kind) {
    if (kind.isGpu()) {
      GpuAssumptions.requireOrSkip(kind);
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment keys = PinnedMemory.allocate(arena, 4L * N);
      MemorySegment values = PinnedMemory.allocate(arena, 4L * N);
      MemorySegment outcomes = PinnedMemory.allocate(arena, N);
      MemorySegment found = PinnedMemory.allocate(arena, 4L * N);
      roundTrip(kind, keys, values, outcomes, found);
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void registeredInputsGiveTheSameResults(TableKind kind) {
    if (kind.isGpu()) {
      GpuAssumptions.requireOrSkip(kind);
    }
    try (Arena arena = Arena.ofConfined()) {
      // Whole pages each: a registration locks whole pages, and two must not share one.
      MemorySegment keys = arena.allocate(pages(4L * N), 4096);
      MemorySegment values = arena.allocate(pages(4L * N), 4096);
      MemorySegment outcomes = arena.allocate(N);  // ordinary: staged while the inputs are not
      MemorySegment found = arena.allocate(4L * N, 4);
      try (PinnedMemory.Registration rk = PinnedMemory.register(keys);
          PinnedMemory.Registration rv = PinnedMemory.register(values)) {
        assertEquals(Wixlib.devices().size() > 0, rk.isPageLocked());
        roundTrip(kind, keys, values, outcomes, found);
        rk.close();
        rk.close();  // idempotent
        assertFalse(rk.isPageLocked());
      }
    }
  }

  private static long pages(long bytes) {
    return (bytes + 4095) / 4096 * 4096;
  }

  private static void roundTrip(TableKind kind, MemorySegment keys, MemorySegment values, MemorySegment outcomes,
      MemorySegment found) {
    for (int i = 0; i < N; i++) {
      keys.setAtIndex(JAVA_INT, i, i * 7 + 3);
      values.setAtIndex(JAVA_INT, i, i ^ 0x5A5A5A5A);
    }
    HashTable.Builder b = HashTable.builder().kind(kind).capacity(N / 4).stagingChunk(1 << 16);
    try (HashTable t = b.build()) {
      t.insert(keys, values, N, outcomes);
      for (int i = 0; i < N; i++) {
        assertEquals(Outcome.INSERTED, outcomes.get(JAVA_BYTE, i), "insert element " + i);
      }
      assertEquals(N, t.size());
      t.find(keys, found, N, -1);
      for (int i = 0; i < N; i++) {
        assertEquals(i ^ 0x5A5A5A5A, found.getAtIndex(JAVA_INT, i), "find element " + i);
      }
      t.erase(keys, N / 2, outcomes);
      for (int i = 0; i < N / 2; i++) {
        assertEquals(Outcome.ERASED, outcomes.get(JAVA_BYTE, i), "erase element " + i);
      }
      assertEquals(N - N / 2, t.size());
    }
  }

  @Test
  void badArgumentsAreRefused() {
    try (Arena arena = Arena.ofConfined()) {
      assertThrows(IllegalArgumentException.class, () -> PinnedMemory.allocate(arena, 0));
      assertThrows(NullPointerException.class, () -> PinnedMemory.allocate(null, 16));
      assertThrows(IllegalArgumentException.class, () -> PinnedMemory.register(MemorySegment.ofArray(new int[4])));
      assertThrows(IllegalArgumentException.class, () -> PinnedMemory.register(arena.allocate(0)));
      assertThrows(NullPointerException.class, () -> PinnedMemory.register(null));
    }
  }

  @Test
  void withoutAGpuPinnedMemoryIsOrdinary() {
    Assumptions.assumeTrue(Wixlib.devices().isEmpty(), "a GPU is present: the GPU cases cover it");
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment s = PinnedMemory.allocate(arena, 1000);
      assertEquals(1000, s.byteSize());
      assertTrue(s.isNative());
      try (PinnedMemory.Registration r = PinnedMemory.register(s)) {
        assertFalse(r.isPageLocked());
      }
    }
    assertThrows(NoDeviceException.class, () -> Wixlib.linkRates(0));
  }

  @Test
  void linkRatesArePositive() {
    GpuAssumptions.requireOrSkip(TableKind.GLHT);
    LinkRates r = Wixlib.linkRates(0);
    assertTrue(r.hostToDevice() > 0 && r.deviceToHost() > 0 && r.bothDirections() > 0 && r.hostCopy() > 0, r.toString());
    assertTrue(r.hostCopyThreads() >= 1 && r.hostCopyJoin() > 0 && r.hostCopyJoinThreads() >= r.hostCopyThreads(),
        r.toString());
  }
}
