package org.wixlib.spark;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A build side collected to the driver and broadcast, ready to join any number of probe sides. Each
 * executor builds one wixlib join for it, on the first task that probes it. {@link #close()}
 * destroys the broadcast; the executors then close their joins (see {@link WixlibJoins}). Without
 * close, Spark's context cleaner does so once the driver holds neither this object nor a Dataset
 * made from it.
 */
public final class BroadcastBuild implements AutoCloseable {
  private final Broadcast<BuildSide> broadcast;
  private final StructType schema;
  private final boolean withRows;
  private volatile boolean closed;

  private BroadcastBuild(Broadcast<BuildSide> broadcast, StructType schema, boolean withRows) {
    this.broadcast = broadcast;
    this.schema = schema;
    this.withRows = withRows;
  }

  /** Collects {@code build} (its key column only when {@code withRows} is false) and broadcasts it. */
  static BroadcastBuild of(Dataset<Row> build, String buildKey, boolean withRows) {
    KeyColumn key = KeyColumn.of(build.schema(), buildKey);
    BuildSide side;
    if (withRows) {
      side = BuildSide.of(build.collectAsList(), key, true);
    } else {
      List<Row> keys = build.select(build.col(quoted(buildKey))).collectAsList();
      side = BuildSide.of(keys, new KeyColumn(key.name(), 0, key.wide()), false);
    }
    SparkSession spark = build.sparkSession();
    Broadcast<BuildSide> b = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(side);
    return new BroadcastBuild(b, build.schema(), withRows);
  }

  /**
   * Joins {@code probe} to this build side on {@code probe.probeKey = build.buildKey}. Lazy, like any
   * Dataset: each action probes again (with the executors' joins already built).
   */
  public Dataset<Row> join(Dataset<Row> probe, String probeKey, JoinType type) {
    if (closed) {
      throw new IllegalStateException("this build side is closed");
    }
    if (type == JoinType.INNER && !withRows) {
      throw new IllegalStateException("this build side holds keys only: an inner join needs WixlibJoins.broadcast");
    }
    KeyColumn key = KeyColumn.of(probe.schema(), probeKey);
    StructType out = type == JoinType.INNER ? concat(probe.schema(), schema) : probe.schema();
    var conf = probe.sparkSession().conf();
    String kind = conf.get(WixlibJoins.KIND, "auto");
    int batch = Integer.parseInt(conf.get(WixlibJoins.BATCH_ROWS, String.valueOf(WixlibJoins.DEFAULT_BATCH_ROWS)).trim());
    if (batch < 1) {
      throw new IllegalArgumentException(WixlibJoins.BATCH_ROWS + " must be at least 1, got " + batch);
    }
    return probe.mapPartitions(new ProbePartition(broadcast, key, type, kind, batch), Encoders.row(out));
  }

  /** The id of the broadcast (executors key their joins by it). */
  public long id() {
    return broadcast.id();
  }

  /** Destroys the broadcast; idempotent. Datasets made from it fail once run again. */
  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      broadcast.destroy();
    }
  }

  private static StructType concat(StructType a, StructType b) {
    StructField[] f = Arrays.copyOf(a.fields(), a.fields().length + b.fields().length);
    System.arraycopy(b.fields(), 0, f, a.fields().length, b.fields().length);
    return new StructType(f);
  }

  private static String quoted(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
