package org.wixlib;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.wixlib.internal.Native;

/**
 * Device (GPU) memory owned from Java. Its address is never exposed as a host-dereferenceable
 * {@link MemorySegment}: data moves in and out only through the copy methods, and the buffer is
 * passed to {@link HashTable}'s DeviceBuffer overloads (which pass {@code WX_MEM_DEVICE}).
 *
 * <p>Copies go to / come from the start of the buffer. Host {@code MemorySegment}s must be native
 * (off-heap) memory; heap segments are rejected with {@link InvalidArgumentException} (use the array
 * overloads for heap data).
 *
 * <p>Thread-safe: several threads may use a buffer at once; {@link #close()} waits until calls that
 * use the buffer have finished, then frees it (idempotent). A buffer never closed is freed when it
 * becomes unreachable.
 */
public final class DeviceBuffer implements AutoCloseable {
  private final int device;
  private final long byteSize;
  private final long address;
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Cleaner.Cleanable cleanable;
  private boolean closed;

  private DeviceBuffer(int device, long byteSize, long address) {
    this.device = device;
    this.byteSize = byteSize;
    this.address = address;
    this.cleanable = address == 0 ? null : Native.CLEANER.register(this, new Free(address));
  }

  /** Frees the device memory once; holds no reference to the buffer. */
  private record Free(long address) implements Runnable {
    @Override
    public void run() {
      Native.deviceFree(address);
    }
  }

  /** Allocates {@code bytes} of memory on CUDA device {@code device} (contents undefined). */
  public static DeviceBuffer allocate(int device, long bytes) {
    ConfigChecks.device(device);
    if (bytes < 0) {
      throw new InvalidArgumentException("bytes must be >= 0, got " + bytes);
    }
    Native.ensureLoaded();
    long address = bytes == 0 ? 0 : Native.deviceAlloc(device, bytes);
    return new DeviceBuffer(device, bytes, address);
  }

  /** A buffer on {@code device} holding a copy of {@code data}. */
  public static DeviceBuffer ofInts(int device, int[] data) {
    return copyOf(device, MemorySegment.ofArray(Objects.requireNonNull(data, "data")));
  }

  /** A buffer on {@code device} holding a copy of {@code data} (keys or values of 64-bit tables). */
  public static DeviceBuffer ofLongs(int device, long[] data) {
    return copyOf(device, MemorySegment.ofArray(Objects.requireNonNull(data, "data")));
  }

  /** A buffer on {@code device} holding a copy of {@code data}. */
  public static DeviceBuffer ofBytes(int device, byte[] data) {
    return copyOf(device, MemorySegment.ofArray(Objects.requireNonNull(data, "data")));
  }

  /** A new buffer as large as {@code src}, holding a copy of it; freed again if the copy fails. */
  private static DeviceBuffer copyOf(int device, MemorySegment src) {
    DeviceBuffer b = allocate(device, src.byteSize());
    try {
      b.copyFromHost(src, src.byteSize());
    } catch (RuntimeException e) {
      b.close();
      throw e;
    }
    return b;
  }

  public long byteSize() {
    return byteSize;
  }

  /** The CUDA device ordinal the memory lives on. */
  public int device() {
    return device;
  }

