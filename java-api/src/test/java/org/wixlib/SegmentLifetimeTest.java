package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Segments that cannot be used fail the way the segment itself would: a closed arena with
 * IllegalStateException, a confined arena of another thread with WrongThreadException (never an
 * AssertionError from the bindings), and nothing is applied.
 */
class SegmentLifetimeTest {

  /** Every call of the table and a join that takes host segments, on these (unusable) keys. */
  static Executable[] calls(HashTable t, Join j, MemorySegment k, MemorySegment good) {
    return new Executable[] {
      () -> t.insert(k, MemorySegment.NULL, 4, MemorySegment.NULL),
      () -> t.insertOrAssign(good, k, 4, MemorySegment.NULL),
      () -> t.find(k, good, 4, -1),
      () -> t.find(good, k, 4, -1),
      () -> t.contains(k, good, 4),
      () -> t.erase(k, 4, MemorySegment.NULL),
      () -> t.batch(good, k, good, 4, MemorySegment.NULL),
      () -> t.retrieveAll(k, good, 4),
      () -> j.count(k, 4),
      () -> j.probe(k, 4),
      () -> j.semi(k, 4, false, good),
    };
  }

  @Test
  void closedArena() {
    try (HashTable t = HashTable.builder().capacity(100).build();
        Join j = Join.builder().kind(TableKind.CPU).build(new int[] {1, 2, 3});
        Arena live = Arena.ofConfined()) {
      MemorySegment good = live.allocate(JAVA_INT, 4);
      Arena gone = Arena.ofConfined();
      MemorySegment k = gone.allocateFrom(JAVA_INT, 1, 2, 3, 4);
      gone.close();
      Executable[] calls = calls(t, j, k, good);
      for (int i = 0; i < calls.length; i++) {
        Throwable e = assertThrows(Throwable.class, calls[i], "call #" + i);
        assertEquals(IllegalStateException.class, e.getClass(), "call #" + i + ": " + e);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
      }
      assertEquals(0, t.size());
      assertEquals(IllegalStateException.class,
          assertThrows(Throwable.class, () -> PinnedMemory.register(k)).getClass(), "never page-lock freed memory");
    }
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void deviceBufferCopiesFromAClosedArena(TableKind kind) {
    GpuAssumptions.requireOrSkip(kind);
    Arena gone = Arena.ofConfined();
    MemorySegment k = gone.allocateFrom(JAVA_INT, 1, 2, 3, 4);
    gone.close();
    try (DeviceBuffer b = DeviceBuffer.allocate(0, 16)) {
      assertEquals(IllegalStateException.class, assertThrows(Throwable.class, () -> b.copyFrom(k)).getClass());
      assertEquals(IllegalStateException.class, assertThrows(Throwable.class, () -> b.copyTo(k)).getClass());
    }
  }

  @Test
  void confinedToAnotherThread() throws Exception {
    try (HashTable t = HashTable.builder().capacity(100).build();
        Join j = Join.builder().kind(TableKind.CPU).build(new int[] {1, 2, 3});
        Arena mine = Arena.ofConfined()) {
      MemorySegment k = mine.allocateFrom(JAVA_INT, 1, 2, 3, 4);
      MemorySegment good = Arena.ofAuto().allocate(JAVA_INT, 4);
      Executable[] calls = calls(t, j, k, good);
      for (int i = 0; i < calls.length; i++) {
        Executable c = calls[i];
        CompletableFuture<Throwable> f = CompletableFuture.supplyAsync(() -> {
          try {
            c.execute();
            return null;
          } catch (Throwable e) {
            return e;
          }
        });
        Throwable e = f.get();
        assertTrue(e != null, "call #" + i + " must fail");
        assertEquals(WrongThreadException.class, e.getClass(), "call #" + i + ": " + e);
      }
      assertEquals(0, t.size());
      t.insert(k, k, 4, MemorySegment.NULL); // the owner thread may use it
      assertArrayEquals(new int[] {1, 2, 3, 4}, t.find(new int[] {1, 2, 3, 4}, 0));
    }
  }
}
