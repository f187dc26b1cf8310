package org.wixlib;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import org.wixlib.internal.CallQueue;

/**
 * The probe calls of one {@link Join}, asynchronous: each returns at once with a
 * {@link CompletableFuture} and runs on a thread of the join; get it with {@link Join#async()}. Every
 * method takes what the synchronous overload of the same name takes, behaves as it does, and the future
 * gives what that overload returns (a count as a {@code Long}, the pairs, the rows).
 *
 * <p>Order, threads, memory and cancellation as for {@link AsyncHashTable}: the calls of one join run one
 * at a time in the order they were made, on a daemon thread named {@code wixlib-async-join-N} that ends
 * when the join is closed or idle for a second; calls on different joins (and tables) run concurrently.
 * The key columns, hashes and output rows of a call belong to it until its future completes; segments
 * of confined arenas are rejected at once with {@link WrongThreadException}. The future completes
 * exceptionally with the exception the synchronous call would throw. {@code cancel} succeeds only
 * before the call starts (it then never runs). {@link Join#close()} waits for a running call; calls
 * still queued or made after it complete exceptionally with {@link IllegalStateException} ("join is
 * closed").
 */
public final class AsyncJoin {
  private final Join join;
  private final CallQueue queue;

  AsyncJoin(Join join) {
    this.join = join;
    this.queue = new CallQueue("join", join::isClosed, () -> new IllegalStateException("join is closed"),
        CallQueue.IDLE_NANOS);
  }

  /** The join these calls run on. */
  public Join join() {
    return join;
  }

  /** Tests: the queue of the join's calls. */
  CallQueue queue() {
    return queue;
  }

  // ---- counts --------------------------------------------------------------------------------

  /** {@link Join#count(int[])}. */
  public CompletableFuture<Long> count(int[] keys) {
    return queue.call(() -> join.count(keys));
  }

  /** {@link Join#count(long[])}. */
  public CompletableFuture<Long> count(long[] keys) {
    return queue.call(() -> join.count(keys));
  }

  /** {@link Join#count(MemorySegment, long)}. */
  public CompletableFuture<Long> count(MemorySegment keys, long n) {
    AsyncSegments.requireShared(keys, "keys");
    return queue.call(() -> join.count(keys, n));
  }

  /** {@link Join#count(DeviceBuffer, long)}. */
  public CompletableFuture<Long> count(DeviceBuffer keys, long n) {
    return queue.call(() -> join.count(keys, n));
  }

  // ---- hashes --------------------------------------------------------------------------------

  /** {@link Join#hash(int[])}. */
  public CompletableFuture<long[]> hash(int[] keys) {
    return queue.call(() -> join.hash(keys));
  }

  /** {@link Join#hash(long[])}. */
  public CompletableFuture<long[]> hash(long[] keys) {
    return queue.call(() -> join.hash(keys));
  }

  // ---- inner join ----------------------------------------------------------------------------

  /** {@link Join#probe(int[])}. */
  public CompletableFuture<JoinPairs> probe(int[] keys) {
    return queue.call(() -> join.probe(keys));
  }

  /** {@link Join#probe(long[])}. */
  public CompletableFuture<JoinPairs> probe(long[] keys) {
    return queue.call(() -> join.probe(keys));
  }

  /** {@link Join#probe(int[], long[])}. */
  public CompletableFuture<JoinPairs> probe(int[] keys, long[] hashes) {
    return queue.call(() -> join.probe(keys, hashes));
  }

  /** {@link Join#probe(long[], long[])}. */
  public CompletableFuture<JoinPairs> probe(long[] keys, long[] hashes) {
    return queue.call(() -> join.probe(keys, hashes));
  }

  /** {@link Join#probe(int[], int[], int[])}: the number of pairs (written when they fit). */
  public CompletableFuture<Long> probe(int[] keys, int[] probeRows, int[] buildRows) {
    return queue.call(() -> join.probe(keys, probeRows, buildRows));
  }

  /** {@link Join#probe(long[], int[], int[])}. */
  public CompletableFuture<Long> probe(long[] keys, int[] probeRows, int[] buildRows) {
    return queue.call(() -> join.probe(keys, probeRows, buildRows));
  }

