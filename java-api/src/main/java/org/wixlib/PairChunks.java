package org.wixlib;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.wixlib.internal.Native;
import org.wixlib.internal.Status;

/**
 * Every pair of a table at one instant, handed out in chunks of native host memory ({@link
 * HashTable#forEach}'s source). A GPU table's pairs are copied into device memory under the table's
 * lock and come to the host one chunk at a time, so the host holds one chunk, however large the table;
 * on the CPU kind (whose table is host memory already), and where the device lacks the room, they are
 * copied into native host memory at once.
 */
final class PairChunks {
  private PairChunks() {}

  /** Pairs per device-to-host copy (tests make it smaller to cross chunk edges). */
  static volatile int devicePairs = 1 << 16;

  /** Receives count pairs: keys and values of the table's width, in native memory valid for the call. */
  interface Chunk {
    void accept(MemorySegment keys, MemorySegment values, long count);
  }

  /** Hands every pair of the table to chunk, in order of the copy; the lock is not held meanwhile. */
  static void each(HashTable table, Chunk chunk) {
    int w = table.keyBits() / 8;
    if (table.kind().isGpu()) {
      OnDevice d = table.copyPairsToDevice();
      if (d != null) {
        try (d; Arena a = Arena.ofConfined()) {
          int step = devicePairs;
          MemorySegment k = a.allocate((long) w * step, 8), v = a.allocate((long) w * step, 8);
          for (long off = 0; off < d.count(); off += step) {
            long m = Math.min(step, d.count() - off);
            d.copyOut(off, m, w, k, v);
            chunk.accept(k, v, m);
          }
        }
        return;
      }
    }
    try (Arena a = Arena.ofConfined()) {
      HashTable.Copy c = table.copyPairs(a, Long.MAX_VALUE, "");
      chunk.accept(c.keys(), c.values(), c.count());
    }
  }

  /** A table's pairs in device memory (null buffers when there are none); closing frees them. */
  record OnDevice(DeviceBuffer keys, DeviceBuffer values, long count) implements AutoCloseable {
    /** Copies pairs [off, off + m) into the host segments k and v. */
    void copyOut(long off, long m, int w, MemorySegment k, MemorySegment v) {
      copy(keys, off * w, k, m * w);
      copy(values, off * w, v, m * w);
    }

    private static void copy(DeviceBuffer b, long at, MemorySegment host, long bytes) {
      MemorySegment dev = b.acquire();
      try {
        Native.copy(host, Native.MEM_HOST, MemorySegment.ofAddress(dev.address() + at), Native.MEM_DEVICE, bytes);
      } finally {
        b.release();
      }
    }

    @Override
    public void close() {
      if (keys != null) {
        keys.close();
      }
      if (values != null) {
        values.close();
      }
    }
  }

  /** Fails unless wx_retrieve_all wrote as many pairs as the table held. */
  static void check(long written, long size) {
    if (written != size) {
      throw Status.toException(Status.INTERNAL, "wx_retrieve_all returned " + written + " pairs but wx_size said "
          + size);
    }
  }
}
