package org.wixlib.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Broadcast hash joins of Spark DataFrames on wixlib. The build side is collected to the driver and
 * broadcast; each executor builds one wixlib {@link org.wixlib.Join} per broadcast (on the kind of
 * {@value #KIND}), shares it among its tasks, and probes each partition in batches of {@value
 * #BATCH_ROWS} rows, one wixlib call per batch. Keys are byte, short, int or long columns; null keys
 * match nothing (a left anti join keeps such probe rows, as Spark's does).
 *
 * <pre>{@code
 * Dataset<Row> pairs = WixlibJoins.join(orders, lineitem, "o_orderkey", "l_orderkey", JoinType.INNER);
 * }</pre>
 *
 * <p>Executors close a join once its broadcast is destroyed or unpersisted and no task uses it, and at
 * JVM exit. A one-call {@link #join} leaves the broadcast to Spark's context cleaner; use {@link
 * #broadcast} to join one build side several times and close it when done.
 */
public final class WixlibJoins {
  /** The table kind executors build: auto (GLHT where a GPU is usable, else CPU), cpu, glht or hive. */
  public static final String KIND = "spark.wixlib.join.kind";
  /** Probe rows per wixlib call (default {@value #DEFAULT_BATCH_ROWS}). */
  public static final String BATCH_ROWS = "spark.wixlib.join.batchRows";
  public static final int DEFAULT_BATCH_ROWS = 1 << 16;

  private WixlibJoins() {}

  /** {@code probe} joined to {@code build} on {@code probe.probeKey = build.buildKey}. */
  public static Dataset<Row> join(Dataset<Row> build, Dataset<Row> probe, String buildKey, String probeKey,
      JoinType type) {
    return BroadcastBuild.of(build, buildKey, type == JoinType.INNER).join(probe, probeKey, type);
  }

  /** {@code build} collected and broadcast, for joins with {@link BroadcastBuild#join}. */
  public static BroadcastBuild broadcast(Dataset<Row> build, String buildKey) {
    return BroadcastBuild.of(build, buildKey, true);
  }
}
