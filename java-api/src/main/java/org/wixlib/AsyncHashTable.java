package org.wixlib;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import org.wixlib.internal.CallQueue;

/**
 * The bulk calls of one {@link HashTable}, asynchronous: each returns at once with a
 * {@link CompletableFuture}, and the call itself (copies to and from the device, kernels, or the CPU
 * table's work) runs on a thread of the table, so the caller goes on with its own work meanwhile. Get
 * it with {@link HashTable#async()}. Every method takes what the synchronous overload of the same name
 * takes and behaves as it does; the future gives {@code null} for calls that return nothing, the output
 * array for calls that fill one ({@code outcomes}, {@code found}, {@code valuesOut}), and the new array
 * for those that make one.
 *
 * <p><b>Order.</b> The asynchronous calls of one table run one at a time, in the order they were made
 * (calls made from several threads at once: in the order they reach the table's queue), so two of them
 * never reorder: a find made after an insert sees the insert. Synchronous calls from other threads may
 * run between them. Calls on different tables run concurrently: each table has its own thread, and the
 * facade and the library lock per table, holding no lock across different tables' calls (tables on one
 * GPU still share its copy engines and multiprocessors).
 *
 * <p><b>Threads.</b> The table's thread is a daemon thread named {@code wixlib-async-table-N}; it starts
 * with the first asynchronous call and ends when the table is closed or has had no asynchronous call
 * for a second (the next call starts it again). Callbacks chained with the non-{@code Async} methods of
 * the future ({@code thenApply}, ...) may run on it: keep them short, and never wait in them for another
 * call of the same table (it could not start).
 *
 * <p><b>Memory.</b> The arrays, segments and buffers of a call belong to the call until its future
 * completes: do not change its inputs (keys, values, ops) nor read its outputs (outcomes, found,
 * valuesOut, the values of a batch) before then, and keep segments' arenas and {@link DeviceBuffer}s
 * open. Host segments must be usable from another thread: a segment of a confined arena
 * ({@code Arena.ofConfined()}) is rejected when the call is made, with {@link WrongThreadException}
 * (nothing is queued); use {@code Arena.ofShared()}, {@code ofAuto()} or {@code global()}.
 *
 * <p><b>Errors.</b> The future completes exceptionally with the exception the synchronous call would
 * throw, of the same type ({@link InvalidKeyException}, {@link TableFullException},
 * {@link InvalidArgumentException}, {@link NullPointerException}, ...): {@code get()} wraps it in an
 * {@code ExecutionException} and {@code join()} in a {@code CompletionException}, as every
 * {@code CompletableFuture} does, with it as the cause. A confined segment is the only error thrown at
 * once.
 *
 * <p><b>Cancellation.</b> {@code cancel} succeeds only while the call is queued: the call then never runs
 * and the table is left as it was (so does a future the caller completed itself before the start). A
 * call that started runs to its end (a native call cannot be interrupted): {@code cancel} returns false
 * and the future completes with the call's result.
 *
 * <p><b>Close.</b> {@link HashTable#close()} waits for a running call as it waits for a synchronous one;
 * calls still queued, and calls made after the close, complete exceptionally with
 * {@link IllegalStateException} ("table is closed") without running. Then the table's thread ends.
 */
public final class AsyncHashTable {
  private final HashTable table;
  private final CallQueue queue;

  AsyncHashTable(HashTable table) {
    this.table = table;
    this.queue = new CallQueue("table", table::isClosed, () -> new IllegalStateException("table is closed"),
        CallQueue.IDLE_NANOS);
  }

  /** The table these calls run on. */
  public HashTable table() {
    return table;
  }

  /** Tests: the queue of the table's calls (its thread name, the calls started). */
  CallQueue queue() {
    return queue;
  }

  // ---- int[] (32-bit tables) ------------------------------------------------------------------

  /** {@link HashTable#insert(int[], int[])}. */
  public CompletableFuture<Void> insert(int[] keys, int[] values) {
    return queue.run(() -> table.insert(keys, values), null);
  }

  /** {@link HashTable#insert(int[], int[], byte[])}; gives outcomes. */
  public CompletableFuture<byte[]> insert(int[] keys, int[] values, byte[] outcomes) {
    return queue.run(() -> table.insert(keys, values, outcomes), outcomes);
  }

  /** {@link HashTable#insertOrAssign(int[], int[])}. */
  public CompletableFuture<Void> insertOrAssign(int[] keys, int[] values) {
    return queue.run(() -> table.insertOrAssign(keys, values), null);
  }

  /** {@link HashTable#insertOrAssign(int[], int[], byte[])}; gives outcomes. */
  public CompletableFuture<byte[]> insertOrAssign(int[] keys, int[] values, byte[] outcomes) {
    return queue.run(() -> table.insertOrAssign(keys, values, outcomes), outcomes);
  }

