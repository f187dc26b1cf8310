package org.wixlib.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.wixlib.Join;
import org.wixlib.JoinPairs;

/**
 * Probes one partition of the probe side, for any row type: rows are read in batches, each batch's
 * keys go to the executor's wixlib join in one call, and the batch's output rows are handed out before
 * the next batch is read. Probe rows whose key is null, or wider than a 32-bit join's, match nothing;
 * rows with a reserved key (-1, -2) are matched against the build side's reserved rows. The lease is
 * released when the input ends (and, by the caller, when the task completes).
 *
 * @param <R> the row type: {@code Row} ({@link WixlibJoins}) or Spark's internal rows (the SQL join)
 */
abstract class BatchProbe<R> implements Iterator<R> {
  private static final byte NORMAL = 0, RESERVED = 1, NEVER = 2;
  private static final int NO_MATCH = -1; // reserved: matches nothing in a probe

  private final Iterator<R> input;
  private final BuildSide side;
  private final ExecutorJoins.Lease lease;
  private final Join join;
  private final JoinType type;
  private final int batchRows;
  private final List<R> rows;
  private final long[] keys;
  private final byte[] classes;
  private final int[] narrow;
  private final long[] wide;
  private final int[] matches;
  private final boolean[] matched;
  private final long[] keyRead = new long[1]; // key()'s output
  private List<R> out = new ArrayList<>();
  private int next;
  private boolean done;

  BatchProbe(Iterator<R> input, BuildSide side, ExecutorJoins.Lease lease, JoinType type, int batchRows) {
    this.input = input;
    this.side = side;
    this.lease = lease;
    this.join = lease.join();
    this.type = type;
    this.batchRows = batchRows;
    this.rows = new ArrayList<>(batchRows);
    this.keys = new long[batchRows];
    this.classes = new byte[batchRows];
    this.narrow = join.keyBits() == 32 ? new int[batchRows] : null;
    this.wide = join.keyBits() == 64 ? new long[batchRows] : null;
    this.matches = new int[batchRows];
    this.matched = new boolean[batchRows];
  }

  /** The row as the batch keeps it (a copy where the input reuses its row objects). */
  protected abstract R keep(R row);

  /** Writes the row's key into key[0]; false when it is null. */
  protected abstract boolean key(R row, long[] key);

  /** An inner join's output row: the probe row joined to build row {@code buildRow} of the side. */
  protected abstract R merged(R probe, int buildRow);

  @Override
  public boolean hasNext() {
    while (next == out.size()) {
      if (done || !input.hasNext()) {
        done = true;
        lease.close(); // early release; the task's listener then does nothing
        return false;
      }
      out = new ArrayList<>();
      next = 0;
      probe(read());
    }
    return true;
  }

  @Override
  public R next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return out.get(next++);
  }

  /** Reads up to batchRows rows and stages their keys; the unused tail matches nothing. */
  private int read() {
    rows.clear();
    int n = 0;
    while (n < batchRows && input.hasNext()) {
      R r = keep(input.next());
      rows.add(r);
      byte c = NEVER;
      long k = NO_MATCH;
      if (key(r, keyRead)) {
        k = keyRead[0];
        c = BuildSide.isReserved(k) ? RESERVED : narrow != null && k != (int) k ? NEVER : NORMAL;
      }
      keys[n] = k;
      classes[n] = c;
      stage(n, c == NORMAL ? k : NO_MATCH);
      n++;
    }
    for (int i = n; i < batchRows; i++) {
      stage(i, NO_MATCH);
    }
    return n;
  }

  private void stage(int i, long k) {
    if (narrow != null) {
      narrow[i] = (int) k;
    } else {
      wide[i] = k;
    }
  }

  private void probe(int n) {
    if (type == JoinType.INNER) {
      JoinPairs pairs = narrow != null ? join.probe(narrow) : join.probe(wide);
      int[] p = pairs.probeRows(), b = pairs.buildRows();
      for (int i = 0; i < p.length; i++) {
        out.add(merged(rows.get(p[i]), b[i]));
      }
      for (int i = 0; i < n; i++) {
        if (classes[i] == RESERVED) {
          for (int r : side.reservedRows(keys[i])) {
            out.add(merged(rows.get(i), r));
          }
        }
      }
      return;
    }
    long count = narrow != null ? join.semi(narrow, false, matches) : join.semi(wide, false, matches);
    java.util.Arrays.fill(matched, 0, n, false);
    for (int i = 0; i < count; i++) {
      matched[matches[i]] = true;
    }
    boolean anti = type == JoinType.LEFT_ANTI;
    for (int i = 0; i < n; i++) {
      boolean m = classes[i] == RESERVED ? side.reservedRows(keys[i]).length > 0 : matched[i];
      if (m != anti) {
        out.add(rows.get(i));
      }
    }
  }
}
