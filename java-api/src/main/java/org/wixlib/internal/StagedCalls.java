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
  private static final int KEYS = 0;
  private static final int VALUES = 1;
  private static final int BYTES_IN = 2;  // ops
  private static final int BYTES_OUT = 3;  // outcomes, found

  private final Scratch scratch = new Scratch(4);

  /** The heap slice copied into region r (NULL stays NULL). */
  private MemorySegment in(int r, MemorySegment heap) {
    return scratch.in(r, heap);
  }

  /** Room in region r for results that go back into the heap slice (NULL stays NULL). */
  private MemorySegment out(int r, MemorySegment heap) {
    return heap == MemorySegment.NULL ? heap : scratch.region(r, heap.byteSize());
  }

  private static void back(MemorySegment staged, MemorySegment heap) {
    if (heap != MemorySegment.NULL) {
      MemorySegment.copy(staged, 0, heap, 0, heap.byteSize());
    }
  }

  @Override
  public int insert(long table, MemorySegment keys, MemorySegment values, long n, MemorySegment outcomes) {
    MemorySegment o = out(BYTES_OUT, outcomes);
    int st = Native.insert(table, in(KEYS, keys), in(VALUES, values), n, o, Native.MEM_HOST);
    back(o, outcomes);
    return st;
  }

  @Override
  public int insertOrAssign(long table, MemorySegment keys, MemorySegment values, long n,
      MemorySegment outcomes) {
    MemorySegment o = out(BYTES_OUT, outcomes);
    int st = Native.insertOrAssign(table, in(KEYS, keys), in(VALUES, values), n, o, Native.MEM_HOST);
    back(o, outcomes);
    return st;
  }

  @Override
  public int find(long table, MemorySegment keys, MemorySegment values, long n, long notFound) {
    MemorySegment v = out(VALUES, values);
    int st = Native.find(table, in(KEYS, keys), v, n, notFound, Native.MEM_HOST);
    back(v, values);
    return st;
  }

  @Override
  public int contains(long table, MemorySegment keys, MemorySegment found, long n) {
    MemorySegment f = out(BYTES_OUT, found);
    int st = Native.contains(table, in(KEYS, keys), f, n, Native.MEM_HOST);
    back(f, found);
    return st;
  }

  @Override
  public int erase(long table, MemorySegment keys, long n, MemorySegment outcomes) {
    MemorySegment o = out(BYTES_OUT, outcomes);
    int st = Native.erase(table, in(KEYS, keys), n, o, Native.MEM_HOST);
    back(o, outcomes);
    return st;
  }

  @Override
  public int batch(long table, MemorySegment ops, MemorySegment keys, MemorySegment values, long n,
      MemorySegment outcomes) {
    MemorySegment v = in(VALUES, values);  // in for inserts, out for finds
    MemorySegment o = out(BYTES_OUT, outcomes);
    int st = Native.batch(table, in(BYTES_IN, ops), in(KEYS, keys), v, n, o, Native.MEM_HOST);
    back(v, values);
    back(o, outcomes);
    return st;
  }
}
