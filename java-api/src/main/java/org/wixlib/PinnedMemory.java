package org.wixlib;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.wixlib.internal.Native;

/**
 * Page-locked host memory. A GPU table's bulk call copies a segment that lies wholly in page-locked
 * memory straight to and from the device; other host memory (Java arrays, ordinary segments) first
 * goes through the library's own page-locked buffers, a copy on the host that bounds such calls (see
 * {@link LinkRates}). Lock memory that many calls reuse (key columns, result buffers): allocating or
 * registering it costs about as much as copying it a few times.
 *
 * <p>Without a usable GPU, {@link #allocate} gives ordinary native memory and {@link #register} locks
 * nothing, so the same code runs on CPU tables.
 */
public final class PinnedMemory {
  private PinnedMemory() {}

  /**
   * {@code bytes} of page-locked host memory, freed when {@code arena} closes (ordinary native memory
   * from {@code arena} where no GPU is usable).
   */
  public static MemorySegment allocate(Arena arena, long bytes) {
    Objects.requireNonNull(arena, "arena");
    if (bytes <= 0) {
      throw new IllegalArgumentException("bytes must be > 0, got " + bytes);
    }
    if (!gpuPresent()) {
      return arena.allocate(bytes, 64);
    }
    return Native.hostSegment(arena, bytes);
  }

  /**
   * Page-locks an existing native segment until the registration is closed. The segment's memory must
   * stay allocated until then: close the registration before the segment's arena.
   */
  public static Registration register(MemorySegment segment) {
    Objects.requireNonNull(segment, "segment");
    if (!segment.isNative()) {
      throw new IllegalArgumentException("only native segments can be page-locked (a heap segment moves)");
    }
    if (segment.byteSize() == 0) {
      throw new IllegalArgumentException("segment is empty");
    }
    ConfigChecks.usable(segment, "segment");
    if (!gpuPresent()) {
      return new Registration(0);
    }
    Native.hostRegister(segment.address(), segment.byteSize());
    return new Registration(segment.address());
  }

  private static boolean gpuPresent() {
    return Native.deviceCount() > 0;
  }

  /** A page-locked range; {@link #close} unlocks it (idempotent). */
  public static final class Registration implements AutoCloseable {
    private long address;

    private Registration(long address) {
      this.address = address;
    }

    /** Whether the range is page-locked now (false without a GPU, and after close). */
    public synchronized boolean isPageLocked() {
      return address != 0;
    }

    @Override
    public synchronized void close() {
      if (address != 0) {
        long a = address;
        address = 0;
        Native.check(Native.hostUnregister(a));
      }
    }
  }
}
