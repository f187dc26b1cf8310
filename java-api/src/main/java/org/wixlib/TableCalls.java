package org.wixlib;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.wixlib.internal.ArrayCalls;
import org.wixlib.internal.BulkCall;
import org.wixlib.internal.BulkOp;
import org.wixlib.internal.HeapCalls;
import org.wixlib.internal.Native;
import org.wixlib.internal.Status;

/**
 * The one path of a table's bulk calls ({@link BulkOp}), whatever memory the caller holds them in:
 * Java arrays, native segments or device buffers. Each call checks its arguments, takes the table's
 * lock, makes the native call (arrays: a slice at a time) and turns its status into the facade's
 * results and exceptions, as {@link HashTable} documents them.
 */
final class TableCalls {
  /** Elements per call on CPU tables: bounds the table's staging buffer (StagedCalls). */
  static final int CPU_SLICE_ELEMENTS = 1 << 18;

  /** Tests: cut every array call into slices this small (0: the kind's default). */
  static volatile int sliceOverride;

  private final Guard guard;
  private final KeyWidth width;
  private final TableKind kind;
  private final Sharding sharding;
  /** How array slices reach the library: in place (GPU tables) or through a reused buffer (CPU). */
  private final ArrayCalls arrays;

  TableCalls(Guard guard, KeyWidth width, TableKind kind, Sharding sharding, ArrayCalls arrays) {
    this.guard = guard;
    this.width = width;
    this.kind = kind;
    this.sharding = sharding;
    this.arrays = arrays;
  }

  // ---- Java arrays ----------------------------------------------------------------------------

  /**
   * One call on arrays: ops (byte[]), keys and values (int[] or long[], the table's width), out
   * (byte[]: outcomes or found); the ones the op does not use are null, optional ones may be.
   */
  void arrays(BulkOp op, byte[] ops, Object keys, Object values, byte[] out, long notFound) {
    if (op.hasOps) {
      Objects.requireNonNull(ops, "ops");
    }
    Objects.requireNonNull(keys, "keys");
    if (op.values.present() && !op.values.optional()) {
      Objects.requireNonNull(values, op.valuesName);
    }
    if (op.out.present() && !op.out.optional()) {
      Objects.requireNonNull(out, op.outName);
    }
    int n = width.length(keys, "keys", "table");
    if (values != null) {
      Args.sameLength(op.valuesName, width.length(values, op.valuesName, "table"), n);
    }
    if (out != null) {
      Args.sameLength(op.outName, out.length, n);
    }
    if (op.hasOps) {
      Args.sameLength("ops", ops.length, n);
      for (int i = 0; i < n; i++) {
        if (!Op.isValid(ops[i])) {
          throw new InvalidArgumentException("ops[" + i + "] = " + ops[i] + " is not an Op code");
        }
      }
    }
    guard.acquire();
    try {
      if (n == 0) {
        return;
      }
      inSlices(new BulkCall(op, bytes(ops), KeyWidth.heap(keys), values == null ? MemorySegment.NULL
          : KeyWidth.heap(values), bytes(out), n, width.bytes, notFound), hasOutcomes(op, out != null));
    } finally {
      guard.release();
    }
  }

  private static MemorySegment bytes(byte[] a) {
    return a == null ? MemorySegment.NULL : MemorySegment.ofArray(a);
  }

  private int sliceElements() {
    return sliceOverride > 0 ? sliceOverride : kind.isGpu() ? HeapCalls.MAX_ELEMENTS : CPU_SLICE_ELEMENTS;
  }

  /**
   * Runs the call over slices of at most {@link #sliceElements()} elements (GPU tables: one slice for
   * all but huge arrays), like one native call of all n: FULL and INVALID_KEY of a slice are results
   * (its other elements were applied, and so are the next slices'), reported in the caller's outcomes
   * or, without them, thrown after the last slice (the first reserved key's index, else the FULL
   * count); any other failure throws at once.
   */
  private void inSlices(BulkCall call, boolean callerHasOutcomes) {
    long n = call.n();
    long full = 0;
    WixlibException fullError = null;
    long reservedAt = -1;
    WixlibException invalidError = null;
    int slice = sliceElements();
    for (long off = 0; off < n; off += slice) {
      long m = Math.min(slice, n - off);
      BulkCall part = n <= slice ? call : call.slice(off, m);
      int st = call.op().seen(arrays.run(guard.handle(), part));
      if (isResult(st, callerHasOutcomes)) {
        continue;
      }
      WixlibException e = Native.error(st);
      if (st == Status.FULL) {
        full += lastFull();
        fullError = e;
      } else if (st == Status.INVALID_KEY) {
        if (invalidError == null) {
          invalidError = e;
          long at = width.firstReserved(part.keys(), m);
          reservedAt = at < 0 ? -1 : off + at;
        }
      } else {
        throw guard.located(e);
      }
    }
    if (invalidError != null) {
      throw invalidKey(invalidError, reservedAt);
    }
    if (fullError != null) {
      String message = n <= slice ? fullError.getMessage()
          : Status.toException(Status.FULL, full + " of " + n
              + " inserts found no room (table full and not allowed to grow, or out of memory)").getMessage();
      throw new TableFullException(message, full);
    }
  }

