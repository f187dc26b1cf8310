package org.wixlib.internal;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The asynchronous calls of one table or join: they run one at a time, in the order they were
 * submitted, on one daemon thread of this queue. The thread starts with the first call, and ends when
 * the owner is closed or after {@code idleNanos} without a call (the next call starts a new one), so a
 * queue holds no thread while idle and an owner that is never closed is not kept alive for long.
 *
 * <p>A queue per owner, not a shared pool: a native call blocks its thread for the whole call (copies,
 * kernels, the wait for the stream), and the library serialises the calls of one table anyway; so one
 * thread per busy owner lets every owner's calls proceed without waiting for another's, and keeps each
 * owner's order with no further bookkeeping. Platform threads: a downcall pins a virtual thread's carrier.
 *
 * <p>Futures: {@link CompletableFuture#cancel} succeeds only before the call starts (the call then never
 * runs); a future completed by anyone before its call starts skips the call too. Once the owner reports
 * closed, calls not yet started complete exceptionally with {@code closedError} without running.
 */
public final class CallQueue {
  /** How long an idle thread waits for the next call before it ends. */
  public static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);
  /** How often an idle thread looks whether its owner was closed (close() does not signal it). */
  static final long CLOSED_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

  private static final AtomicLong IDS = new AtomicLong();

  private final String threadName;
  private final BooleanSupplier ownerClosed;
  private final Supplier<RuntimeException> closedError;
  private final long idleNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition added = lock.newCondition();
  private final ArrayDeque<Call<?>> queue = new ArrayDeque<>();
  private Thread worker;  // the thread running calls, null when none (under lock)
  private final AtomicLong started = new AtomicLong();

  /**
   * owner: names the thread ("wixlib-async-" + owner + "-" + a number); ownerClosed: whether the owner
   * was closed (read from the queue's thread); closedError: what calls left behind by a close fail with.
   */
  public CallQueue(String owner, BooleanSupplier ownerClosed, Supplier<RuntimeException> closedError,
      long idleNanos) {
    this.threadName = "wixlib-async-" + owner + "-" + IDS.incrementAndGet();
    this.ownerClosed = ownerClosed;
    this.closedError = closedError;
    this.idleNanos = idleNanos;
  }

  /** The name of this queue's thread (whenever it runs). */
  public String threadName() {
    return threadName;
  }

  /** Calls started so far (tests watch it). */
  public long started() {
    return started.get();
  }

  /** Queues {@code call}; the future completes with its result or the exception it throws. */
  public <T> CompletableFuture<T> call(Supplier<T> call) {
    if (ownerClosed.getAsBoolean()) {
      return CompletableFuture.failedFuture(closedError.get());
    }
    Call<T> c = new Call<>(this, call);
    lock.lock();
    try {
      queue.add(c);
      if (worker == null) {
        worker = Thread.ofPlatform().daemon().name(threadName).unstarted(this::work);
        worker.start();
      } else {
        added.signal();
      }
    } finally {
      lock.unlock();
    }
    return c;
  }

  /** Queues {@code call}; the future completes with {@code result} once it returned. */
  public <T> CompletableFuture<T> run(Runnable call, T result) {
    return call(() -> {
      call.run();
      return result;
    });
  }

  /** The queue's thread: runs calls until the owner is closed or no call came for idleNanos. */
  private void work() {
    while (true) {
      Call<?> c = next();
      if (c == null) {
        return;
      }
      if (ownerClosed.getAsBoolean()) {
        c.fail(closedError.get());
      } else {
        c.execute();
      }
    }
  }

  /** The next call; null (and the thread is forgotten) when idle too long or when closed and empty. */
  private Call<?> next() {
    lock.lock();
    try {
      long left = idleNanos;
      while (queue.isEmpty()) {
        if (left <= 0 || ownerClosed.getAsBoolean()) {
          worker = null;
          return null;
        }
        long wait = Math.min(left, CLOSED_POLL_NANOS);
        long rest;
        try {
          rest = added.awaitNanos(wait);
        } catch (InterruptedException e) {
          rest = 0;  // interrupts are ignored: the thread ends by idling or by its owner's close
        }
        left -= wait - Math.max(rest, 0);
      }
      return queue.poll();
    } finally {
      lock.unlock();
    }
  }

  private void remove(Call<?> c) {
    lock.lock();
    try {
      queue.remove(c);
    } finally {
      lock.unlock();
    }
  }

  /** One queued call and its future. */
  private static final class Call<T> extends CompletableFuture<T> {
    private static final int QUEUED = 0, RUNNING = 1, CANCELLED = 2;
    private final AtomicInteger state = new AtomicInteger(QUEUED);
    private final CallQueue queue;
    private Supplier<T> body;  // dropped once run, so the call's arrays are not kept

    Call(CallQueue queue, Supplier<T> body) {
      this.queue = queue;
      this.body = body;
    }

    void execute() {
      if (!state.compareAndSet(QUEUED, RUNNING) || isDone()) {
        body = null;
        return;
      }
      queue.started.incrementAndGet();
      Supplier<T> b = body;
      body = null;
      try {
        complete(b.get());
      } catch (Throwable t) {
        completeExceptionally(t);
      }
    }

    void fail(RuntimeException e) {
      body = null;
      if (state.compareAndSet(QUEUED, RUNNING)) {
        completeExceptionally(e);
      }
    }

    /** Succeeds only before the call started: it then never runs. A running call completes. */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      if (!state.compareAndSet(QUEUED, CANCELLED)) {
        return isCancelled();
      }
      queue.remove(this);
      return super.cancel(mayInterruptIfRunning);
    }
  }
}