  /** {@link HashTable#find(int[], int[], int)}; gives valuesOut. */
  public CompletableFuture<int[]> find(int[] keys, int[] valuesOut, int notFound) {
    return queue.run(() -> table.find(keys, valuesOut, notFound), valuesOut);
  }

  /** {@link HashTable#find(int[], int)}. */
  public CompletableFuture<int[]> find(int[] keys, int notFound) {
    return queue.call(() -> table.find(keys, notFound));
  }

  /** {@link HashTable#contains(int[], byte[])}; gives found. */
  public CompletableFuture<byte[]> contains(int[] keys, byte[] found) {
    return queue.run(() -> table.contains(keys, found), found);
  }

  /** {@link HashTable#contains(int[])}. */
  public CompletableFuture<boolean[]> contains(int[] keys) {
    return queue.call(() -> table.contains(keys));
  }

  /** {@link HashTable#erase(int[])}. */
  public CompletableFuture<Void> erase(int[] keys) {
    return queue.run(() -> table.erase(keys), null);
  }

  /** {@link HashTable#erase(int[], byte[])}; gives outcomes. */
  public CompletableFuture<byte[]> erase(int[] keys, byte[] outcomes) {
    return queue.run(() -> table.erase(keys, outcomes), outcomes);
  }

  /** {@link HashTable#batch(byte[], int[], int[], byte[])}; values and outcomes are written. */
  public CompletableFuture<Void> batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
    return queue.run(() -> table.batch(ops, keys, values, outcomes), null);
  }

  // ---- long[] (64-bit tables) -----------------------------------------------------------------

  /** {@link HashTable#insert(long[], long[])}. */
  public CompletableFuture<Void> insert(long[] keys, long[] values) {
    return queue.run(() -> table.insert(keys, values), null);
  }

  /** {@link HashTable#insert(long[], long[], byte[])}; gives outcomes. */
  public CompletableFuture<byte[]> insert(long[] keys, long[] values, byte[] outcomes) {
    return queue.run(() -> table.insert(keys, values, outcomes), outcomes);
  }

  /** {@link HashTable#insertOrAssign(long[], long[])}. */
  public CompletableFuture<Void> insertOrAssign(long[] keys, long[] values) {
    return queue.run(() -> table.insertOrAssign(keys, values), null);
  }

  /** {@link HashTable#insertOrAssign(long[], long[], byte[])}; gives outcomes. */
  public CompletableFuture<byte[]> insertOrAssign(long[] keys, long[] values, byte[] outcomes) {
    return queue.run(() -> table.insertOrAssign(keys, values, outcomes), outcomes);
  }

  /** {@link HashTable#find(long[], long[], long)}; gives valuesOut. */
  public CompletableFuture<long[]> find(long[] keys, long[] valuesOut, long notFound) {
    return queue.run(() -> table.find(keys, valuesOut, notFound), valuesOut);
  }

  /** {@link HashTable#find(long[], long)}. */
  public CompletableFuture<long[]> find(long[] keys, long notFound) {
    return queue.call(() -> table.find(keys, notFound));
  }

  /** {@link HashTable#contains(long[], byte[])}; gives found. */
  public CompletableFuture<byte[]> contains(long[] keys, byte[] found) {
    return queue.run(() -> table.contains(keys, found), found);
  }

  /** {@link HashTable#contains(long[])}. */
  public CompletableFuture<boolean[]> contains(long[] keys) {
    return queue.call(() -> table.contains(keys));
  }

  /** {@link HashTable#erase(long[])}. */
  public CompletableFuture<Void> erase(long[] keys) {
    return queue.run(() -> table.erase(keys), null);
  }

  /** {@link HashTable#erase(long[], byte[])}; gives outcomes. */
  public CompletableFuture<byte[]> erase(long[] keys, byte[] outcomes) {
    return queue.run(() -> table.erase(keys, outcomes), outcomes);
  }

  /** {@link HashTable#batch(byte[], long[], long[], byte[])}; values and outcomes are written. */
  public CompletableFuture<Void> batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
    return queue.run(() -> table.batch(ops, keys, values, outcomes), null);
  }

  // ---- host MemorySegments (either width) -----------------------------------------------------

  /** {@link HashTable#insert(MemorySegment, MemorySegment, long, MemorySegment)}. */
  public CompletableFuture<Void> insert(MemorySegment keys, MemorySegment values, long n,
      MemorySegment outcomes) {
    shared(keys, "keys", values, "values", outcomes, "outcomes");
    return queue.run(() -> table.insert(keys, values, n, outcomes), null);
  }

  /** {@link HashTable#insertOrAssign(MemorySegment, MemorySegment, long, MemorySegment)}. */
  public CompletableFuture<Void> insertOrAssign(MemorySegment keys, MemorySegment values, long n,
      MemorySegment outcomes) {
    shared(keys, "keys", values, "values", outcomes, "outcomes");
    return queue.run(() -> table.insertOrAssign(keys, values, n, outcomes), null);
  }

  /** {@link HashTable#find(MemorySegment, MemorySegment, long, int)}. */
  public CompletableFuture<Void> find(MemorySegment keys, MemorySegment valuesOut, long n, int notFound) {
    shared(keys, "keys", valuesOut, "valuesOut", null, null);
    return queue.run(() -> table.find(keys, valuesOut, n, notFound), null);
  }

  /** {@link HashTable#find(MemorySegment, MemorySegment, long, long)}. */
  public CompletableFuture<Void> find(MemorySegment keys, MemorySegment valuesOut, long n, long notFound) {
    shared(keys, "keys", valuesOut, "valuesOut", null, null);
    return queue.run(() -> table.find(keys, valuesOut, n, notFound), null);
  }

  /** {@link HashTable#contains(MemorySegment, MemorySegment, long)}. */
  public CompletableFuture<Void> contains(MemorySegment keys, MemorySegment found, long n) {
    shared(keys, "keys", found, "found", null, null);
    return queue.run(() -> table.contains(keys, found, n), null);
  }

  /** {@link HashTable#erase(MemorySegment, long, MemorySegment)}. */
  public CompletableFuture<Void> erase(MemorySegment keys, long n, MemorySegment outcomes) {
    shared(keys, "keys", outcomes, "outcomes", null, null);
    return queue.run(() -> table.erase(keys, n, outcomes), null);
  }

  /** {@link HashTable#batch(MemorySegment, MemorySegment, MemorySegment, long, MemorySegment)}. */
  public CompletableFuture<Void> batch(MemorySegment ops, MemorySegment keys, MemorySegment values, long n,
      MemorySegment outcomes) {
    shared(ops, "ops", keys, "keys", values, "values");
    AsyncSegments.requireShared(outcomes, "outcomes");
    return queue.run(() -> table.batch(ops, keys, values, n, outcomes), null);
  }

  /** Rejects segments of confined arenas (a null segment passes; its name may then be null). */
  private static void shared(MemorySegment a, String aName, MemorySegment b, String bName, MemorySegment c,
      String cName) {
    AsyncSegments.requireShared(a, aName);
    AsyncSegments.requireShared(b, bName);
    AsyncSegments.requireShared(c, cName);
  }

  // ---- DeviceBuffers (either width) -----------------------------------------------------------

  /** {@link HashTable#insert(DeviceBuffer, DeviceBuffer, long, DeviceBuffer)}. */
  public CompletableFuture<Void> insert(DeviceBuffer keys, DeviceBuffer values, long n, DeviceBuffer outcomes) {
    return queue.run(() -> table.insert(keys, values, n, outcomes), null);
  }

  /** {@link HashTable#insertOrAssign(DeviceBuffer, DeviceBuffer, long, DeviceBuffer)}. */
  public CompletableFuture<Void> insertOrAssign(DeviceBuffer keys, DeviceBuffer values, long n,
      DeviceBuffer outcomes) {
    return queue.run(() -> table.insertOrAssign(keys, values, n, outcomes), null);
  }

  /** {@link HashTable#find(DeviceBuffer, DeviceBuffer, long, int)}. */
  public CompletableFuture<Void> find(DeviceBuffer keys, DeviceBuffer valuesOut, long n, int notFound) {
    return queue.run(() -> table.find(keys, valuesOut, n, notFound), null);
  }

  /** {@link HashTable#contains(DeviceBuffer, DeviceBuffer, long)}. */
  public CompletableFuture<Void> contains(DeviceBuffer keys, DeviceBuffer found, long n) {
    return queue.run(() -> table.contains(keys, found, n), null);
  }

  /** {@link HashTable#erase(DeviceBuffer, long, DeviceBuffer)}. */
  public CompletableFuture<Void> erase(DeviceBuffer keys, long n, DeviceBuffer outcomes) {
    return queue.run(() -> table.erase(keys, n, outcomes), null);
  }

  /** {@link HashTable#batch(DeviceBuffer, DeviceBuffer, DeviceBuffer, long, DeviceBuffer)}. */
  public CompletableFuture<Void> batch(DeviceBuffer ops, DeviceBuffer keys, DeviceBuffer values, long n,
      DeviceBuffer outcomes) {
    return queue.run(() -> table.batch(ops, keys, values, n, outcomes), null);
  }

  @Override
  public String toString() {
    return "AsyncHashTable[" + table + "]";
  }
}
