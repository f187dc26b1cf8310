package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.wixlib.AsyncHashTableTest.failure;
import static org.wixlib.AsyncHashTableTest.get;
import static org.wixlib.AsyncHashTableTest.threadAlive;
import static org.wixlib.AsyncHashTableTest.threadEnds;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The asynchronous join calls ({@link AsyncJoin}) against the synchronous ones and a HashMap join; on
 * the CPU kind and, where a GPU is usable, GLHT and Hive (skipped visibly otherwise).
 */
class AsyncJoinTest {

  private static Join join(TableKind kind, Join.Build build, int[] keys) {
    GpuAssumptions.requireOrSkip(kind);
    return Join.builder().kind(kind).build(build).build(keys);
  }

  /** Build keys: distinct for UNIQUE, repeated for MULTI. */
  private static int[] buildKeys(Join.Build b, int n, Random r) {
    if (b == Join.Build.MULTI) {
      return r.ints(n, 0, n / 4).toArray();
    }
    int[] k = new int[n];
    for (int i = 0; i < n; i++) {
      k[i] = 3 * i + 1;
    }
    return k;
  }

  private static int[] rows(long[] packed, boolean anti, int n) {
    boolean[] hit = new boolean[n];
    for (long p : packed) {
      hit[(int) (p >>> 32)] = true;
    }
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (hit[i] != anti) {
        out.add(i);
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void arraysAndSegmentsGiveWhatTheSynchronousCallsGive(TableKind kind) throws Exception {
    Random r = new Random(21);
    int n = 40_000;
    int[] probe = r.ints(2 * n, 0, 3 * n).toArray();
    for (Join.Build b : Join.Build.values()) {
      int[] build = buildKeys(b, n, r);
      long[] want = JoinCpuTest.oracle(JoinCpuTest.widen(build), JoinCpuTest.widen(probe));
      try (Join j = join(kind, b, build); Arena arena = Arena.ofShared()) {
        AsyncJoin async = j.async();
        assertEquals(j, async.join());
        CompletableFuture<Long> count = async.count(probe);
        CompletableFuture<JoinPairs> pairs = async.probe(probe);
        CompletableFuture<int[]> semi = async.semi(probe);
        CompletableFuture<int[]> anti = async.anti(probe);
        int[] pr = new int[want.length];
        int[] br = new int[want.length];
        CompletableFuture<Long> into = async.probe(probe, pr, br);
        int[] rows = new int[probe.length];
        CompletableFuture<Long> semiInto = async.semi(probe, false, rows);
        assertEquals(want.length, get(count));
        assertEquals(j.count(probe), get(count));
        assertArrayEquals(want, JoinCpuTest.packed(get(pairs)), kind + " " + b);
        assertArrayEquals(rows(want, false, probe.length), get(semi));
        assertArrayEquals(j.anti(probe), get(anti));
        assertArrayEquals(rows(want, true, probe.length), get(anti));
        assertEquals(want.length, get(into));
        assertArrayEquals(want, JoinCpuTest.packed(new JoinPairs(pr, br)));
        long semiRows = get(semiInto);
        assertArrayEquals(get(semi), java.util.Arrays.copyOf(rows, (int) semiRows));

        MemorySegment k = arena.allocate(JAVA_INT, probe.length);
        MemorySegment.copy(probe, 0, k, JAVA_INT, 0, probe.length);
        assertEquals(want.length, get(async.count(k, probe.length)));
        assertArrayEquals(want, JoinCpuTest.packed(get(async.probe(k, probe.length))));
        assertArrayEquals(want, JoinCpuTest.packed(get(async.probe(k, MemorySegment.NULL, probe.length))));
        MemorySegment p = arena.allocate(JAVA_INT, Math.max(want.length, 1));
        MemorySegment q = arena.allocate(JAVA_INT, Math.max(want.length, 1));
        assertEquals(want.length, get(async.probe(k, MemorySegment.NULL, probe.length, p, q, want.length)));
        assertArrayEquals(want, JoinCpuTest.packed(new JoinPairs(p.asSlice(0, 4L * want.length).toArray(JAVA_INT),
            q.asSlice(0, 4L * want.length).toArray(JAVA_INT))));
        MemorySegment semiRowsSeg = arena.allocate(JAVA_INT, probe.length);
        long antiCount = get(async.semi(k, probe.length, true, semiRowsSeg));
        assertArrayEquals(get(anti), semiRowsSeg.asSlice(0, 4 * antiCount).toArray(JAVA_INT));

        if (kind != TableKind.HIVE) {
          long[] hashes = get(async.hash(probe));
          assertArrayEquals(j.hash(probe), hashes);
          assertArrayEquals(want, JoinCpuTest.packed(get(async.probe(probe, hashes))));
        } else {
          assertInstanceOf(UnsupportedKindException.class, failure(async.hash(probe)));
        }
        if (kind.isGpu()) {
          deviceColumns(async, probe, want);
        }
      }
    }
  }

  private static void deviceColumns(AsyncJoin async, int[] probe, long[] want) throws Exception {
    try (DeviceBuffer keys = DeviceBuffer.ofInts(0, probe);
        DeviceBuffer pr = DeviceBuffer.allocate(0, 4L * Math.max(want.length, 1));
        DeviceBuffer br = DeviceBuffer.allocate(0, 4L * Math.max(want.length, 1));
        DeviceBuffer rows = DeviceBuffer.allocate(0, 4L * probe.length)) {
      assertEquals(want.length, get(async.count(keys, probe.length)));
      assertEquals(want.length, get(async.probe(keys, probe.length, pr, br)));
      int[] p = new int[want.length];
      int[] q = new int[want.length];
      pr.copyTo(p);
      br.copyTo(q);
      assertArrayEquals(want, JoinCpuTest.packed(new JoinPairs(p, q)));
      assertEquals(want.length, get(async.probe(keys, null, probe.length, pr, br)));
      long semi = get(async.semi(keys, probe.length, false, rows));
      assertEquals(rows(want, false, probe.length).length, semi);
    }
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = "CPU")
  void longKeys(TableKind kind) throws Exception {
    Random r = new Random(22);
    long[] build = r.longs(10_000, 0, Long.MAX_VALUE).distinct().toArray();
    long[] probe = new long[20_000];
    for (int i = 0; i < probe.length; i++) {
      probe[i] = i % 2 == 0 ? build[r.nextInt(build.length)] : r.nextLong(0, Long.MAX_VALUE);
    }
    long[] want = JoinCpuTest.oracle(build, probe);
    try (Join j = Join.builder().kind(kind).build(build)) {
      AsyncJoin async = j.async();
      assertEquals(want.length, get(async.count(probe)));
      assertArrayEquals(want, JoinCpuTest.packed(get(async.probe(probe))));
      assertArrayEquals(want, JoinCpuTest.packed(get(async.probe(probe, get(async.hash(probe))))));
      int[] pr = new int[want.length];
      int[] br = new int[want.length];
      assertEquals(want.length, get(async.probe(probe, pr, br)));
      assertArrayEquals(want, JoinCpuTest.packed(new JoinPairs(pr, br)));
      assertArrayEquals(j.semi(probe), get(async.semi(probe)));
      assertArrayEquals(j.anti(probe), get(async.anti(probe)));
      int[] rows = new int[probe.length];
      assertEquals(j.anti(probe).length, get(async.semi(probe, true, rows)));
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void twoJoinsProbedFromSeveralThreads(TableKind kind) throws Exception {
    Random r = new Random(23);
    int n = 20_000;
    int[] buildA = buildKeys(Join.Build.UNIQUE, n, r);
    int[] buildB = buildKeys(Join.Build.MULTI, n, r);
    try (Join a = join(kind, Join.Build.UNIQUE, buildA); Join b = join(kind, Join.Build.MULTI, buildB)) {
      List<CompletableFuture<Void>> done = new ArrayList<>();
      for (int th = 0; th < 4; th++) {
        int[] probe = new Random(th).ints(n, 0, 3 * n).toArray();
        long[] wantA = JoinCpuTest.oracle(JoinCpuTest.widen(buildA), JoinCpuTest.widen(probe));
        long[] wantB = JoinCpuTest.oracle(JoinCpuTest.widen(buildB), JoinCpuTest.widen(probe));
        done.add(CompletableFuture.runAsync(() -> {
          List<CompletableFuture<JoinPairs>> pa = new ArrayList<>();
          List<CompletableFuture<JoinPairs>> pb = new ArrayList<>();
          for (int i = 0; i < 5; i++) {
            pa.add(a.async().probe(probe));
            pb.add(b.async().probe(probe));
          }
          for (int i = 0; i < 5; i++) {
            assertArrayEquals(wantA, JoinCpuTest.packed(pa.get(i).join()));
            assertArrayEquals(wantB, JoinCpuTest.packed(pb.get(i).join()));
          }
        }, task -> Thread.ofPlatform().start(task)));
      }
      CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void cancelCloseAndErrors(TableKind kind) throws Exception {
    int[] build = {1, 2, 3, 4};
    Join j = join(kind, Join.Build.UNIQUE, build);
    AsyncJoin async = j.async();
    String name = async.queue().threadName();
    assertTrue(name.startsWith("wixlib-async-join-"), name);
    assertFalse(threadAlive(name), "no thread before the first call");
    assertEquals(2L, get(async.count(new int[] {2, 3, 9})));

    // A reserved key in a probe column matches nothing; a 64-bit column on a 32-bit join is refused.
    assertEquals(1L, get(async.count(new int[] {2, HashTable.EMPTY_KEY})));
    assertInstanceOf(InvalidArgumentException.class, failure(async.probe(new long[] {1})));
    assertInstanceOf(NullPointerException.class, failure(async.semi((int[]) null)));
    try (Arena confined = Arena.ofConfined()) {
      MemorySegment k = confined.allocate(JAVA_INT, 2);
      assertThrows(WrongThreadException.class, () -> async.count(k, 2));
      assertThrows(WrongThreadException.class, () -> async.semi(k, 2, false, confined.allocate(JAVA_INT, 2)));
    }

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
    CompletableFuture<Long> cancelled = async.count(new int[] {1});
    assertTrue(cancelled.cancel(false));
    long started = async.queue().started();
    CompletableFuture<JoinPairs> queued = async.probe(new int[] {1, 2});
    j.close();
    release.countDown();
    Throwable e = failure(queued);
    assertInstanceOf(IllegalStateException.class, e);
    assertEquals("join is closed", e.getMessage());
    assertTrue(cancelled.isCancelled());
    assertEquals(started, async.queue().started(), "neither the cancelled nor the queued call ran");
    CompletionException late = assertThrows(CompletionException.class, () -> async.anti(new int[] {1}).join());
    assertInstanceOf(IllegalStateException.class, late.getCause());
    assertTrue(threadEnds(name), "no thread of the join remains");
  }
}
