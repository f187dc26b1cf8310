package org.wixlib.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.wixlib.InvalidArgumentException;
import org.wixlib.InvalidKeyException;
import org.wixlib.Join;
import org.wixlib.TableKind;

/**
 * The in-place join calls (critical downcalls over Java arrays) give what the generated bindings give
 * over native copies of the same columns, and report the library's errors the same way (CPU kind, so
 * the linking and the heap segments are checked without a GPU).
 */
class JoinCallsTest {
  private static final Native.Config CPU = new Native.Config(TableKind.CPU.code(), null, null, null, null, null, null,
      32, Native.Tuning.DEFAULTS);
  private static final int MULTI = Join.Build.MULTI.code();
  private static final int UNIQUE = Join.Build.UNIQUE.code();

  @Test
  void inPlaceCallsMatchTheNativeOnes() {
    Random r = new Random(3);
    int n = 300_000;
    int[] build = r.ints(n, 0, n).toArray();  // repeated keys: a MULTI build
    int[] probe = r.ints(n, 0, 2 * n).toArray();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment nb = a.allocateFrom(ValueLayout.JAVA_INT, build);
      MemorySegment np = a.allocateFrom(ValueLayout.JAVA_INT, probe);
      long inPlace = Native.joinCreate(JoinCalls.IN_PLACE, CPU, MULTI, MemorySegment.ofArray(build), n,
          Native.MEM_HOST);
      long copied = Native.joinCreate(JoinCalls.NATIVE, CPU, MULTI, nb, n, Native.MEM_HOST);
      try {
        long count = Native.joinCount(JoinCalls.NATIVE, copied, np, MemorySegment.NULL, n, Native.MEM_HOST);
        assertEquals(count, Native.joinCount(JoinCalls.IN_PLACE, inPlace, MemorySegment.ofArray(probe),
            MemorySegment.NULL, n, Native.MEM_HOST));
        int room = Math.toIntExact(count);
        int[] pr = new int[room];
        int[] br = new int[room];
        assertEquals(count, Native.joinProbe(JoinCalls.IN_PLACE, inPlace, MemorySegment.ofArray(probe),
            MemorySegment.NULL, n, MemorySegment.ofArray(pr), MemorySegment.ofArray(br), room, Native.MEM_HOST));
        MemorySegment np2 = a.allocate(ValueLayout.JAVA_INT, room);
        MemorySegment nb2 = a.allocate(ValueLayout.JAVA_INT, room);
        assertEquals(count, Native.joinProbe(JoinCalls.NATIVE, copied, np, MemorySegment.NULL, n, np2, nb2, room,
            Native.MEM_HOST));
        assertArrayEquals(np2.toArray(ValueLayout.JAVA_INT), pr);
        assertArrayEquals(nb2.toArray(ValueLayout.JAVA_INT), br);
        // Too little room: the count comes back and nothing is written.
        int[] small = new int[room - 1];
        Arrays.fill(small, -7);
        assertEquals(count, Native.joinProbe(JoinCalls.IN_PLACE, inPlace, MemorySegment.ofArray(probe),
            MemorySegment.NULL, n, MemorySegment.ofArray(small), MemorySegment.ofArray(small), room - 1,
            Native.MEM_HOST));
        assertEquals(-7, small[0]);
        for (boolean anti : new boolean[] {false, true}) {
          int[] rows = new int[n];
          MemorySegment nrows = a.allocate(ValueLayout.JAVA_INT, n);
          long got = Native.joinSemi(JoinCalls.IN_PLACE, inPlace, MemorySegment.ofArray(probe), MemorySegment.NULL, n,
              anti, MemorySegment.ofArray(rows), Native.MEM_HOST);
          assertEquals(Native.joinSemi(JoinCalls.NATIVE, copied, np, MemorySegment.NULL, n, anti, nrows,
              Native.MEM_HOST), got);
          assertArrayEquals(nrows.asSlice(0, 4 * got).toArray(ValueLayout.JAVA_INT), Arrays.copyOf(rows, (int) got));
        }
      } finally {
        Native.joinDestroy(inPlace);
        Native.joinDestroy(copied);
      }
    }
  }

  @Test
  void inPlaceErrorsAreTheLibrarys() {
    int[] reserved = {5, -1, 7};
    InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> Native.joinCreate(JoinCalls.IN_PLACE, CPU,
        UNIQUE, MemorySegment.ofArray(reserved), 3, Native.MEM_HOST));
    assertEquals(true, e.getMessage().contains("row 1"), e.getMessage());
    int[] repeated = {4, 9, 4};
    assertThrows(InvalidArgumentException.class, () -> Native.joinCreate(JoinCalls.IN_PLACE, CPU, UNIQUE,
        MemorySegment.ofArray(repeated), 3, Native.MEM_HOST));
  }
}
