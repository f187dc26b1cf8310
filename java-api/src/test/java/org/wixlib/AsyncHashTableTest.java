package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The asynchronous bulk calls ({@link AsyncHashTable}) against the synchronous ones and a HashMap:
 * results, order, tables driven from several threads, cancellation, close, errors, threads. Every test
 * runs on the CPU kind and, where a GPU is usable, on GLHT and Hive (skipped visibly otherwise).
 */
class AsyncHashTableTest {

  static HashTable table(TableKind kind, int keyBits, long capacity) {
    GpuAssumptions.requireOrSkip(kind);
    return HashTable.builder().kind(kind).keyBits(keyBits).capacity(capacity).build();
  }

  static <T> T get(CompletableFuture<T> f) throws Exception {
    return f.get(60, TimeUnit.SECONDS);
  }

  /** The exception a future completed with (it must fail). */
  static Throwable failure(CompletableFuture<?> f) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
    return e.getCause();
  }

  /** n distinct non-reserved keys from [0, range). */
  static int[] distinct(Random rnd, int n, int range) {
    Set<Integer> s = new LinkedHashSet<>();
    while (s.size() < n) {
      s.add(Oracle.key(rnd, range));
    }
    return s.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Occupies the table's thread until the returned latch is counted down. */
  static CountDownLatch block(AsyncHashTable async) throws InterruptedException {
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    async.queue().run(() -> {
      running.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }, null);
    assertTrue(running.await(10, TimeUnit.SECONDS));
    return release;
  }

  static boolean threadAlive(String name) {
    return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
  }

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

  // ---- results ---------------------------------------------------------------------------------

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void intArraysGiveWhatTheSynchronousCallsGive(TableKind kind) throws Exception {
    Random rnd = new Random(1);
    Map<Integer, Integer> oracle = new HashMap<>();
    try (HashTable a = table(kind, 32, 1024); HashTable s = table(kind, 32, 1024)) {
      AsyncHashTable async = a.async();
      assertSame(a, async.table());
      for (int round = 0; round < 4; round++) {
        int n = 20_000;
        int[] keys = distinct(rnd, n, 100_000);
        int[] values = Oracle.values(rnd, n);
        byte[] outA = new byte[n];
        byte[] outS = new byte[n];
        CompletableFuture<byte[]> inserted = async.insert(keys, values, outA);
        s.insert(keys, values, outS);  // overlaps with the asynchronous call
        assertSame(outA, get(inserted));
        assertArrayEquals(outS, outA);
        for (int i = 0; i < n; i++) {
          assertEquals(oracle.containsKey(keys[i]) ? Outcome.PRESENT : Outcome.INSERTED, outA[i]);
          oracle.putIfAbsent(keys[i], values[i]);
        }

        int[] assign = distinct(rnd, n / 2, 100_000);
        int[] assigned = Oracle.values(rnd, assign.length);
        CompletableFuture<Void> done = async.insertOrAssign(assign, assigned);
        s.insertOrAssign(assign, assigned);
        assertNull(get(done));
        for (int i = 0; i < assign.length; i++) {
          oracle.put(assign[i], assigned[i]);
        }

        int[] probe = Oracle.keys(rnd, n, 100_000);
        int[] want = new int[n];
        byte[] present = new byte[n];
        for (int i = 0; i < n; i++) {
          want[i] = oracle.getOrDefault(probe[i], -7);
          present[i] = (byte) (oracle.containsKey(probe[i]) ? 1 : 0);
        }
        int[] into = new int[n];
        byte[] found = new byte[n];
        CompletableFuture<int[]> f1 = async.find(probe, -7);
        CompletableFuture<int[]> f2 = async.find(probe, into, -7);
        CompletableFuture<boolean[]> c1 = async.contains(probe);
        CompletableFuture<byte[]> c2 = async.contains(probe, found);
        assertArrayEquals(s.find(probe, -7), get(f1));
        assertArrayEquals(want, get(f1));
        assertSame(into, get(f2));
        assertArrayEquals(want, into);
        assertArrayEquals(s.contains(probe), get(c1));
        assertSame(found, get(c2));
        assertArrayEquals(present, found);

        int[] gone = distinct(rnd, n / 4, 100_000);
        byte[] eraseA = new byte[gone.length];
        byte[] eraseS = new byte[gone.length];
        CompletableFuture<byte[]> erased = async.erase(gone, eraseA);
        s.erase(gone, eraseS);
        assertSame(eraseA, get(erased));
        assertArrayEquals(eraseS, eraseA);
        for (int i = 0; i < gone.length; i++) {
          assertEquals(oracle.remove(gone[i]) != null ? Outcome.ERASED : Outcome.NOT_FOUND, eraseA[i]);
        }

        int[] bk = distinct(rnd, n, 100_000);
        byte[] ops = new byte[n];
        int[] bvA = Oracle.values(rnd, n);
        int[] bvS = bvA.clone();
        for (int i = 0; i < n; i++) {
          ops[i] = (byte) rnd.nextInt(4);
        }
        byte[] boA = new byte[n];
        byte[] boS = new byte[n];
        CompletableFuture<Void> batched = async.batch(ops, bk, bvA, boA);
        s.batch(ops, bk, bvS, boS);
        get(batched);
        assertArrayEquals(boS, boA);
        assertArrayEquals(bvS, bvA);
        for (int i = 0; i < n; i++) {
          switch (ops[i]) {
            case Op.INSERT -> oracle.putIfAbsent(bk[i], bvA[i]);
            case Op.INSERT_OR_ASSIGN -> oracle.put(bk[i], bvA[i]);
            case Op.ERASE -> oracle.remove(bk[i]);
            default -> assertEquals(oracle.containsKey(bk[i]) ? Outcome.FOUND : Outcome.NOT_FOUND, boA[i]);
          }
        }
        assertEquals(oracle.size(), a.size());
        assertEquals(s.size(), a.size());
      }
      Pairs all = a.retrieveAll();
      for (int i = 0; i < all.keys().length; i++) {
        assertEquals(oracle.get(all.keys()[i]), all.values()[i]);
      }
      get(async.erase(all.keys()));
      assertEquals(0, a.size());
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void longArraysGiveWhatTheSynchronousCallsGive(TableKind kind) throws Exception {
    Random rnd = new Random(2);
    int n = 20_000;
    long[] keys = rnd.longs(n, 0, Long.MAX_VALUE).distinct().toArray();
    long[] values = rnd.longs(keys.length).toArray();
    try (HashTable a = table(kind, 64, 1024); HashTable s = table(kind, 64, 1024)) {
      AsyncHashTable async = a.async();
      byte[] outA = new byte[keys.length];
      byte[] outS = new byte[keys.length];
      CompletableFuture<byte[]> inserted = async.insert(keys, values, outA);
      s.insert(keys, values, outS);
      assertSame(outA, get(inserted));
      assertArrayEquals(outS, outA);
      long[] assign = new long[keys.length / 2];
      System.arraycopy(keys, 0, assign, 0, assign.length);
      long[] assigned = rnd.longs(assign.length).toArray();
      get(async.insertOrAssign(assign, assigned));
      s.insertOrAssign(assign, assigned);
      long[] probe = rnd.longs(n, 0, Long.MAX_VALUE).toArray();
      System.arraycopy(keys, 0, probe, 0, n / 2);
      assertArrayEquals(s.find(probe, -9L), get(async.find(probe, -9L)));
      long[] into = new long[n];
      assertSame(into, get(async.find(probe, into, -9L)));
      assertArrayEquals(s.find(probe, -9L), into);
      assertEquals(assigned[3], into[3]);
      assertArrayEquals(s.contains(probe), get(async.contains(probe)));
      byte[] found = new byte[n];
      assertSame(found, get(async.contains(probe, found)));
      assertEquals(1, found[0]);
      long[] gone = new long[n / 4];
      System.arraycopy(keys, n / 4, gone, 0, gone.length);
      byte[] eraseA = new byte[gone.length];
      byte[] eraseS = new byte[gone.length];
      assertSame(eraseA, get(async.erase(gone, eraseA)));
      s.erase(gone, eraseS);
      assertArrayEquals(eraseS, eraseA);
      byte[] ops = new byte[n];
      long[] bvA = rnd.longs(n).toArray();
      long[] bvS = bvA.clone();
      for (int i = 0; i < n; i++) {
        ops[i] = (byte) rnd.nextInt(4);
      }
      long[] bk = new long[n];
      System.arraycopy(keys, 0, bk, 0, n / 2);
      System.arraycopy(rnd.longs(n - n / 2, 0, Long.MAX_VALUE).toArray(), 0, bk, n / 2, n - n / 2);
      bk = java.util.Arrays.stream(bk).distinct().toArray();
      ops = java.util.Arrays.copyOf(ops, bk.length);
      bvA = java.util.Arrays.copyOf(bvA, bk.length);
      bvS = bvA.clone();
      byte[] boA = new byte[bk.length];
      byte[] boS = new byte[bk.length];
      get(async.batch(ops, bk, bvA, boA));
      s.batch(ops, bk, bvS, boS);
      assertArrayEquals(boS, boA);
      assertArrayEquals(bvS, bvA);
      long[] gone2 = java.util.Arrays.copyOf(gone, 100);
      get(async.erase(gone2));
      s.erase(gone2);
      assertEquals(s.size(), a.size());
      assertEquals(s.retrieveAllLong().keys().length, a.retrieveAllLong().keys().length);
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void segmentsAndDeviceBuffersOfBothWidths(TableKind kind) throws Exception {
    for (int bits : new int[] {32, 64}) {
      Random rnd = new Random(bits);
      int n = 10_000;
      int w = bits / 8;
      long[] keys = new long[n];
      for (int i = 0; i < n; i++) {
        keys[i] = 3L * i + 1;  // distinct, non-reserved in both widths
      }
      try (HashTable t = table(kind, bits, 256); Arena arena = Arena.ofShared()) {
        AsyncHashTable async = t.async();
        MemorySegment k = arena.allocate((long) w * n, 8);
        MemorySegment v = arena.allocate((long) w * n, 8);
        for (int i = 0; i < n; i++) {
          put(k, bits, i, keys[i]);
          put(v, bits, i, 10 * keys[i]);
        }
        MemorySegment o = arena.allocate(n);
        get(async.insert(k, v, n, o));
        for (int i = 0; i < n; i++) {
          assertEquals(Outcome.INSERTED, o.get(JAVA_BYTE, i));
        }
        get(async.insertOrAssign(k, v, n / 2, MemorySegment.NULL));
        MemorySegment out = arena.allocate((long) w * n, 8);
        get(async.find(k, out, n, -5L));
        for (int i = 0; i < n; i++) {
          assertEquals(10 * keys[i], at(out, bits, i));
        }
        get(async.erase(k, n / 2, o));
        MemorySegment f = arena.allocate(n);
        get(async.contains(k, f, n));
        for (int i = 0; i < n; i++) {
          assertEquals(i < n / 2 ? 0 : 1, f.get(JAVA_BYTE, i), "key " + keys[i]);
        }
        MemorySegment ops = arena.allocate(n);
        ops.fill(Op.INSERT);
        get(async.batch(ops, k, v, n, MemorySegment.NULL));
        assertEquals(n, t.size());
        get(async.find(k, out, n, -5));
        assertEquals(10 * keys[7], at(out, bits, 7));
        if (kind.isGpu()) {
          deviceBuffers(t, bits, keys);
        }
      }
    }
  }

  /** The DeviceBuffer overloads, on a table holding keys[i] -> 10 * keys[i]. */
  private static void deviceBuffers(HashTable t, int bits, long[] keys) throws Exception {
    int n = keys.length;
    AsyncHashTable async = t.async();
    long[] moreKeys = new long[n];
    for (int i = 0; i < n; i++) {
      moreKeys[i] = 3L * (n + i) + 1;
    }
    IntFunction<DeviceBuffer> col = i -> bits == 32
        ? DeviceBuffer.ofInts(t.device(), java.util.Arrays.stream(i == 0 ? keys : moreKeys).mapToInt(x -> (int) x).toArray())
        : DeviceBuffer.ofLongs(t.device(), i == 0 ? keys : moreKeys);
    try (DeviceBuffer k = col.apply(0); DeviceBuffer more = col.apply(1);
        DeviceBuffer out = DeviceBuffer.allocate(t.device(), (long) bits / 8 * n);
        DeviceBuffer o = DeviceBuffer.allocate(t.device(), n);
        DeviceBuffer ops = DeviceBuffer.ofBytes(t.device(), new byte[n])) {  // all Op.INSERT
      get(async.insert(more, more, n, o));
      byte[] outcomes = new byte[n];
      o.copyTo(outcomes);
      for (byte b : outcomes) {
        assertEquals(Outcome.INSERTED, b);
      }
      get(async.insertOrAssign(more, more, n, null));
      get(async.find(k, out, n, -5));
      long[] got = read(out, bits, n);
      for (int i = 0; i < n; i++) {
        assertEquals(10 * keys[i], got[i]);
      }
      get(async.contains(more, o, n));
      o.copyTo(outcomes);
      for (byte b : outcomes) {
        assertEquals(1, b);
      }
      get(async.erase(more, n, null));
      assertEquals(n, t.size());
      get(async.batch(ops, more, more, n, o));
      assertEquals(2L * n, t.size());
    }
  }

  private static long[] read(DeviceBuffer b, int bits, int n) {
    if (bits == 64) {
      long[] out = new long[n];
      b.copyTo(out);
      return out;
    }
    int[] out = new int[n];
    b.copyTo(out);
    return java.util.Arrays.stream(out).asLongStream().toArray();
  }

  private static void put(MemorySegment s, int bits, long i, long value) {
    if (bits == 64) {
      s.setAtIndex(JAVA_LONG, i, value);
    } else {
      s.setAtIndex(JAVA_INT, i, (int) value);
    }
  }

  private static long at(MemorySegment s, int bits, long i) {
    return bits == 64 ? s.getAtIndex(JAVA_LONG, i) : s.getAtIndex(JAVA_INT, i);
  }

  // ---- order and concurrency -------------------------------------------------------------------

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void manyCallsOnOneTableTakeEffectInTheirOrder(TableKind kind) throws Exception {
    try (HashTable t = table(kind, 32, 256)) {
      assertOrdered(t);
    }
  }

  /** The arrays passed in place (critical downcalls, as on GPU tables) from the table's thread. */
  @org.junit.jupiter.api.Test
  void inPlaceArraysOnTheTablesThread() throws Exception {
    HashTable t;
    HashTable.inPlaceOnCpu = true;
    try {
      t = table(TableKind.CPU, 32, 256);
    } finally {
      HashTable.inPlaceOnCpu = false;
    }
    try (t) {
      assertOrdered(t);
    }
  }

  /** Submits inserts, erases and finds without waiting; each find sees exactly the calls made before it. */
  private static void assertOrdered(HashTable t) throws Exception {
    Random rnd = new Random(3);
    int range = 4_000;
    Map<Integer, Integer> oracle = new HashMap<>();
    List<CompletableFuture<int[]>> finds = new ArrayList<>();
    List<int[]> wants = new ArrayList<>();
    AsyncHashTable async = t.async();
    List<CompletableFuture<?>> all = new ArrayList<>();
    for (int call = 0; call < 300; call++) {
      int[] keys = distinct(rnd, 1 + rnd.nextInt(2_000), range);
      switch (call % 4) {
        case 0, 1 -> {
          int[] values = Oracle.values(rnd, keys.length);
          all.add(async.insertOrAssign(keys, values));
          for (int i = 0; i < keys.length; i++) {
            oracle.put(keys[i], values[i]);
          }
        }
        case 2 -> {
          all.add(async.erase(keys));
          for (int k : keys) {
            oracle.remove(k);
          }
        }
        default -> {
          int[] want = new int[keys.length];
          for (int i = 0; i < keys.length; i++) {
            want[i] = oracle.getOrDefault(keys[i], -1);
          }
          finds.add(async.find(keys, -1));
          wants.add(want);
        }
      }
    }
    for (int i = 0; i < finds.size(); i++) {
      assertArrayEquals(wants.get(i), get(finds.get(i)), "find number " + i);
    }
    CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    assertEquals(oracle.size(), t.size());
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void twoTablesDrivenFromSeveralThreads(TableKind kind) throws Exception {
    int threads = 4;
    int span = 50_000;
    try (HashTable a = table(kind, 32, 1024); HashTable b = table(kind, 32, 1024)) {
      List<CompletableFuture<Void>> done = new ArrayList<>();
      for (int th = 0; th < threads; th++) {
        int base = th * span;
        done.add(CompletableFuture.runAsync(() -> {
          try {
            drive(a.async(), b.async(), base, span, new Random(base));
          } catch (Exception e) {
            throw new CompletionException(e);
          }
        }, r -> Thread.ofPlatform().start(r)));
      }
      CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
      assertEquals(a.size(), b.size());
      assertEquals(threads * (long) (span / 2), a.size(), "each thread leaves the even half of its keys");
    }
  }

  /**
   * One thread's work on keys [base, base + span): inserts into both tables, erases the odd keys from
   * both, and checks finds against its own oracle (the other threads use other keys).
   */
  private static void drive(AsyncHashTable a, AsyncHashTable b, int base, int span, Random rnd) throws Exception {
    int[] keys = new int[span];
    int[] values = new int[span];
    int[] odd = new int[span / 2];
    for (int i = 0; i < span; i++) {
      keys[i] = base + i;
      values[i] = rnd.nextInt();
    }
    for (int i = 0; i < odd.length; i++) {
      odd[i] = base + 2 * i + 1;
    }
    for (int chunk = 0; chunk < 5; chunk++) {
      int lo = chunk * span / 5, hi = (chunk + 1) * span / 5;
      int[] k = java.util.Arrays.copyOfRange(keys, lo, hi);
      int[] v = java.util.Arrays.copyOfRange(values, lo, hi);
      a.insert(k, v);
      b.insert(k, v);
    }
    CompletableFuture<int[]> fa = a.find(keys, -1);
    CompletableFuture<int[]> fb = b.find(keys, -1);
    a.erase(odd);
    b.erase(odd);
    CompletableFuture<boolean[]> ca = a.contains(keys);
    CompletableFuture<boolean[]> cb = b.contains(keys);
    assertArrayEquals(values, get(fa));
    assertArrayEquals(values, get(fb));
    boolean[] even = new boolean[span];
    for (int i = 0; i < span; i += 2) {
      even[i] = true;
    }
    assertArrayEquals(even, get(ca));
    assertArrayEquals(even, get(cb));
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void aBusyTableDoesNotHoldUpAnother(TableKind kind) throws Exception {
    try (HashTable a = table(kind, 32, 256); HashTable b = table(kind, 32, 256)) {
      CountDownLatch release = block(a.async());
      CompletableFuture<Void> queuedOnA = a.async().insert(new int[] {1}, new int[] {1});
      try {
        get(b.async().insert(new int[] {2}, new int[] {20}));
        assertArrayEquals(new int[] {20}, get(b.async().find(new int[] {2}, -1)));
        assertArrayEquals(new int[] {-1}, b.find(new int[] {1}, -1));
        assertFalse(queuedOnA.isDone(), "a's call waits behind a's running call only");
      } finally {
        release.countDown();
      }
      get(queuedOnA);
      assertEquals(1, a.size());
    }
  }

  // ---- cancellation, close, errors, threads ----------------------------------------------------

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void cancelBeforeTheStartLeavesTheTableUnchanged(TableKind kind) throws Exception {
    try (HashTable t = table(kind, 32, 256)) {
      AsyncHashTable async = t.async();
      get(async.insert(new int[] {1, 2}, new int[] {10, 20}));
      CountDownLatch release = block(async);
      CompletableFuture<Void> insert = async.insert(new int[] {3, 4}, new int[] {30, 40});
      CompletableFuture<Void> erase = async.erase(new int[] {1});
      CompletableFuture<int[]> find = async.find(new int[] {1, 2, 3}, -1);
      long startedBefore = async.queue().started();
      assertTrue(insert.cancel(false));
      assertTrue(erase.cancel(true));
      release.countDown();
      assertArrayEquals(new int[] {10, 20, -1}, get(find));
      assertTrue(insert.isCancelled());
      assertTrue(erase.isCancelled());
      assertThrows(java.util.concurrent.CancellationException.class, insert::join);
      assertEquals(2, t.size());
      assertEquals(startedBefore + 1, async.queue().started(), "only the find ran");
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void closeFailsTheQueuedCallsAndEndsTheThread(TableKind kind) throws Exception {
    HashTable t = table(kind, 32, 256);
    AsyncHashTable async = t.async();
    get(async.insert(new int[] {1}, new int[] {10}));
    CountDownLatch release = block(async);
    List<CompletableFuture<?>> queued = List.of(async.insert(new int[] {2}, new int[] {20}),
        async.find(new int[] {1}, -1), async.erase(new int[] {1}));
    t.close();
    release.countDown();
    for (CompletableFuture<?> f : queued) {
      Throwable e = failure(f);
      assertInstanceOf(IllegalStateException.class, e);
      assertEquals("table is closed", e.getMessage());
    }
    Throwable late = failure(async.contains(new int[] {1}));
    assertInstanceOf(IllegalStateException.class, late);
    assertTrue(threadEnds(async.queue().threadName()), "no thread of the table remains");
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void closeWaitsForTheRunningCall(TableKind kind) throws Exception {
    HashTable t = table(kind, 32, 256);
    AsyncHashTable async = t.async();
    int n = 1 << 21;
    int[] keys = new int[n];
    for (int i = 0; i < n; i++) {
      keys[i] = i;
    }
    CompletableFuture<Void> big = async.insert(keys, keys);
    CountDownLatch gate = new CountDownLatch(1);  // holds the next call back until the close returned
    async.queue().run(() -> {
      try {
        gate.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }, null);
    CompletableFuture<int[]> after = async.find(keys, -1);
    while (async.queue().started() == 0) {
      Thread.onSpinWait();
    }
    t.close();  // while the insert runs (or just before it takes the table): never frees it under the call
    gate.countDown();
    try {
      get(big);  // ran to its end before the close took the table
    } catch (ExecutionException e) {
      assertInstanceOf(IllegalStateException.class, e.getCause());  // or found it closed
    }
    assertInstanceOf(IllegalStateException.class, failure(after));
    assertTrue(t.isClosed());
    assertTrue(threadEnds(async.queue().threadName()));
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void errorsComeWithTheTypeOfTheSynchronousCall(TableKind kind) throws Exception {
    try (HashTable t = table(kind, 32, 256)) {
      AsyncHashTable async = t.async();
      InvalidKeyException bad = assertInstanceOf(InvalidKeyException.class,
          failure(async.insert(new int[] {5, HashTable.EMPTY_KEY}, new int[] {50, 1})));
      assertEquals(1, bad.index());
      assertEquals(1, t.size(), "the other key was inserted");
      CompletionException joined = assertThrows(CompletionException.class,
          () -> async.erase(new int[] {HashTable.TOMBSTONE_KEY}).join());
      assertInstanceOf(InvalidKeyException.class, joined.getCause());
      assertInstanceOf(InvalidArgumentException.class, failure(async.insert(new int[] {1, 2}, new int[] {1})));
      assertInstanceOf(InvalidArgumentException.class, failure(async.insert(new long[] {1}, new long[] {1})));
      assertInstanceOf(NullPointerException.class, failure(async.find((int[]) null, -1)));
      try (Arena arena = Arena.ofShared()) {
        MemorySegment heap = MemorySegment.ofArray(new int[4]);
        assertInstanceOf(InvalidArgumentException.class, failure(async.contains(heap, arena.allocate(4), 4)));
        Arena closed = Arena.ofShared();
        MemorySegment gone = closed.allocate(JAVA_INT, 4);
        closed.close();
        assertInstanceOf(IllegalStateException.class, failure(async.contains(gone, arena.allocate(4), 4)));
      }
      assertEquals(1, t.size());
    }
    try (HashTable full = HashTable.builder().kind(kindOrSkip(kind)).capacity(100).growPolicy(GrowPolicy.NEVER)
        .build()) {
      int n = (int) full.capacity() * 2;
      int[] keys = new int[n];
      for (int i = 0; i < n; i++) {
        keys[i] = i;
      }
      TableFullException e = assertInstanceOf(TableFullException.class, failure(full.async().insert(keys, keys)));
      assertTrue(e.count() > 0);
    }
  }

  private static TableKind kindOrSkip(TableKind kind) {
    GpuAssumptions.requireOrSkip(kind);
    return kind;
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void aConfinedSegmentIsRejectedWhenTheCallIsMade(TableKind kind) throws Exception {
    try (HashTable t = table(kind, 32, 256); Arena confined = Arena.ofConfined()) {
      AsyncHashTable async = t.async();
      MemorySegment k = confined.allocate(JAVA_INT, 4);
      for (int i = 0; i < 4; i++) {
        k.setAtIndex(JAVA_INT, i, i);
      }
      try (Arena shared = Arena.ofShared()) {
        MemorySegment sk = shared.allocate(JAVA_INT, 4);
        MemorySegment.copy(k, 0, sk, 0, 16);
        WrongThreadException e = assertThrows(WrongThreadException.class, () -> async.insert(k, sk, 4, null));
        assertTrue(e.getMessage().contains("keys") && e.getMessage().contains("confined"), e.getMessage());
        assertThrows(WrongThreadException.class, () -> async.find(sk, confined.allocate(JAVA_INT, 4), 4, -1));
        assertThrows(WrongThreadException.class, () -> async.batch(shared.allocate(4), sk, sk, 4,
            confined.allocate(4)));
        assertFalse(threadAlive(async.queue().threadName()), "nothing was queued");
        assertEquals(0, t.size());
        get(async.insert(sk, sk, 4, MemorySegment.NULL));  // shared memory is fine
        assertEquals(4, t.size());
      }
      t.insert(k, k, 4, MemorySegment.NULL);  // the synchronous call takes it
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void theTablesThreadStartsWithTheFirstCallAndEndsWithTheTable(TableKind kind) throws Exception {
    HashTable t = table(kind, 32, 256);
    AsyncHashTable async = t.async();
    String name = async.queue().threadName();
    assertTrue(name.startsWith("wixlib-async-table-"), name);
    assertFalse(threadAlive(name), "no thread before the first asynchronous call");
    get(async.insert(new int[] {1}, new int[] {1}));
    assertEquals(name, get(async.queue().call(() -> Thread.currentThread().getName())));
    assertTrue(Thread.getAllStackTraces().keySet().stream().filter(th -> th.getName().equals(name))
        .allMatch(Thread::isDaemon), "a daemon thread");
    t.close();
    assertTrue(threadEnds(name), "after close no thread of the table remains");
    assertSame(async, t.async());
  }
}
