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

  /**
   * Columns of several staging slots (80 MB of keys, 160 MB of pairs; GPU kinds read and write the
   * arrays in place through the library's page-locked slots): every pair checked by arithmetic.
   */
  @ParameterizedTest
  @EnumSource(TableKind.class)
  void columnsLargerThanTheStagingSlots(TableKind kind) {
    if (kind.isGpu()) {
      GpuAssumptions.requireOrSkip(kind);
    }
    int n = 20_000_000;
    int[] build = new int[n];
    for (int i = 0; i < n; i++) {
      build[i] = i * 3 + 1;
    }
    int[] probe = new Random(5).ints(n, 0, 3 * n + 3).toArray();
    int want = 0;
    for (int k : probe) {
      want += k % 3 == 1 && k / 3 < n ? 1 : 0;
    }
    try (Join j = Join.builder().kind(kind).build(build)) {
      int[] pr = new int[n];
      int[] br = new int[n];
      assertEquals(want, j.probe(probe, pr, br), kind.toString());
      int prev = -1;
      for (int i = 0; i < want; i++) {
        int row = pr[i];
        assertEquals(true, row > prev, "probe rows ascend");
        assertEquals(probe[row], build[br[i]], "pair " + i);
        prev = row;
      }
      int[] rows = new int[n];
      assertEquals(n - want, j.semi(probe, true, rows));
      for (int i = 0; i < n - want; i++) {
        int k = probe[rows[i]];
        assertEquals(false, k % 3 == 1 && k / 3 < n, "anti row " + rows[i]);
      }
    }
  }
}
