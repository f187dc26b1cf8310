package org.wixlib.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;

/** The GPU kinds give Spark's answers (skipped where no GPU is usable). */
class GpuJoinsTest {
  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void sameAnswersAsSpark(TableKind kind) {
    assumeTrue(Wixlib.isAvailable(kind), () -> kind + " unavailable: " + Wixlib.unavailableReason(kind).orElse(""));
    SparkSession spark = LocalSpark.get();
    TpchLikeTables t = TpchLikeTables.generate(spark, 1500, 15000, 0, false);
    String before = spark.conf().get(WixlibJoins.KIND);
    spark.conf().set(WixlibJoins.KIND, kind.name().toLowerCase());
    try {
      for (JoinType type : JoinType.values()) {
        String buildId = type == JoinType.INNER ? "l_id" : null;
        Dataset<Row> build = t.lineitem(), probe = t.orders();
        assertEquals(JoinAnswers.of(JoinAnswers.spark(build, probe, "l_orderkey", "o_orderkey", type), "o_id", buildId),
            JoinAnswers.of(WixlibJoins.join(build, probe, "l_orderkey", "o_orderkey", type), "o_id", buildId), type.name());
      }
    } finally {
      spark.conf().set(WixlibJoins.KIND, before);
    }
  }
}
