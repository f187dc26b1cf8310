package org.wixlib.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The ordering, cancellation, close and thread rules of the asynchronous calls' queue. */
class CallQueueTest {
  private final AtomicBoolean closed = new AtomicBoolean();

  private CallQueue queue(long idleNanos) {
    return new CallQueue("test", closed::get, () -> new IllegalStateException("owner is closed"), idleNanos);
  }

  /** Whether a live thread has this name. */
  static boolean threadAlive(String name) {
    return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
  }

  /** Waits up to 5 s for the named thread to end; true when it did. */
  static boolean threadEnds(String name) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (threadAlive(name)) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }

  /** Occupies the queue's thread until the returned latch is counted down. */
  private static CountDownLatch block(CallQueue q) throws InterruptedException {
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    q.run(() -> {
      running.countDown();
      await(release);
    }, null);
    assertTrue(running.await(5, TimeUnit.SECONDS), "the blocking call started");
    return release;
  }

  private static void await(CountDownLatch l) {
    try {
      assertTrue(l.await(10, TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void callsRunInSubmissionOrderOnTheQueuesThread() {
    CallQueue q = queue(CallQueue.IDLE_NANOS);
    List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
    List<String> threads = Collections.synchronizedList(new ArrayList<>());
    List<CompletableFuture<Integer>> fs = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      int v = i;
      fs.add(q.call(() -> {
        seen.add(v);
        threads.add(Thread.currentThread().getName());
        return v * 2;
      }));
    }
    for (int i = 0; i < fs.size(); i++) {
      assertEquals(2 * i, fs.get(i).join());
    }
    for (int i = 0; i < seen.size(); i++) {
      assertEquals(i, seen.get(i));
    }
    assertEquals(2000, seen.size());
    assertTrue(threads.stream().allMatch(q.threadName()::equals), "every call on " + q.threadName());
    assertTrue(q.threadName().startsWith("wixlib-async-test-"));
    assertEquals(2000, q.started());
  }

  @Test
  void eachSubmittersCallsKeepTheirOrder() throws Exception {
    CallQueue q = queue(CallQueue.IDLE_NANOS);
    int threads = 4, per = 1000;
    List<int[]> seen = Collections.synchronizedList(new ArrayList<>());
    List<Thread> ts = new ArrayList<>();
    List<CompletableFuture<Void>> fs = Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < threads; t++) {
      int id = t;
      ts.add(Thread.ofPlatform().start(() -> {
        for (int i = 0; i < per; i++) {
          int s = i;
          fs.add(q.run(() -> seen.add(new int[] {id, s}), null));
        }
      }));
    }
    for (Thread t : ts) {
      t.join();
    }
    CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    int[] next = new int[threads];
    for (int[] e : seen) {
      assertEquals(next[e[0]]++, e[1], "submitter " + e[0]);
    }
    for (int n : next) {
      assertEquals(per, n);
    }
  }

  @Test
  void cancelBeforeTheStartMeansTheCallNeverRuns() throws Exception {
    CallQueue q = queue(CallQueue.IDLE_NANOS);
    CountDownLatch release = block(q);
    AtomicInteger ran = new AtomicInteger();
    CompletableFuture<Integer> cancelled = q.call(ran::incrementAndGet);
    CompletableFuture<Integer> completedByCaller = q.call(ran::incrementAndGet);
    CompletableFuture<Integer> after = q.call(() -> 7);
    assertTrue(cancelled.cancel(false));
    assertTrue(cancelled.cancel(true), "cancel again: still cancelled");
    assertTrue(completedByCaller.complete(-1));
    release.countDown();
    assertEquals(7, after.get(5, TimeUnit.SECONDS));
    assertTrue(cancelled.isCancelled());
    assertEquals(-1, completedByCaller.join());
    assertEquals(0, ran.get(), "neither call ran");
    assertEquals(2, q.started(), "the blocking call and the last");
  }

  @Test
  void aRunningCallCannotBeCancelledAndCompletes() throws Exception {
    CallQueue q = queue(CallQueue.IDLE_NANOS);
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<String> f = q.call(() -> {
      running.countDown();
      await(release);
      return "done";
    });
    assertTrue(running.await(5, TimeUnit.SECONDS));
    assertFalse(f.cancel(true));
    assertFalse(f.isCancelled());
    release.countDown();
    assertEquals("done", f.get(5, TimeUnit.SECONDS));
  }

  @Test
  void theCallsExceptionIsTheFuturesCause() throws Exception {
    CallQueue q = queue(CallQueue.IDLE_NANOS);
    IllegalArgumentException thrown = new IllegalArgumentException("bad");
    CompletableFuture<Object> f = q.call(() -> {
      throw thrown;
    });
    ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(5, TimeUnit.SECONDS));
    assertSame(thrown, e.getCause());
    assertSame(thrown, assertThrows(CompletionException.class, f::join).getCause());
    assertEquals(5, q.call(() -> 5).get(5, TimeUnit.SECONDS), "the queue goes on after a failure");
  }

  @Test
  void callsLeftBehindByACloseFailAndTheThreadEnds() throws Exception {
    CallQueue q = queue(TimeUnit.SECONDS.toNanos(60));  // ends by the close, not by idling
    CountDownLatch release = block(q);
    AtomicInteger ran = new AtomicInteger();
    List<CompletableFuture<Integer>> queued = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      queued.add(q.call(ran::incrementAndGet));
    }
    closed.set(true);
    release.countDown();
    for (CompletableFuture<Integer> f : queued) {
      ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(5, TimeUnit.SECONDS));
      assertInstanceOf(IllegalStateException.class, e.getCause());
      assertEquals("owner is closed", e.getCause().getMessage());
    }
    assertEquals(0, ran.get());
    assertTrue(threadEnds(q.threadName()), "the queue's thread ended");
    CompletableFuture<Integer> late = q.call(ran::incrementAndGet);
    assertInstanceOf(IllegalStateException.class, assertThrows(CompletionException.class, late::join).getCause());
    assertFalse(threadAlive(q.threadName()), "a call after the close starts no thread");
  }

  @Test
  void anIdleCloseEndsTheThread() throws Exception {
    CallQueue q = queue(TimeUnit.SECONDS.toNanos(60));
    assertEquals(1, q.call(() -> 1).get(5, TimeUnit.SECONDS));
    assertTrue(threadAlive(q.threadName()), "idle, waiting for the next call");
    closed.set(true);
    assertTrue(threadEnds(q.threadName()));
  }

  @Test
  void anIdleThreadEndsAndTheNextCallStartsAnother() throws Exception {
    CallQueue q = queue(TimeUnit.MILLISECONDS.toNanos(50));
    assertFalse(threadAlive(q.threadName()), "no thread before the first call");
    assertEquals(1, q.call(() -> 1).get(5, TimeUnit.SECONDS));
    assertTrue(threadEnds(q.threadName()));
    assertEquals(2, q.call(() -> 2).get(5, TimeUnit.SECONDS));
    assertTrue(threadEnds(q.threadName()));
  }
}
