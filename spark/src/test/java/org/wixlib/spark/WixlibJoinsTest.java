package org.wixlib.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The wixlib joins (CPU kind) give Spark's answers: the join cores of wixlib join on TPC-H-shaped keys. */
class WixlibJoinsTest {
  private static final long WIDE = 1L << 33;

  /** A TPC-H join core: build table and key, probe table and key, the result, the id columns. */
  enum Core {
    ORDERS_LINEITEM("orders", "o_orderkey", "lineitem", "l_orderkey", JoinType.INNER, "l_id", "o_id"),
    CUSTOMER_ORDERS("customer", "c_custkey", "orders", "o_custkey", JoinType.INNER, "o_id", "c_id"),
    LINEITEM_ORDERS("lineitem", "l_orderkey", "orders", "o_orderkey", JoinType.INNER, "o_id", "l_id"),
    Q4_SEMI("lineitem", "l_orderkey", "orders", "o_orderkey", JoinType.LEFT_SEMI, "o_id", null),
    Q22_ANTI("orders", "o_custkey", "customer", "c_custkey", JoinType.LEFT_ANTI, "c_id", null);

    final String build, buildKey, probe, probeKey, probeId, buildId;
    final JoinType type;

    Core(String build, String buildKey, String probe, String probeKey, JoinType type, String probeId, String buildId) {
      this.build = build;
      this.buildKey = buildKey;
      this.probe = probe;
      this.probeKey = probeKey;
      this.type = type;
      this.probeId = probeId;
      this.buildId = buildId;
    }

    Dataset<Row> table(TpchLikeTables t, String name) {
      return switch (name) {
        case "customer" -> t.customer();
        case "orders" -> t.orders();
        default -> t.lineitem();
      };
    }
  }

  /** int keys; long keys that fit 32 bits; long keys that need 64. */
  enum Keys { INT, LONG_NARROW, LONG_WIDE }

  private static final TpchLikeTables[] TABLES = new TpchLikeTables[Keys.values().length];

  private static synchronized TpchLikeTables tables(Keys k) {
    if (TABLES[k.ordinal()] == null) {
      TABLES[k.ordinal()] = TpchLikeTables.generate(LocalSpark.get(), 1500, 15000, k == Keys.LONG_WIDE ? WIDE : 0,
          k != Keys.INT);
    }
    return TABLES[k.ordinal()];
  }

  static Stream<Arguments> cases() {
    return Arrays.stream(Keys.values()).flatMap(k -> Arrays.stream(Core.values()).map(c -> Arguments.of(k, c)));
  }

  @ParameterizedTest(name = "{1} on {0} keys")
  @MethodSource("cases")
  void sameAnswersAsSpark(Keys keys, Core core) {
    TpchLikeTables t = tables(keys);
    Dataset<Row> build = core.table(t, core.build), probe = core.table(t, core.probe);
    JoinAnswers wixlib = JoinAnswers.of(WixlibJoins.join(build, probe, core.buildKey, core.probeKey, core.type),
        core.probeId, core.buildId);
    JoinAnswers spark = JoinAnswers.of(JoinAnswers.spark(build, probe, core.buildKey, core.probeKey, core.type),
        core.probeId, core.buildId);
    assertTrue(spark.count() > 0, "the core gives rows");
    assertEquals(spark, wixlib);
  }

  @Test
  void everyLineItemMatchesItsOrder() {
    TpchLikeTables t = tables(Keys.INT);
    long pairs = WixlibJoins.join(t.orders(), t.lineitem(), "o_orderkey", "l_orderkey", JoinType.INNER).count();
    assertEquals(t.lineitem().count(), pairs);
  }

  /** Reserved keys (-1, -2), nulls, repeated keys and probe keys wider than the build's 32 bits. */
  @ParameterizedTest
  @MethodSource("types")
  void edgeKeysGiveSparksAnswers(JoinType type) {
    SparkSession spark = LocalSpark.get();
    StructType bs = new StructType().add("b_id", DataTypes.IntegerType, false).add("b_key", DataTypes.IntegerType, true);
    StructType ps = new StructType().add("p_id", DataTypes.IntegerType, false).add("p_key", DataTypes.LongType, true);
    List<Row> b = List.of(RowFactory.create(0, -1), RowFactory.create(1, -2), RowFactory.create(2, -1),
        RowFactory.create(3, null), RowFactory.create(4, 7), RowFactory.create(5, 7), RowFactory.create(6, 0),
        RowFactory.create(7, Integer.MIN_VALUE));
    List<Row> p = List.of(RowFactory.create(0, -1L), RowFactory.create(1, -2L), RowFactory.create(2, null),
        RowFactory.create(3, 7L), RowFactory.create(4, 0L), RowFactory.create(5, 1L << 40),
        RowFactory.create(6, (long) Integer.MIN_VALUE), RowFactory.create(7, 4294967295L), RowFactory.create(8, -3L));
    Dataset<Row> build = spark.createDataFrame(b, bs), probe = spark.createDataFrame(p, ps).repartition(2);
    String buildId = type == JoinType.INNER ? "b_id" : null;
    assertEquals(JoinAnswers.of(JoinAnswers.spark(build, probe, "b_key", "p_key", type), "p_id", buildId),
        JoinAnswers.of(WixlibJoins.join(build, probe, "b_key", "p_key", type), "p_id", buildId));
  }

  static Stream<JoinType> types() {
    return Arrays.stream(JoinType.values());
  }

  @Test
  void nonIntegerKeysAreRefused() {
    SparkSession spark = LocalSpark.get();
    Dataset<Row> d = spark.range(3).selectExpr("id", "cast(id as string) as s");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> WixlibJoins.join(d, d, "s", "id", JoinType.INNER));
    assertTrue(e.getMessage().contains("'s' is string"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> WixlibJoins.join(d, d, "id", "missing", JoinType.LEFT_SEMI));
  }
}
