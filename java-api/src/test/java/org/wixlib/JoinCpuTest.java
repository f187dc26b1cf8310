package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The Join facade on the CPU kind against a java.util.HashMap join. */
class JoinCpuTest {

  /** Pairs of a HashMap hash join, as "probeRow:buildRow" longs sorted. */
  static long[] oracle(long[] build, long[] probe) {
    Map<Long, List<Integer>> m = new HashMap<>();
    for (int i = 0; i < build.length; i++) {
      m.computeIfAbsent(build[i], k -> new ArrayList<>()).add(i);
    }
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < probe.length; i++) {
      for (int b : m.getOrDefault(probe[i], List.of())) {
        out.add(((long) i << 32) | b);
      }
    }
    return out.stream().mapToLong(Long::longValue).sorted().toArray();
  }

  static long[] packed(JoinPairs p) {
    long[] out = new long[p.size()];
    for (int i = 0; i < p.size(); i++) {
      out[i] = ((long) p.probeRows()[i] << 32) | p.buildRows()[i];
    }
    java.util.Arrays.sort(out);
    return out;
  }

  static long[] widen(int[] a) {
    return java.util.Arrays.stream(a).asLongStream().toArray();
  }

  @Test
  void uniqueAndMultiAgainstHashMap() {
    Random r = new Random(11);
    int n = 50_000;
    int[] unique = new int[n];
    for (int i = 0; i < n; i++) {
      unique[i] = i * 3 + 1;
    }
    int[] multi = r.ints(n, 0, n / 4).toArray();
    int[] probe = r.ints(3 * n, 0, 3 * n).toArray();
    for (Join.Build b : Join.Build.values()) {
      int[] build = b == Join.Build.UNIQUE ? unique : multi;
      try (Join j = Join.builder().kind(TableKind.CPU).build(b).build(build)) {
        long[] want = oracle(widen(build), widen(probe));
        assertTrue(want.length > 1000);
        assertEquals(want.length, j.count(probe));
        assertArrayEquals(want, packed(j.probe(probe)), b + " pairs");
        assertArrayEquals(want, packed(j.probe(probe, j.hash(probe))), b + " pre-hashed pairs");
        int[] semi = j.semi(probe), anti = j.anti(probe);
        assertEquals(probe.length, semi.length + anti.length);
        long distinctProbeRows = java.util.Arrays.stream(want).map(x -> x >>> 32).distinct().count();
        assertEquals(distinctProbeRows, semi.length);
        JoinStats s = j.stats();
        assertEquals(n, s.buildRows());
        assertEquals(b == Join.Build.UNIQUE ? n : java.util.Arrays.stream(multi).distinct().count(), s.distinctKeys());
      }
    }
  }

  @Test
  void wideKeys() {
    long[] build = {1L << 40, 5, (1L << 40) + 1, 5};
    long[] probe = {5, 1L << 40, 7, -1L};
    try (Join j = Join.builder().build(Join.Build.MULTI).build(build)) {
      assertEquals(64, j.keyBits());
      assertArrayEquals(oracle(build, probe), packed(j.probe(probe)));
      assertArrayEquals(new int[] {2, 3}, j.anti(probe));
      assertThrows(InvalidArgumentException.class, () -> j.probe(new int[] {1}));
    }
  }

  @Test
  void segmentsAreReadInPlace() {
    try (Arena a = Arena.ofConfined(); Join j = Join.builder().build(new int[] {10, 20, 30})) {
      MemorySegment keys = a.allocate(JAVA_INT, 4);
      keys.setAtIndex(JAVA_INT, 0, 30);
      keys.setAtIndex(JAVA_INT, 1, 99);
      keys.setAtIndex(JAVA_INT, 2, 10);
      keys.setAtIndex(JAVA_INT, 3, 30);
      JoinPairs p = j.probe(keys, 4);
      assertArrayEquals(new int[] {0, 2, 3}, p.probeRows());
      assertArrayEquals(new int[] {2, 0, 2}, p.buildRows());
      // Caller's outputs: too small -> count returned, nothing written.
      MemorySegment pr = a.allocate(JAVA_INT, 3), br = a.allocate(JAVA_INT, 3);
      pr.fill((byte) 0x7F);
      assertEquals(3, j.probe(keys, MemorySegment.NULL, 4, pr, br, 2));
      assertEquals(0x7F7F7F7F, pr.getAtIndex(JAVA_INT, 0));
      assertEquals(3, j.probe(keys, MemorySegment.NULL, 4, pr, br, 3));
      assertEquals(3, pr.getAtIndex(JAVA_INT, 2));
      MemorySegment hashes = a.allocate(JAVA_LONG, 4);
      j.hash(keys, 4, hashes);
      assertEquals(3, j.probe(keys, hashes, 4).size());
      MemorySegment rows = a.allocate(JAVA_INT, 4);
      assertEquals(1, j.semi(keys, 4, true, rows));
      assertEquals(1, rows.getAtIndex(JAVA_INT, 0));
      assertEquals(3, j.count(keys, 4));
      // A build from a segment (an Arrow-style column).
      try (Join k = Join.builder().build(keys, 3)) {
        assertEquals(3, k.stats().distinctKeys());
      }
      assertThrows(InvalidArgumentException.class, () -> j.probe(MemorySegment.ofArray(new int[4]), 4));
    }
  }

  @Test
  void errorsAndLifecycle() {
    InvalidArgumentException dup = assertThrows(InvalidArgumentException.class,
        () -> Join.builder().build(new int[] {4, 5, 4}));
    assertTrue(dup.getMessage().contains("build key 4 appears at rows 0 and 2"), dup.getMessage());
    assertThrows(InvalidKeyException.class, () -> Join.builder().build(Join.Build.MULTI).build(new int[] {1, -1}));
    Join j = Join.builder().build(new int[] {1, 2});
    assertEquals(0, j.probe(new int[0]).size());
    assertArrayEquals(new int[] {2}, j.semi(new int[] {3, -1, 2}));  // reserved probe keys match nothing
    j.close();
    j.close();
    assertTrue(j.isClosed());
    assertThrows(IllegalStateException.class, () -> j.probe(new int[] {1}));
    assertThrows(IllegalStateException.class, j::stats);
  }
}
