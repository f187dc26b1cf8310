package org.wixlib.cli.verify;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;

/**
 * The checker's fixed partition of its work into {@link #COUNT} shards, run on any number of threads:
 * shard s owns the keys whose index in the run's key space is s modulo COUNT, with their oracle part
 * and its own random stream, so the ops drawn, the checks and their verdicts do not depend on the
 * number of threads.
 */
final class Shards implements AutoCloseable {
  /** Shards of every run (a power of two). */
  static final int COUNT = 32;
  static final int SHIFT = Integer.numberOfTrailingZeros(COUNT);

  /** null: one thread, shards run in the caller. */
  private final ForkJoinPool pool;

  Shards(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    this.pool = threads == 1 ? null : new ForkJoinPool(threads);
  }

  /** The shard owning the key of index idx. */
  static int owner(long idx) {
    return (int) (idx & (COUNT - 1));
  }

  /** The key's place in its owner's oracle. */
  static int local(long idx) {
    return (int) (idx >>> SHIFT);
  }

  /** The index of local slot l of shard s. */
  static long index(int s, int l) {
    return ((long) l << SHIFT) | s;
  }

  /** Keys of a range of n indices that shard s owns. */
  static int owned(long n, int s) {
    return (int) ((n - s + COUNT - 1) >>> SHIFT);
  }

  /** Runs task(s) for every shard s, in parallel; returns when all are done (rethrows the first failure). */
  void each(IntConsumer task) {
    if (pool == null) {
      for (int s = 0; s < COUNT; s++) {
        task.accept(s);
      }
      return;
    }
    List<Future<?>> done = new ArrayList<>(COUNT);
    for (int s = 0; s < COUNT; s++) {
      int shard = s;
      done.add(pool.submit(() -> task.accept(shard)));
    }
    RuntimeException failure = null;
    for (Future<?> f : done) {
      try {
        f.get();
      } catch (ExecutionException e) {
        if (e.getCause() instanceof Error err) {
          throw err;
        }
        if (failure == null) {
          failure = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** Runs task(slice, from, to) over COUNT fixed slices of [0, n), in parallel. */
  void slices(int n, RangeTask task) {
    each(s -> task.run(s, (int) ((long) n * s / COUNT), (int) ((long) n * (s + 1) / COUNT)));
  }

  /** Work on elements [from, to), slice number slice. */
  @FunctionalInterface
  interface RangeTask {
    void run(int slice, int from, int to);
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.shutdown();
    }
  }
}
