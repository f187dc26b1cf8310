package org.wixlib;

import java.lang.foreign.MemorySegment;

/**
 * The device buffers of one call: checks their size and device (one device of the table or join,
 * the same for all buffers of the call) and keeps them open (read-locked) until {@link #close()}.
 */
final class DeviceArgs implements AutoCloseable {
  private final TableKind kind;
  private final Sharding sharding;
  private final String owner;
  private final DeviceBuffer[] held = new DeviceBuffer[5];
  private int count;
  private int device = -1;

  /** owner: "table" or "join", as errors name it. */
  DeviceArgs(TableKind kind, Sharding sharding, String owner) {
    this.kind = kind;
    this.sharding = sharding;
    this.owner = owner;
  }

  /** A required buffer of at least bytes. */
  MemorySegment require(DeviceBuffer b, String name, long bytes) {
    java.util.Objects.requireNonNull(b, name);
    return add(b, name, bytes);
  }

  /** An optional buffer (null: MemorySegment.NULL) of at least bytes. */
  MemorySegment add(DeviceBuffer b, String name, long bytes) {
    if (b == null) {
      return MemorySegment.NULL;
    }
    if (b.byteSize() < bytes) {
      throw new InvalidArgumentException(name + " holds " + b.byteSize() + " bytes; needs " + bytes);
    }
    if (kind.isGpu() && !sharding.holds(b.device())) {
      throw new InvalidArgumentException(name + " lives on device " + b.device() + " but the " + owner + " on " + sharding.where());
    }
    if (device >= 0 && b.device() != device) {
      throw new InvalidArgumentException(name + " lives on device " + b.device()
          + ", the other buffers on device " + device);
    }
    device = b.device();
    MemorySegment s = b.acquire();
    held[count++] = b;
    return s;
  }

  @Override
  public void close() {
    for (int i = count - 1; i >= 0; i--) {
      held[i].release();
    }
    count = 0;
  }
}
