package org.wixlib.internal;

import java.lang.foreign.MemorySegment;

/**
 * The bulk calls of a CPU table over slices of Java arrays, through one off-heap buffer per table
 * that is reused by every call: copy the slice in, an ordinary downcall, copy the results out.
 * A CPU call runs long (it may grow the table), so it must not hold back garbage collection the way
 * a critical call on the arrays themselves would; and a buffer allocated per call (fresh, zeroed
 * memory) cost more than the copies (~1.4x on inserts, ~1.85x on finds of 2^22 keys). Not
 * thread-safe: the table's lock serialises its calls. The memory is freed once the table is garbage.
 */
public final class StagedCalls implements ArrayCalls {
  private static final int OPS = 0;
  private static final int KEYS = 1;
  private static final int VALUES = 2;
  private static final int OUT = 3;

  private final Scratch scratch = new Scratch(4);

  @Override
  public int run(long table, BulkCall c) {
    MemorySegment v = c.op().values.read() ? scratch.in(VALUES, c.values()) : room(VALUES, c.values());
    MemorySegment o = room(OUT, c.out());
    int st = Native.bulk(table, c.with(scratch.in(OPS, c.ops()), scratch.in(KEYS, c.keys()), v, o), Native.MEM_HOST);
    if (c.op().values.written()) {
      back(v, c.values());
    }
    back(o, c.out());
    return st;
  }

  /** Room in region r for results that go back into the heap slice (NULL stays NULL). */
  private MemorySegment room(int r, MemorySegment heap) {
    return heap == MemorySegment.NULL ? heap : scratch.region(r, heap.byteSize());
  }

  private static void back(MemorySegment staged, MemorySegment heap) {
    if (heap != MemorySegment.NULL) {
      MemorySegment.copy(staged, 0, heap, 0, heap.byteSize());
    }
  }
}
