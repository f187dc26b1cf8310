package org.wixlib.spark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;
import org.apache.spark.SparkEnv;
import org.apache.spark.storage.BroadcastBlockId;
import org.wixlib.Join;

/**
 * The wixlib joins of one JVM (an executor, or the driver in local mode): one per broadcast id, built
 * by the first task that probes it and shared by the tasks after it. Each task holds a {@link Lease}
 * from {@link #acquire} until it completes (a task completion listener releases it, whether the task
 * succeeded, failed or was killed as a speculative copy; releasing twice is a no-op). A join is closed
 * once no task holds it and its broadcast is gone from this JVM's block manager (unpersisted or
 * destroyed): checked when a lease is released and every second by a daemon thread. A shutdown hook
 * closes what is left; {@link Join#close()} is idempotent, so no join is freed twice.
 */
final class ExecutorJoins {
  /** The joins of this JVM, closed when Spark drops their broadcast. */
  static final ExecutorJoins INSTANCE = new ExecutorJoins(ExecutorJoins::broadcastPresent);

  private static final long CHECK_MILLIS = 1000;

  /** How many joins were built and closed for one broadcast id in this JVM. */
  record Counts(int builds, int closes) {}

  private final LongPredicate present;
  private final Map<Long, Entry> entries = new HashMap<>(); // guarded by this
  private final Map<Long, AtomicInteger[]> counts = new ConcurrentHashMap<>();
  private ScheduledExecutorService checker; // guarded by this; started with the first lease

  ExecutorJoins(LongPredicate present) {
    this.present = present;
  }

  /** One broadcast's join; refs counts the leases on it (guarded by the ExecutorJoins). */
  private final class Entry {
    final long id;
    int refs;
    private Join join; // guarded by the entry
    private boolean closed;

    Entry(long id) {
      this.id = id;
    }

    synchronized Join built(BuildSide side, String kind) {
      if (closed) {
        throw new IllegalStateException("the wixlib join of broadcast " + id + " is closed");
      }
      if (join == null) {
        join = JoinBuilds.build(side, kind);
        counter(id)[0].incrementAndGet();
      }
      return join;
    }

    synchronized void close() {
      if (!closed) {
        closed = true;
        if (join != null) {
          join.close();
          counter(id)[1].incrementAndGet();
        }
      }
    }
  }

  /** A task's hold on a join; {@link #close()} releases it once, later calls do nothing. */
  final class Lease implements AutoCloseable {
    private final Entry entry;
    private final Join join;
    private final AtomicBoolean released = new AtomicBoolean();

    private Lease(Entry entry, Join join) {
      this.entry = entry;
      this.join = join;
    }

    Join join() {
      return join;
    }

    @Override
    public void close() {
      if (released.compareAndSet(false, true)) {
        release(entry);
      }
    }
  }

  /** A lease on the join of broadcast {@code id}, building it from {@code side} when this JVM has none. */
  Lease acquire(long id, BuildSide side, String kind) {
    Entry e;
    synchronized (this) {
      e = entries.computeIfAbsent(id, Entry::new);
      e.refs++;
      startChecker();
    }
    try {
      return new Lease(e, e.built(side, kind));
    } catch (RuntimeException | Error failure) {
      release(e);
      throw failure;
    }
  }

  private void release(Entry e) {
    boolean close;
    synchronized (this) {
      e.refs--;
      close = e.refs == 0 && !present.test(e.id) && entries.remove(e.id, e);
    }
    if (close) {
      e.close();
    }
  }

  /** Closes the joins no task holds whose broadcast is gone; returns how many it closed. */
  int closeReleased() {
    List<Entry> gone = new ArrayList<>();
    synchronized (this) {
      entries.values().removeIf(e -> {
        boolean drop = e.refs == 0 && !present.test(e.id);
        if (drop) {
          gone.add(e);
        }
        return drop;
      });
    }
    gone.forEach(Entry::close);
    return gone.size();
  }

  /** Closes every join (JVM shutdown); a running probe finishes first. */
  void closeAll() {
    List<Entry> all;
    synchronized (this) {
      all = new ArrayList<>(entries.values());
      entries.clear();
    }
    all.forEach(Entry::close);
  }

  /** The number of joins open in this JVM. */
  synchronized int open() {
    return entries.size();
  }

  /** The joins built and closed for broadcast {@code id} in this JVM. */
  Counts counts(long id) {
    AtomicInteger[] c = counter(id);
    return new Counts(c[0].get(), c[1].get());
  }

  private AtomicInteger[] counter(long id) {
    return counts.computeIfAbsent(id, k -> new AtomicInteger[] {new AtomicInteger(), new AtomicInteger()});
  }

  private void startChecker() {
    if (checker == null) {
      checker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "wixlib-spark-join-release");
        t.setDaemon(true);
        return t;
      });
      checker.scheduleWithFixedDelay(this::closeReleased, CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
      Runtime.getRuntime().addShutdownHook(new Thread(this::closeAll, "wixlib-spark-join-shutdown"));
    }
  }

  /** Whether this JVM's block manager still holds broadcast {@code id}'s value (false once Spark stopped). */
  static boolean broadcastPresent(long id) {
    SparkEnv env = SparkEnv.get();
    if (env == null) {
      return false;
    }
    try {
      return env.blockManager().getStatus(new BroadcastBlockId(id, "")).isDefined();
    } catch (RuntimeException stopped) {
      return false;
    }
  }
}
