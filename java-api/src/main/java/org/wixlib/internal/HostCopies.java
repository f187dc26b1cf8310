package org.wixlib.internal;

import java.lang.foreign.MemorySegment;
import java.util.stream.LongStream;

/**
 * Copies between Java arrays and native memory, large ones spread over the common fork-join pool: one
 * thread copies about 10 GB/s, the host's memory system several times that, and these copies stand
 * between a Java caller and the GPU.
 */
public final class HostCopies {
  private HostCopies() {}

  /** Smaller copies stay on the calling thread. */
  static final long PARALLEL_MIN = 8L << 20;
  private static final long BLOCK = 2L << 20;

  /** Copies bytes from src at srcOffset to dst at dstOffset (segments of any kind; they must not overlap). */
  public static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes) {
    if (bytes < PARALLEL_MIN) {
      MemorySegment.copy(src, srcOffset, dst, dstOffset, bytes);
      return;
    }
    long blocks = (bytes + BLOCK - 1) / BLOCK;
    LongStream.range(0, blocks).parallel().forEach(b -> {
      long at = b * BLOCK;
      MemorySegment.copy(src, srcOffset + at, dst, dstOffset + at, Math.min(BLOCK, bytes - at));
    });
  }
}
