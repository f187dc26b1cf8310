package org.wixlib.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Off-heap regions that a table's or a join's calls reuse: a fresh allocation per call would zero and
 * fault in new pages every time. Each region grows (at least doubling) when a call needs more room and
 * never shrinks; the memory is freed once the owner drops this object. Ordinary memory: GPU calls
 * reach page-locked memory through the library's own staging. Not thread-safe: the owner's lock
 * serialises its calls.
 */
public final class Scratch {
  private final Arena arena = Arena.ofAuto();
  private final MemorySegment[] regions;

  public Scratch(int regionCount) {
    regions = new MemorySegment[regionCount];
  }

  /** Region r with room for at least bytes: its first bytes. */
  public MemorySegment region(int r, long bytes) {
    MemorySegment s = regions[r];
    if (s == null || s.byteSize() < bytes) {
      long size = Math.max(bytes, s == null ? 64 : 2 * s.byteSize());
      s = arena.allocate(size, 16);
      regions[r] = s;
    }
    return s.asSlice(0, bytes);
  }

  /** Bytes region r holds now (0 before its first use). */
  public long capacity(int r) {
    return regions[r] == null ? 0 : regions[r].byteSize();
  }

  /** A copy of src in region r (NULL stays NULL). */
  public MemorySegment in(int r, MemorySegment src) {
    if (src == MemorySegment.NULL) {
      return src;
    }
    MemorySegment s = region(r, src.byteSize());
    HostCopies.copy(src, 0, s, 0, src.byteSize());
    return s;
  }
}
