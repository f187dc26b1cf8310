package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.wixlib.internal.BulkCall;
import org.wixlib.internal.BulkOp;
import org.wixlib.internal.Native;
import org.wixlib.internal.Status;

/**
 * {@link HashTable}'s Map-shaped calls: bulk calls of one element, under the table's lock, through a
 * small off-heap buffer made on first use (a fresh allocation per call would cost more than the call
 * on the CPU kind). Keys and values travel as raw bits (a 32-bit table uses the low 32); a result of
 * null means "absent".
 */
final class SingleKey {
  private static final long KEY = 0;
  private static final long VALUE = 8;
  private static final long OP = 16;
  private static final long OUTCOME = 17;

  private final Guard guard;
  private final KeyWidth width;
  private MemorySegment buf;  // under the lock

  SingleKey(Guard guard, KeyWidth width) {
    this.guard = guard;
    this.width = width;
  }

  /** The value of key, null when absent (a reserved key: without a native call). */
  Long get(long key) {
    if (width.isReserved(key)) {
      return null;
    }
    guard.acquire();
    try {
      return find(key) ? foundValue() : null;
    } finally {
      guard.release();
    }
  }

  boolean contains(long key) {
    if (width.isReserved(key)) {
      return false;
    }
    guard.acquire();
    try {
      MemorySegment found = at(OUTCOME, 1);
      check(call(BulkOp.CONTAINS, MemorySegment.NULL, key(key), MemorySegment.NULL, found));
      return found.get(JAVA_BYTE, 0) != 0;
    } finally {
      guard.release();
    }
  }

  /** put (assign) or putIfAbsent: the value the key had before, null when it was absent. */
  Long put(long key, long value, boolean assign) {
    if (width.isReserved(key)) {
      throw new InvalidKeyException("key " + key + " is reserved (" + width.reserved + " are reserved)", 0);
    }
    guard.acquire();
    try {
      if (assign) {
        Long previous = find(key) ? foundValue() : null;
        insert(key, value, true);
        return previous;
      }
      if (insert(key, value, false) == Outcome.INSERTED) {
        return null;
      }
      if (!find(key)) {
        throw Status.toException(Status.INTERNAL, "insert reported the key present, then find did not find it");
      }
      return foundValue();
    } finally {
      guard.release();
    }
  }

  /** The value a removed key had, null when it was absent. */
  Long remove(long key) {
    if (width.isReserved(key)) {
      return null;
    }
    guard.acquire();
    try {
      if (!find(key)) {
        return null;
      }
      long previous = foundValue();
      check(call(BulkOp.ERASE, MemorySegment.NULL, key(key), MemorySegment.NULL, at(OUTCOME, 1)));
      return previous;
    } finally {
      guard.release();
    }
  }

  // ---- one-element calls, under the lock ------------------------------------------------------

  private MemorySegment at(long offset, long bytes) {
    if (buf == null) {
      buf = Arena.ofAuto().allocate(32, 8);
    }
    return buf.asSlice(offset, bytes);
  }

  private MemorySegment key(long key) {
    MemorySegment k = at(KEY, width.bytes);
    if (width == KeyWidth.W64) {
      k.set(JAVA_LONG, 0, key);
    } else {
      k.set(JAVA_INT, 0, (int) key);
    }
    return k;
  }

  private MemorySegment value() {
    return at(VALUE, width.bytes);
  }

  /** The value the last successful {@link #find} wrote (a 32-bit table's value sign-extended). */
  private long foundValue() {
    return width == KeyWidth.W64 ? value().get(JAVA_LONG, 0) : value().get(JAVA_INT, 0);
  }

  /** One FIND of a mixed batch: true when present (then {@link #foundValue()} holds its value). */
  private boolean find(long key) {
    MemorySegment k = key(key);
    at(OP, 1).set(JAVA_BYTE, 0, Op.FIND);
    check(call(BulkOp.BATCH, at(OP, 1), k, value(), at(OUTCOME, 1)));
    return at(OUTCOME, 1).get(JAVA_BYTE, 0) == Outcome.FOUND;
  }

  /** Insert (assign: insert-or-assign) of one pair; returns its outcome (INSERTED, PRESENT, ASSIGNED). */
  private byte insert(long key, long value, boolean assign) {
    MemorySegment k = key(key);
    if (width == KeyWidth.W64) {
      value().set(JAVA_LONG, 0, value);
    } else {
      value().set(JAVA_INT, 0, (int) value);
    }
    MemorySegment o = at(OUTCOME, 1);
    int st = call(assign ? BulkOp.INSERT_OR_ASSIGN : BulkOp.INSERT, MemorySegment.NULL, k, value(), o);
    if (st == Status.FULL) {
      throw new TableFullException(Native.error(st).getMessage(), 1);
    }
    check(st);
    return o.get(JAVA_BYTE, 0);
  }

  /** One bulk call of one element on the buffer's columns. */
  private int call(BulkOp op, MemorySegment ops, MemorySegment key, MemorySegment value, MemorySegment out) {
    return Native.bulk(guard.handle(), new BulkCall(op, ops, key, value, out, 1, width.bytes, 0), Native.MEM_HOST);
  }

  private void check(int status) {
    if (status != Status.OK) {
      throw guard.located(Native.error(status));
    }
  }
}
