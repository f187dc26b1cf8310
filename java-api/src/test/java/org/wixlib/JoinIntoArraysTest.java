package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Join outputs written into the caller's arrays: the same pairs and rows as the allocating calls,
 * nothing written when the room is too small, and large enough for the parallel host copies.
 */
class JoinIntoArraysTest {

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void pairsAndRowsIntoCallerArrays(TableKind kind) {
    if (kind.isGpu()) {
      GpuAssumptions.requireOrSkip(kind);
    }
    Random r = new Random(11);
    int n = 2_200_000;  // 8.8 MB of keys: copied in parallel
    int[] build = new int[n];
    for (int i = 0; i < n; i++) {
      build[i] = i * 3 + 1;
    }
    int[] probe = r.ints(n, 0, 4 * n).toArray();
    for (Join.Build b : Join.Build.values()) {
      try (Join j = Join.builder().kind(kind).build(b).build(build)) {
        JoinPairs want = j.probe(probe);
        int[] pr = new int[n];
        int[] br = new int[n];
        assertEquals(want.size(), j.probe(probe, pr, br), kind + " " + b);
        assertArrayEquals(want.probeRows(), Arrays.copyOf(pr, want.size()));
        assertArrayEquals(want.buildRows(), Arrays.copyOf(br, want.size()));
        assertArrayEquals(JoinCpuTest.oracle(JoinCpuTest.widen(build), JoinCpuTest.widen(probe)),
            JoinCpuTest.packed(want));
        // Too small: the count comes back, nothing is written.
        int[] small = new int[want.size() - 1];
        Arrays.fill(small, -7);
        assertEquals(want.size(), j.probe(probe, small, new int[want.size()]));
        assertEquals(-7, small[0]);
        int[] rows = new int[n];
        int[] semi = j.semi(probe);
        assertEquals(semi.length, j.semi(probe, false, rows));
        assertArrayEquals(semi, Arrays.copyOf(rows, semi.length));
        int[] anti = j.anti(probe);
        assertEquals(anti.length, j.semi(probe, true, rows));
        assertArrayEquals(anti, Arrays.copyOf(rows, anti.length));
        assertThrows(InvalidArgumentException.class, () -> j.semi(probe, true, new int[n - 1]));
        assertThrows(NullPointerException.class, () -> j.probe(probe, null, br));
      }
    }
  }
}
