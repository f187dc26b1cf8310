package org.wixlib.spark;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** The row count and an order-independent checksum of a join's (probe id, build id) pairs or probe ids. */
record JoinAnswers(long count, long checksum) {

  /** buildId null: the rows of a semi or anti join, identified by probeId. */
  static JoinAnswers of(Dataset<Row> result, String probeId, String buildId) {
    Dataset<Row> ids = buildId == null ? result.select(probeId) : result.select(probeId, buildId);
    List<Row> rows = ids.collectAsList();
    long s = 0;
    for (Row r : rows) {
      long p = ((Number) r.get(0)).longValue();
      long b = buildId == null ? 0 : ((Number) r.get(1)).longValue() + 1;
      s += p * 0x9E3779B97F4A7C15L + b + 1;
    }
    return new JoinAnswers(rows.size(), s);
  }

  /** Spark's own join of the same sides. */
  static Dataset<Row> spark(Dataset<Row> build, Dataset<Row> probe, String buildKey, String probeKey, JoinType type) {
    return probe.join(build, probe.col(probeKey).equalTo(build.col(buildKey)), type.sparkName());
  }
}
