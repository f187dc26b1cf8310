package org.wixlib.internal;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * Below the facade's own checks: a segment whose arena closed after those checks still fails as the
 * segment would (IllegalStateException), not with the bindings' AssertionError.
 */
class NativeSegmentsTest {
  @Test
  void aClosedSegmentSurfacesAsItself() {
    long table = Native.tableCreate(new Native.Config(0, 100L, null, null, null, null, 1));
    try (Arena live = Arena.ofConfined()) {
      MemorySegment out = live.allocate(JAVA_INT, 2);
      Arena gone = Arena.ofConfined();
      MemorySegment keys = gone.allocateFrom(JAVA_INT, 1, 2);
      gone.close();
      Throwable e = assertThrows(Throwable.class, () -> Native.bulk(table,
          new BulkCall(BulkOp.FIND, MemorySegment.NULL, keys, out, MemorySegment.NULL, 2, 4, 0), Native.MEM_HOST));
      assertEquals(IllegalStateException.class, e.getClass(), e.toString());
      e = assertThrows(Throwable.class, () -> Native.bulk(table,
          new BulkCall(BulkOp.INSERT, MemorySegment.NULL, keys, out, MemorySegment.NULL, 2, 4, 0), Native.MEM_HOST));
      assertEquals(IllegalStateException.class, e.getClass(), e.toString());
      assertEquals(0, Native.size(table));
    } finally {
      Native.tableDestroy(table);
    }
  }
}
