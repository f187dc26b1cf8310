package org.wixlib.cli.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.wixlib.DeviceBuffer;
import org.wixlib.PinnedMemory;

/**
 * The memory of one {@link MemoryPath}: copies of host arrays placed there (int[], long[] or byte[] in;
 * an int[]/long[]/byte[], a MemorySegment or a DeviceBuffer out, what {@link BulkCalls} hands to the
 * matching HashTable overload), room for results, and results read back into arrays for the checks.
 * Closing it frees everything it placed.
 */
abstract sealed class Placement implements AutoCloseable {
  /** Element types of result room. */
  enum Elem {
    BYTE(1), INT(4), LONG(8);

    final int bytes;

    Elem(int bytes) {
      this.bytes = bytes;
    }
  }

  /** A copy of the array (int[], long[] or byte[]) in this memory. */
  abstract Object place(Object array);

  /** Room for n elements in this memory. */
  abstract Object room(Elem e, int n);

  /** Copies the placed elements into dst (an array of the same type and length). */
  abstract void read(Object placed, Object dst);

  /** Overwrites the placed elements with src (an array of the same type and length). */
  abstract void write(Object placed, Object src);

  @Override
  public abstract void close();

  static int length(Object array) {
    return switch (array) {
      case int[] a -> a.length;
      case long[] a -> a.length;
      case byte[] a -> a.length;
      default -> throw new IllegalArgumentException("not an int[], long[] or byte[]: " + array.getClass());
    };
  }

  static Elem elem(Object array) {
    return switch (array) {
      case int[] a -> Elem.INT;
      case long[] a -> Elem.LONG;
      case byte[] a -> Elem.BYTE;
      default -> throw new IllegalArgumentException("not an int[], long[] or byte[]: " + array.getClass());
    };
  }

  /** Java arrays on the heap. */
  static final class Heap extends Placement {
    @Override
    Object place(Object array) {
      return switch (array) {
        case int[] a -> a.clone();
        case long[] a -> a.clone();
        case byte[] a -> a.clone();
        default -> throw new IllegalArgumentException("not an int[], long[] or byte[]: " + array.getClass());
      };
    }

    @Override
    Object room(Elem e, int n) {
      return switch (e) {
        case BYTE -> new byte[n];
        case INT -> new int[n];
        case LONG -> new long[n];
      };
    }

    @Override
    void read(Object placed, Object dst) {
      System.arraycopy(placed, 0, dst, 0, length(dst));
    }

    @Override
    void write(Object placed, Object src) {
      System.arraycopy(src, 0, placed, 0, length(src));
    }

    @Override
    public void close() {}
  }

  /** Native segments of one arena: ordinary or page-locked. */
  static final class Segments extends Placement {
    private final Arena arena = Arena.ofShared(); // the library may hand segments to its own threads
    private final boolean pageLocked;

    private Segments(boolean pageLocked) {
      this.pageLocked = pageLocked;
    }

    static Segments ordinary() {
      return new Segments(false);
    }

    static Segments pageLocked() {
      return new Segments(true);
    }

    @Override
    Object place(Object array) {
      MemorySegment s = allocate(elem(array), length(array));
      write(s, array);
      return s;
    }

    @Override
    Object room(Elem e, int n) {
      return allocate(e, n);
    }

    private MemorySegment allocate(Elem e, int n) {
      long bytes = Math.max(1L, (long) e.bytes * n);
      return pageLocked ? PinnedMemory.allocate(arena, bytes) : arena.allocate(bytes, 64);
    }

    @Override
    void read(Object placed, Object dst) {
      MemorySegment s = (MemorySegment) placed;
      switch (dst) {
        case int[] a -> MemorySegment.copy(s, ValueLayout.JAVA_INT, 0, a, 0, a.length);
        case long[] a -> MemorySegment.copy(s, ValueLayout.JAVA_LONG, 0, a, 0, a.length);
        case byte[] a -> MemorySegment.copy(s, ValueLayout.JAVA_BYTE, 0, a, 0, a.length);
        default -> throw new IllegalArgumentException("not an int[], long[] or byte[]: " + dst.getClass());
      }
    }

    @Override
    void write(Object placed, Object src) {
      MemorySegment s = (MemorySegment) placed;
      switch (src) {
        case int[] a -> MemorySegment.copy(a, 0, s, ValueLayout.JAVA_INT, 0, a.length);
        case long[] a -> MemorySegment.copy(a, 0, s, ValueLayout.JAVA_LONG, 0, a.length);
        case byte[] a -> MemorySegment.copy(a, 0, s, ValueLayout.JAVA_BYTE, 0, a.length);
        default -> throw new IllegalArgumentException("not an int[], long[] or byte[]: " + src.getClass());
      }
    }

    @Override
    public void close() {
      arena.close();
    }
  }

  /** Device buffers on one GPU. */
  static final class Device extends Placement {
    private final int device;
    private final List<DeviceBuffer> buffers = new ArrayList<>();

    Device(int device) {
      this.device = device;
    }

    @Override
    Object place(Object array) {
      DeviceBuffer b = switch (array) {
        case int[] a -> DeviceBuffer.ofInts(device, a);
        case long[] a -> DeviceBuffer.ofLongs(device, a);
        case byte[] a -> DeviceBuffer.ofBytes(device, a);
        default -> throw new IllegalArgumentException("not an int[], long[] or byte[]: " + array.getClass());
      };
      buffers.add(b);
      return b;
    }

    @Override
    Object room(Elem e, int n) {
      DeviceBuffer b = DeviceBuffer.allocate(device, Math.max(1L, (long) e.bytes * n));
      buffers.add(b);
      return b;
    }

    @Override
    void read(Object placed, Object dst) {
      DeviceBuffer b = (DeviceBuffer) placed;
      switch (dst) {
        case int[] a -> b.copyTo(a);
        case long[] a -> b.copyTo(a);
        case byte[] a -> b.copyTo(a);
        default -> throw new IllegalArgumentException("not an int[], long[] or byte[]: " + dst.getClass());
      }
    }

    @Override
    void write(Object placed, Object src) {
      DeviceBuffer b = (DeviceBuffer) placed;
      switch (src) {
        case int[] a -> b.copyFrom(a);
        case long[] a -> b.copyFrom(a);
        case byte[] a -> b.copyFrom(a);
        default -> throw new IllegalArgumentException("not an int[], long[] or byte[]: " + src.getClass());
      }
    }

    @Override
    public void close() {
      for (DeviceBuffer b : buffers) {
        b.close();
      }
      buffers.clear();
    }
  }
}
