package org.wixlib.internal;

import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.wixlib.internal.ffi.wixlib_h;

/**
 * The join calls that take columns, each returning the native status: {@link #NATIVE} for native or
 * device memory (the generated bindings), {@link #IN_PLACE} for Java arrays passed as heap segments
 * ({@code MEM_HOST}) through downcalls linked {@link Linker.Option#critical(boolean) critical(true)}.
 *
 * <p>In place is for the GPU kinds: the library stages the arrays through page-locked memory it
 * keeps, overlapping the copies with the transfers, so a call allocates nothing and copies each byte
 * once. A critical call holds back garbage collection until it returns (on the GPU kinds about
 * 0.3 ms per million rows moved). The CPU kind's joins run longer and use native copies instead.
 */
public interface JoinCalls {
  int create(MemorySegment config, int build, MemorySegment keys, long n, int mem, MemorySegment out);

  int count(long join, MemorySegment keys, MemorySegment hashes, long n, int mem, MemorySegment out);

  int probe(long join, MemorySegment keys, MemorySegment hashes, long n, MemorySegment probeRows,
      MemorySegment buildRows, long capacity, int mem, MemorySegment out);

  int semi(long join, MemorySegment keys, MemorySegment hashes, long n, int anti, MemorySegment rows, int mem,
      MemorySegment out);

  /** Native or device memory, through the generated bindings. */
  JoinCalls NATIVE = new JoinCalls() {
    @Override
    public int create(MemorySegment config, int build, MemorySegment keys, long n, int mem, MemorySegment out) {
      return wixlib_h.wx_join_create(config, build, keys, n, mem, MemorySegment.NULL, out);
    }

    @Override
    public int count(long join, MemorySegment keys, MemorySegment hashes, long n, int mem, MemorySegment out) {
      return wixlib_h.wx_join_count(ptr(join), keys, hashes, n, out, mem, MemorySegment.NULL);
    }

    @Override
    public int probe(long join, MemorySegment keys, MemorySegment hashes, long n, MemorySegment probeRows,
        MemorySegment buildRows, long capacity, int mem, MemorySegment out) {
      return wixlib_h.wx_join_probe(ptr(join), keys, hashes, n, probeRows, buildRows, capacity, out,
          mem, MemorySegment.NULL);
    }

    @Override
    public int semi(long join, MemorySegment keys, MemorySegment hashes, long n, int anti, MemorySegment rows,
        int mem, MemorySegment out) {
      return wixlib_h.wx_join_semi(ptr(join), keys, hashes, n, anti, rows, out, mem,
          MemorySegment.NULL);
    }
  };

  /** Java arrays (heap segments) or native memory, read and written in place by critical downcalls. */
  JoinCalls IN_PLACE = new JoinCalls() {
    @Override
    public int create(MemorySegment config, int build, MemorySegment keys, long n, int mem, MemorySegment out) {
      try {
        return (int) Critical.CREATE.invokeExact(config, build, keys, n, mem, MemorySegment.NULL, out);
      } catch (Throwable t) {
        throw HeapCalls.unexpected(t);
      }
    }

    @Override
    public int count(long join, MemorySegment keys, MemorySegment hashes, long n, int mem, MemorySegment out) {
      try {
        return (int) Critical.COUNT.invokeExact(ptr(join), keys, hashes, n, out, mem,
            MemorySegment.NULL);
      } catch (Throwable t) {
        throw HeapCalls.unexpected(t);
      }
    }

    @Override
    public int probe(long join, MemorySegment keys, MemorySegment hashes, long n, MemorySegment probeRows,
        MemorySegment buildRows, long capacity, int mem, MemorySegment out) {
      try {
        return (int) Critical.PROBE.invokeExact(ptr(join), keys, hashes, n, probeRows, buildRows, capacity, out,
            mem, MemorySegment.NULL);
      } catch (Throwable t) {
        throw HeapCalls.unexpected(t);
      }
    }

    @Override
    public int semi(long join, MemorySegment keys, MemorySegment hashes, long n, int anti, MemorySegment rows,
        int mem, MemorySegment out) {
      try {
        return (int) Critical.SEMI.invokeExact(ptr(join), keys, hashes, n, anti, rows, out, mem,
            MemorySegment.NULL);
      } catch (Throwable t) {
        throw HeapCalls.unexpected(t);
      }
    }
  };

  private static MemorySegment ptr(long address) {
    return MemorySegment.ofAddress(address);
  }

  /** Linked on first use, after the library is loaded (as {@link HeapCalls} links the table calls). */
  final class Critical {
    private Critical() {}

    static final MethodHandle CREATE =
        HeapCalls.link(wixlib_h.wx_join_create$address(), wixlib_h.wx_join_create$descriptor());
    static final MethodHandle COUNT =
        HeapCalls.link(wixlib_h.wx_join_count$address(), wixlib_h.wx_join_count$descriptor());
    static final MethodHandle PROBE =
        HeapCalls.link(wixlib_h.wx_join_probe$address(), wixlib_h.wx_join_probe$descriptor());
    static final MethodHandle SEMI =
        HeapCalls.link(wixlib_h.wx_join_semi$address(), wixlib_h.wx_join_semi$descriptor());
  }
}
