package org.wixlib.cli.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.wixlib.LinkRates;

class JoinBoundTest {
  // h2d 50, d2h 50, both 90, host copy 20 GB/s for tables and 40 for joins (bytes per ns)
  private static final LinkRates LINK = new LinkRates(50, 50, 90, 20, 8, 40, 16);

  @Test
  void pinnedColumnsAreBoundByTheDmaAlone() {
    // build 4e6 B / 50 = 80 us; probe max(4e6/50, 8e6/50, 12e6/90) = 160 us
    assertEquals(0.24, JoinBound.millis(JoinColumns.Memory.PINNED, 1_000_000, 1_000_000, 8_000_000, LINK), 1e-9);
  }

  @Test
  void heapAndNativeColumnsAlsoPayTheHostCopy() {
    // build max(80 us, 4e6/40 = 100 us); probe max(160 us, 12e6/40 = 300 us)
    assertEquals(0.4, JoinBound.millis(JoinColumns.Memory.HEAP, 1_000_000, 1_000_000, 8_000_000, LINK), 1e-9);
    assertEquals(0.4, JoinBound.millis(JoinColumns.Memory.NATIVE, 1_000_000, 1_000_000, 8_000_000, LINK), 1e-9);
  }

  @Test
  void resultsArePairsOrRows() {
    assertEquals(80, JoinBound.resultBytes(JoinQuery.ORDERS_LINEITEM, 10));
    assertEquals(40, JoinBound.resultBytes(JoinQuery.Q4_SEMI, 10));
    assertEquals(40, JoinBound.resultBytes(JoinQuery.Q22_ANTI, 10));
  }

  @Test
  void noLinkNoBound() {
    assertNull(JoinBound.millis(JoinColumns.Memory.PINNED, 1, 1, 8, null));
    assertNull(JoinBound.millis(JoinColumns.Memory.HEAP, 1, 1, 8, new LinkRates(50, 50, 90, 20, 8, 0, 16)));
  }
}
