package org.wixlib;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.wixlib.internal.Native;
import org.wixlib.internal.Status;

/**
 * The life of one native handle (a table or a join): its lock, which serialises the calls, its
 * closing, and its cleaner, which frees the handle once this guard is unreachable. Every call on the
 * handle runs between {@link #acquire()} and {@link #release()}; the owner holds the only reference
 * to its guard, so the handle lives while a call runs and while the owner is reachable.
 */
final class Guard {
  private final long handle;
  private final String noun;
  private final TableKind kind;
  private final ReentrantLock lock = new ReentrantLock();
  private final Cleaner.Cleanable cleanable;
  private volatile boolean closed;

  /** destroy frees the handle (once; it must not refer to the owner or the guard). */
  Guard(long handle, String noun, TableKind kind, LongConsumer destroy) {
    this.handle = handle;
    this.noun = noun;
    this.kind = kind;
    this.cleanable = Native.CLEANER.register(this, () -> destroy.accept(handle));
  }

  /** The native handle; use it between acquire and release. */
  long handle() {
    return handle;
  }

  boolean isClosed() {
    return closed;
  }

  /** Takes the lock; throws IllegalStateException ("table is closed") once closed. */
  void acquire() {
    lock.lock();
    if (closed) {
      lock.unlock();
      throw new IllegalStateException(noun + " is closed");
    }
  }

  void release() {
    lock.unlock();
    Reference.reachabilityFence(this);
  }

  /** Runs call under the lock, with out-of-memory errors located ({@link #located}). */
  <T> T locked(Supplier<T> call) {
    acquire();
    try {
      return call.get();
    } catch (DeviceOutOfMemoryException e) {
      throw located(e);
    } finally {
      release();
    }
  }

  /** Frees the handle after a running call, then runs also (under the lock); idempotent. */
  void close(Runnable also) {
    lock.lock();
    try {
      if (!closed) {
        closed = true;
        cleanable.clean();
        also.run();
      }
    } finally {
      lock.unlock();
    }
  }

  /** A CPU kind's memory is host memory: its OUT_OF_MEMORY is a HostOutOfMemoryException. */
  RuntimeException located(RuntimeException e) {
    return kind.isGpu() ? e : Status.onHost(e);
  }
}