  public boolean isClosed() {
    lock.readLock().lock();
    try {
      return closed;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Copies {@code src} to the start of the buffer. */
  public void copyFrom(int[] src) {
    Objects.requireNonNull(src, "src");
    copyFromHost(MemorySegment.ofArray(src), 4L * src.length);
  }

  /** Copies {@code src} to the start of the buffer. */
  public void copyFrom(long[] src) {
    Objects.requireNonNull(src, "src");
    copyFromHost(MemorySegment.ofArray(src), 8L * src.length);
  }

  /** Copies {@code src} to the start of the buffer. */
  public void copyFrom(byte[] src) {
    Objects.requireNonNull(src, "src");
    copyFromHost(MemorySegment.ofArray(src), src.length);
  }

  /** Copies the first {@code dst.length} ints of the buffer into {@code dst}. */
  public void copyTo(int[] dst) {
    Objects.requireNonNull(dst, "dst");
    copyToHost(MemorySegment.ofArray(dst), 4L * dst.length);
  }

  /** Copies the first {@code dst.length} longs of the buffer into {@code dst}. */
  public void copyTo(long[] dst) {
    Objects.requireNonNull(dst, "dst");
    copyToHost(MemorySegment.ofArray(dst), 8L * dst.length);
  }

  /** Copies the first {@code dst.length} bytes of the buffer into {@code dst}. */
  public void copyTo(byte[] dst) {
    Objects.requireNonNull(dst, "dst");
    copyToHost(MemorySegment.ofArray(dst), dst.length);
  }

  /** Copies all of {@code hostSrc} (native host memory) to the start of the buffer. */
  public void copyFrom(MemorySegment hostSrc) {
    checkHost(hostSrc, "hostSrc");
    copyFromHost(hostSrc, hostSrc.byteSize());
  }

  /** Fills all of {@code hostDst} (native host memory) from the start of the buffer. */
  public void copyTo(MemorySegment hostDst) {
    checkHost(hostDst, "hostDst");
    if (hostDst.isReadOnly()) {
      throw new InvalidArgumentException("hostDst is read-only");
    }
    copyToHost(hostDst, hostDst.byteSize());
  }

  private static void checkHost(MemorySegment s, String name) {
    Objects.requireNonNull(s, name);
    if (!s.isNative()) {
      throw new InvalidArgumentException(name + " is a heap segment; pass native (off-heap) memory");
    }
    ConfigChecks.usable(s, name);
  }

  private void checkFits(long bytes) {
    if (bytes > byteSize) {
      throw new InvalidArgumentException("copy of " + bytes + " bytes does not fit a device buffer of "
          + byteSize + " bytes");
    }
  }

  // Heap arrays are staged through a confined arena: native code never sees a heap address.
  private void copyFromHost(MemorySegment src, long bytes) {
    withDevice(bytes, dev -> {
      if (src.isNative()) {
        Native.copy(dev, Native.MEM_DEVICE, src, Native.MEM_HOST, bytes);
        return;
      }
      try (var arena = java.lang.foreign.Arena.ofConfined()) {
        MemorySegment tmp = arena.allocate(bytes, 8);
        MemorySegment.copy(src, 0, tmp, 0, bytes);
        Native.copy(dev, Native.MEM_DEVICE, tmp, Native.MEM_HOST, bytes);
      }
    });
  }

  private void copyToHost(MemorySegment dst, long bytes) {
    withDevice(bytes, dev -> {
      if (dst.isNative()) {
        Native.copy(dst, Native.MEM_HOST, dev, Native.MEM_DEVICE, bytes);
        return;
      }
      try (var arena = java.lang.foreign.Arena.ofConfined()) {
        MemorySegment tmp = arena.allocate(bytes, 8);
        Native.copy(tmp, Native.MEM_HOST, dev, Native.MEM_DEVICE, bytes);
        MemorySegment.copy(tmp, ValueLayout.JAVA_BYTE, 0, dst, ValueLayout.JAVA_BYTE, 0, bytes);
      }
    });
  }

  /** Checks the size, holds the buffer open for the copy, and skips empty copies. */
  private void withDevice(long bytes, java.util.function.Consumer<MemorySegment> copy) {
    checkFits(bytes);
    MemorySegment dev = acquire();
    try {
      if (bytes > 0) {
        copy.accept(dev);
      }
    } finally {
      release();
    }
  }

  /**
   * Pins the buffer open for one native call and returns its address as a zero-length segment (only
   * ever passed to native code). Pair with {@link #release()}.
   */
  MemorySegment acquire() {
    lock.readLock().lock();
    if (closed) {
      lock.readLock().unlock();
      throw new IllegalStateException("device buffer is closed");
    }
    return MemorySegment.ofAddress(address);
  }

  void release() {
    lock.readLock().unlock();
    Reference.reachabilityFence(this);
  }

  /** Frees the device memory; waits for calls using the buffer; idempotent. */
  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (cleanable != null) {
        cleanable.clean();
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public String toString() {
    return "DeviceBuffer[device=" + device + ", bytes=" + byteSize + (isClosed() ? ", closed" : "") + "]";
  }
}
