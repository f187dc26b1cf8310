package org.wixlib;

/**
 * The matching (probe row, build row) pairs of a {@link Join} probe: pair i is
 * ({@code probeRows[i]}, {@code buildRows[i]}), grouped by probe row in probe order.
 */
public record JoinPairs(int[] probeRows, int[] buildRows) {
  /** Number of pairs. */
  public int size() {
    return probeRows.length;
  }
}
