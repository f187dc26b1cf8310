package org.wixlib.internal;

import java.lang.foreign.MemorySegment;

/**
 * One bulk call's arguments: the operation, its columns (MemorySegment.NULL where absent; see
 * {@link BulkOp}), the element count, the table's width in bytes and, for finds, the raw bits written
 * for absent keys (a 32-bit table keeps the low 32).
 */
public record BulkCall(BulkOp op, MemorySegment ops, MemorySegment keys, MemorySegment values,
    MemorySegment out, long n, int width, long notFound) {

  /** The same call over elements [off, off + m). */
  public BulkCall slice(long off, long m) {
    return new BulkCall(op, part(ops, off, m), part(keys, off * width, m * width),
        part(values, off * width, m * width), part(out, off, m), m, width, notFound);
  }

  private static MemorySegment part(MemorySegment s, long offset, long bytes) {
    return s == MemorySegment.NULL ? s : s.asSlice(offset, bytes);
  }

  /** The call on other columns (same op, n, width, notFound). */
  public BulkCall with(MemorySegment ops, MemorySegment keys, MemorySegment values, MemorySegment out) {
    return new BulkCall(op, ops, keys, values, out, n, width, notFound);
  }
}
