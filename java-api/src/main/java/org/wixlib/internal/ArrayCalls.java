package org.wixlib.internal;

import java.lang.foreign.MemorySegment;

/**
 * The bulk calls of one table over slices of Java arrays (heap segments, {@code MEM_HOST}); each
 * returns the native status. {@link HeapCalls} passes the arrays in place (GPU tables),
 * {@link StagedCalls} through a reused off-heap buffer (CPU tables).
 */
public interface ArrayCalls {
  int insert(long table, MemorySegment keys, MemorySegment values, long n, MemorySegment outcomes);

  int insertOrAssign(long table, MemorySegment keys, MemorySegment values, long n, MemorySegment outcomes);

  int find(long table, MemorySegment keys, MemorySegment values, long n, long notFound);

  int contains(long table, MemorySegment keys, MemorySegment found, long n);

  int erase(long table, MemorySegment keys, long n, MemorySegment outcomes);

  int batch(long table, MemorySegment ops, MemorySegment keys, MemorySegment values, long n,
      MemorySegment outcomes);
}
