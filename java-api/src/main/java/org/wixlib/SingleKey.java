package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.UnaryOperator;
import org.wixlib.internal.Native;
import org.wixlib.internal.Status;

/**
 * The native calls behind {@link HashTable}'s Map-shaped methods: bulk calls of one element through
 * a small off-heap buffer the table keeps (a fresh allocation per call would cost more than the call
 * on the CPU kind). Keys and values travel as raw bits (a 32-bit table uses the low 32). Not
 * thread-safe: the table's lock serialises its calls, and the caller has ruled out reserved keys.
 */
final class SingleKey {
  private static final long KEY = 0;
  private static final long VALUE = 8;
  private static final long OP = 16;
  private static final long OUTCOME = 17;

  private final long table;
  private final boolean wide;
  private final UnaryOperator<RuntimeException> located;
  private final MemorySegment buf = Arena.ofAuto().allocate(32, 8);

  /** located: the table's view of a failure (a CPU table's OUT_OF_MEMORY is host memory). */
  SingleKey(long table, int keyBits, UnaryOperator<RuntimeException> located) {
    this.table = table;
    this.wide = keyBits == 64;
    this.located = located;
  }

  private MemorySegment at(long offset, long bytes) {
    return buf.asSlice(offset, bytes);
  }

  private MemorySegment key(long key) {
    if (wide) {
      buf.set(JAVA_LONG, KEY, key);
    } else {
      buf.set(JAVA_INT, KEY, (int) key);
    }
    return at(KEY, wide ? 8 : 4);
  }

  private MemorySegment value() {
    return at(VALUE, wide ? 8 : 4);
  }

  /** The value the last successful {@link #find} wrote (a 32-bit table's value sign-extended). */
  long foundValue() {
    return wide ? buf.get(JAVA_LONG, VALUE) : buf.get(JAVA_INT, VALUE);
  }

  private byte outcome() {
    return buf.get(JAVA_BYTE, OUTCOME);
  }

  /** One FIND of a mixed batch: true when present (then {@link #foundValue()} holds its value). */
  boolean find(long key) {
    MemorySegment k = key(key);
    buf.set(JAVA_BYTE, OP, Op.FIND);
    check(Native.batch(table, at(OP, 1), k, value(), 1, at(OUTCOME, 1), Native.MEM_HOST));
    return outcome() == Outcome.FOUND;
  }

  boolean contains(long key) {
    MemorySegment k = key(key);
    MemorySegment found = at(OUTCOME, 1);
    check(Native.contains(table, k, found, 1, Native.MEM_HOST));
    return found.get(JAVA_BYTE, 0) != 0;
  }

  /** Insert (assign: insert-or-assign) of one pair; returns its outcome (INSERTED, PRESENT, ASSIGNED). */
  byte insert(long key, long value, boolean assign) {
    MemorySegment k = key(key);
    if (wide) {
      buf.set(JAVA_LONG, VALUE, value);
    } else {
      buf.set(JAVA_INT, VALUE, (int) value);
    }
    MemorySegment o = at(OUTCOME, 1);
    int st = assign ? Native.insertOrAssign(table, k, value(), 1, o, Native.MEM_HOST)
        : Native.insert(table, k, value(), 1, o, Native.MEM_HOST);
    if (st == Status.FULL) {
      throw new TableFullException(Native.error(st).getMessage(), 1);
    }
    check(st);
    return outcome();
  }

  /** True when the key was present (and is now removed). */
  boolean erase(long key) {
    MemorySegment k = key(key);
    MemorySegment o = at(OUTCOME, 1);
    check(Native.erase(table, k, 1, o, Native.MEM_HOST));
    return outcome() == Outcome.ERASED;
  }

  private void check(int status) {
    if (status != Status.OK) {
      throw located.apply(Native.error(status));
    }
  }
}
