package org.wixlib.spark;

import java.util.Iterator;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.util.TaskCompletionListener;

/**
 * Probes one partition of the probe side of a {@link WixlibJoins} join in batches ({@link BatchProbe}),
 * on the executor's wixlib join for the broadcast.
 */
final class ProbePartition implements MapPartitionsFunction<Row, Row> {
  private static final long serialVersionUID = 1L;

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

  /** The probe of Row objects: kept as they come (a Dataset's rows are not reused). */
  private final class Batches extends BatchProbe<Row> {
    private final BuildSide side;

    Batches(Iterator<Row> input, BuildSide side, ExecutorJoins.Lease lease) {
      super(input, side, lease, type, batchRows);
      this.side = side;
    }

    @Override
    protected Row keep(Row row) {
      return row;
    }

    @Override
    protected boolean key(Row row, long[] into) {
      if (key.isNull(row)) {
        return false;
      }
      into[0] = key.get(row);
      return true;
    }

    @Override
    protected Row merged(Row probe, int buildRow) {
      return merge(probe, side.rows().get(buildRow));
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