  /** {@link Join#probe(MemorySegment, long)}. */
  public CompletableFuture<JoinPairs> probe(MemorySegment keys, long n) {
    AsyncSegments.requireShared(keys, "keys");
    return queue.call(() -> join.probe(keys, n));
  }

  /** {@link Join#probe(MemorySegment, MemorySegment, long)}. */
  public CompletableFuture<JoinPairs> probe(MemorySegment keys, MemorySegment hashes, long n) {
    AsyncSegments.requireShared(keys, "keys");
    AsyncSegments.requireShared(hashes, "hashes");
    return queue.call(() -> join.probe(keys, hashes, n));
  }

  /**
   * {@link Join#probe(MemorySegment, MemorySegment, long, MemorySegment, MemorySegment, long)}: the number
   * of pairs (written when they fit).
   */
  public CompletableFuture<Long> probe(MemorySegment keys, MemorySegment hashes, long n, MemorySegment probeRows,
      MemorySegment buildRows, long capacity) {
    AsyncSegments.requireShared(keys, "keys");
    AsyncSegments.requireShared(hashes, "hashes");
    AsyncSegments.requireShared(probeRows, "probeRows");
    AsyncSegments.requireShared(buildRows, "buildRows");
    return queue.call(() -> join.probe(keys, hashes, n, probeRows, buildRows, capacity));
  }

  /** {@link Join#probe(DeviceBuffer, long, DeviceBuffer, DeviceBuffer)}. */
  public CompletableFuture<Long> probe(DeviceBuffer keys, long n, DeviceBuffer probeRows, DeviceBuffer buildRows) {
    return queue.call(() -> join.probe(keys, n, probeRows, buildRows));
  }

  /** {@link Join#probe(DeviceBuffer, DeviceBuffer, long, DeviceBuffer, DeviceBuffer)}. */
  public CompletableFuture<Long> probe(DeviceBuffer keys, DeviceBuffer hashes, long n, DeviceBuffer probeRows,
      DeviceBuffer buildRows) {
    return queue.call(() -> join.probe(keys, hashes, n, probeRows, buildRows));
  }

  // ---- semi and anti joins -------------------------------------------------------------------

  /** {@link Join#semi(int[])}. */
  public CompletableFuture<int[]> semi(int[] keys) {
    return queue.call(() -> join.semi(keys));
  }

  /** {@link Join#semi(long[])}. */
  public CompletableFuture<int[]> semi(long[] keys) {
    return queue.call(() -> join.semi(keys));
  }

  /** {@link Join#anti(int[])}. */
  public CompletableFuture<int[]> anti(int[] keys) {
    return queue.call(() -> join.anti(keys));
  }

  /** {@link Join#anti(long[])}. */
  public CompletableFuture<int[]> anti(long[] keys) {
    return queue.call(() -> join.anti(keys));
  }

  /** {@link Join#semi(int[], boolean, int[])}: the rows written. */
  public CompletableFuture<Long> semi(int[] keys, boolean anti, int[] rows) {
    return queue.call(() -> join.semi(keys, anti, rows));
  }

  /** {@link Join#semi(long[], boolean, int[])}. */
  public CompletableFuture<Long> semi(long[] keys, boolean anti, int[] rows) {
    return queue.call(() -> join.semi(keys, anti, rows));
  }

  /** {@link Join#semi(MemorySegment, long, boolean, MemorySegment)}. */
  public CompletableFuture<Long> semi(MemorySegment keys, long n, boolean anti, MemorySegment rows) {
    AsyncSegments.requireShared(keys, "keys");
    AsyncSegments.requireShared(rows, "rows");
    return queue.call(() -> join.semi(keys, n, anti, rows));
  }

  /** {@link Join#semi(DeviceBuffer, long, boolean, DeviceBuffer)}. */
  public CompletableFuture<Long> semi(DeviceBuffer keys, long n, boolean anti, DeviceBuffer rows) {
    return queue.call(() -> join.semi(keys, n, anti, rows));
  }

  @Override
  public String toString() {
    return "AsyncJoin[" + join + "]";
  }
}
