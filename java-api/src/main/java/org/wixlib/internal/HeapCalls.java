package org.wixlib.internal;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.wixlib.internal.ffi.wixlib_h;

/**
 * The bulk calls with Java arrays passed in place: heap segments ({@link MemorySegment#ofArray})
 * through downcall handles linked with {@link Linker.Option#critical(boolean) critical(true)}, so the
 * library reads keys and writes results straight from and into the arrays, with no off-heap copy in
 * between. The generated bindings' addresses and descriptors are reused; only the linker option
 * differs.
 *
 * <p>A critical call keeps its thread from reaching a safepoint until it returns, so garbage
 * collection waits for it. The facade therefore keeps each call short: at most {@link #MAX_ELEMENTS}
 * elements on GPU tables (a few milliseconds of copies and kernels), fewer on CPU tables (see
 * TableCalls.CPU_SLICE_ELEMENTS). The arrays must be host memory
 * ({@code MEM_HOST}); results are in them when the call returns.
 */
public final class HeapCalls implements ArrayCalls {
  /** Elements per critical call: bounds how long one call holds back safepoints. */
  public static final int MAX_ELEMENTS = 1 << 24;

  /** The one instance (the calls keep no state). */
  public static final HeapCalls IN_PLACE = new HeapCalls();

  private HeapCalls() {}

  /** Linked on first use, after the library is loaded (a table exists). */
  private static final class Handles {
    static final MethodHandle INSERT = link(wixlib_h.wx_insert$address(), wixlib_h.wx_insert$descriptor());
    static final MethodHandle INSERT_OR_ASSIGN =
        link(wixlib_h.wx_insert_or_assign$address(), wixlib_h.wx_insert_or_assign$descriptor());
    static final MethodHandle FIND = link(wixlib_h.wx_find$address(), wixlib_h.wx_find$descriptor());
    static final MethodHandle CONTAINS = link(wixlib_h.wx_contains$address(), wixlib_h.wx_contains$descriptor());
    static final MethodHandle ERASE = link(wixlib_h.wx_erase$address(), wixlib_h.wx_erase$descriptor());
    static final MethodHandle BATCH = link(wixlib_h.wx_batch$address(), wixlib_h.wx_batch$descriptor());
  }

  /** A downcall handle of a library function, linked critical(true) (heap segments allowed). */
  static MethodHandle link(MemorySegment address, FunctionDescriptor d) {
    return Linker.nativeLinker().downcallHandle(address, d, Linker.Option.critical(true));
  }

  private static MemorySegment ptr(long address) {
    return MemorySegment.ofAddress(address);
  }

  /** A critical downcall's throwable as the caller rethrows it (errors pass, checked ones are wrapped). */
  static RuntimeException unexpected(Throwable t) {
    if (t instanceof RuntimeException r) {
      return r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IllegalStateException("critical downcall failed", t);
  }

  @Override
  public int run(long table, BulkCall c) {
    MemorySegment t = ptr(table);
    MemorySegment none = MemorySegment.NULL;
    int mem = Native.MEM_HOST;
    try {
      return switch (c.op()) {
        case INSERT -> (int) Handles.INSERT.invokeExact(t, c.keys(), c.values(), c.n(), c.out(), mem, none);
        case INSERT_OR_ASSIGN ->
            (int) Handles.INSERT_OR_ASSIGN.invokeExact(t, c.keys(), c.values(), c.n(), c.out(), mem, none);
        case FIND -> (int) Handles.FIND.invokeExact(t, c.keys(), c.values(), c.n(), c.notFound(), mem, none);
        case CONTAINS -> (int) Handles.CONTAINS.invokeExact(t, c.keys(), c.out(), c.n(), mem, none);
        case ERASE -> (int) Handles.ERASE.invokeExact(t, c.keys(), c.n(), c.out(), mem, none);
        case BATCH -> (int) Handles.BATCH.invokeExact(t, c.ops(), c.keys(), c.values(), c.n(), c.out(), mem, none);
      };
    } catch (Throwable e) {
      throw unexpected(e);
    }
  }
}