  // ---- native segments ------------------------------------------------------------------------

  /** One call on host segments (see {@link #arrays} for which are used); n elements. */
  void segments(BulkOp op, MemorySegment ops, MemorySegment keys, MemorySegment values, MemorySegment out,
      long n, long notFound) {
    ConfigChecks.count(n);
    int w = width.bytes;
    MemorySegment o = op.hasOps ? Args.host(ops, "ops", n) : MemorySegment.NULL;
    MemorySegment k = Args.host(keys, "keys", w * n);
    MemorySegment v = op.values.present()
        ? Args.host(values, op.valuesName, w * n, op.values.optional(), op.values.written()) : MemorySegment.NULL;
    MemorySegment t = op.out.present() ? Args.host(out, op.outName, n, op.out.optional(), true) : MemorySegment.NULL;
    once(new BulkCall(op, o, k, v, t, n, w, notFound), Native.MEM_HOST, k);
  }

  // ---- device buffers -------------------------------------------------------------------------

  /** One call on device buffers (all on one device of the table); n elements. */
  void buffers(BulkOp op, DeviceBuffer ops, DeviceBuffer keys, DeviceBuffer values, DeviceBuffer out,
      long n, long notFound) {
    ConfigChecks.count(n);
    int w = width.bytes;
    try (DeviceArgs d = new DeviceArgs(kind, sharding, "table")) {
      MemorySegment o = op.hasOps ? d.require(ops, "ops", n) : MemorySegment.NULL;
      MemorySegment k = d.require(keys, "keys", w * n);
      MemorySegment v = !op.values.present() ? MemorySegment.NULL
          : op.values.optional() ? d.add(values, op.valuesName, w * n) : d.require(values, op.valuesName, w * n);
      MemorySegment t = !op.out.present() ? MemorySegment.NULL
          : op.out.optional() ? d.add(out, op.outName, n) : d.require(out, op.outName, n);
      once(new BulkCall(op, o, k, v, t, n, w, notFound), Native.MEM_DEVICE, null);
    }
  }

  /**
   * The whole call as one native call on memory mem, under the lock; hostKeys (null for device keys)
   * are scanned for the first reserved key of an INVALID_KEY failure.
   */
  private void once(BulkCall call, int mem, MemorySegment hostKeys) {
    guard.acquire();
    try {
      if (call.n() == 0) {
        return;
      }
      int st = call.op().seen(Native.bulk(guard.handle(), call, mem));
      finish(st, hasOutcomes(call.op(), call.out() != MemorySegment.NULL), hostKeys, call.n());
    } finally {
      guard.release();
    }
  }

  // ---- results --------------------------------------------------------------------------------

  /** Whether the caller takes per-element outcomes (then FULL and INVALID_KEY are results). */
  private static boolean hasOutcomes(BulkOp op, boolean outGiven) {
    return op.out.optional() && outGiven;
  }

  /** Whether status st is a result rather than a failure: OK, or FULL / INVALID_KEY with outcomes. */
  private static boolean isResult(int st, boolean callerHasOutcomes) {
    return st == Status.OK || (callerHasOutcomes && (st == Status.FULL || st == Status.INVALID_KEY));
  }

  /**
   * Turns a call's status into an exception, except FULL / INVALID_KEY when the caller has outcomes.
   * The FULL count comes from the table's stats; hostKeys (null for device keys) are scanned for the
   * first reserved key. Call it right after the native call, under the lock.
   */
  private void finish(int st, boolean callerHasOutcomes, MemorySegment hostKeys, long n) {
    if (isResult(st, callerHasOutcomes)) {
      return;
    }
    WixlibException error = Native.error(st);
    if (st == Status.FULL) {
      throw new TableFullException(error.getMessage(), lastFull());
    }
    if (st == Status.INVALID_KEY) {
      throw invalidKey(error, hostKeys == null ? -1 : width.firstReserved(hostKeys, n));
    }
    throw guard.located(error);
  }

  private static InvalidKeyException invalidKey(WixlibException error, long index) {
    return new InvalidKeyException((index >= 0 ? "reserved key at index " + index + " (the other "
        + "elements were applied): " : "") + error.getMessage(), index);
  }

  /** The FULL count of the table's last call (wx_stats last_full); call it under the lock. */
  private long lastFull() {
    return Native.stats(guard.handle()).lastFull();
  }
}
