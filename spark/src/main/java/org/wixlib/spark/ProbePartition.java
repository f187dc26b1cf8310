package org.wixlib.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.util.TaskCompletionListener;
import org.wixlib.Join;
import org.wixlib.JoinPairs;

/**
 * Probes one partition of the probe side: rows are read in batches, each batch's keys go to the
 * executor's wixlib join in one call, and the batch's output rows are handed out before the next batch
 * is read. Probe rows whose key is null, or wider than a 32-bit join's, match nothing; rows with a
 * reserved key (-1, -2) are matched against the build side's reserved rows.
 */
final class ProbePartition implements MapPartitionsFunction<Row, Row> {
  private static final long serialVersionUID = 1L;
  private static final byte NORMAL = 0, RESERVED = 1, NEVER = 2;
  private static final int NO_MATCH = -1; // reserved: matches nothing in a probe

  private final Broadcast<BuildSide> build;
  private final KeyColumn key;
  private final JoinType type;
  private final String kind;
  private final int batchRows;

  ProbePartition(Broadcast<BuildSide> build, KeyColumn key, JoinType type, String kind, int batchRows) {
    this.build = build;
    this.key = key;
    this.type = type;
    this.kind = kind;
    this.batchRows = batchRows;
  }

  @Override
  public Iterator<Row> call(Iterator<Row> input) {
    BuildSide side = build.value();
    ExecutorJoins.Lease lease = ExecutorJoins.INSTANCE.acquire(build.id(), side, kind);
    TaskContext task = TaskContext.get();
    if (task != null) {
      task.addTaskCompletionListener((TaskCompletionListener) done -> lease.close());
    }
    return new Batches(input, side, lease);
  }

  private final class Batches implements Iterator<Row> {
    private final Iterator<Row> input;
    private final BuildSide side;
    private final ExecutorJoins.Lease lease;
    private final Join join;
    private final Row[] rows = new Row[batchRows];
    private final long[] keys = new long[batchRows];
    private final byte[] classes = new byte[batchRows];
    private final int[] narrow;
    private final long[] wide;
    private final int[] matches = new int[batchRows];
    private final boolean[] matched = new boolean[batchRows];
    private List<Row> out = new ArrayList<>();
    private int next;
    private boolean done;

    Batches(Iterator<Row> input, BuildSide side, ExecutorJoins.Lease lease) {
      this.input = input;
      this.side = side;
      this.lease = lease;
      this.join = lease.join();
      this.narrow = join.keyBits() == 32 ? new int[batchRows] : null;
      this.wide = join.keyBits() == 64 ? new long[batchRows] : null;
    }

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
    public Row next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return out.get(next++);
    }

    /** Reads up to batchRows rows and stages their keys; the unused tail matches nothing. */
    private int read() {
      int n = 0;
      while (n < batchRows && input.hasNext()) {
        Row r = input.next();
        rows[n] = r;
        byte c = NEVER;
        long k = NO_MATCH;
        if (!key.isNull(r)) {
          k = key.get(r);
          c = BuildSide.isReserved(k) ? RESERVED : narrow != null && k != (int) k ? NEVER : NORMAL;
        }
        keys[n] = k;
        classes[n] = c;
        stage(n, c == NORMAL ? k : NO_MATCH);
        n++;
      }
      for (int i = n; i < batchRows; i++) {
        rows[i] = null;
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
          out.add(merge(rows[p[i]], side.rows().get(b[i])));
        }
        for (int i = 0; i < n; i++) {
          if (classes[i] == RESERVED) {
            for (int r : side.reservedRows(keys[i])) {
              out.add(merge(rows[i], side.rows().get(r)));
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
          out.add(rows[i]);
        }
      }
    }
  }

  /** The probe row's columns, then the build row's. */
  private static Row merge(Row probe, Row build) {
    int p = probe.length(), b = build.length();
    Object[] values = new Object[p + b];
    for (int i = 0; i < p; i++) {
      values[i] = probe.get(i);
    }
    for (int i = 0; i < b; i++) {
      values[p + i] = build.get(i);
    }
    return RowFactory.create(values);
  }
}
