package org.wixlib.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;

/**
 * The Spark SQL extension: with spark.wixlib.join.enabled, integer equi-joins that Spark would broadcast
 * run as WixlibBroadcastJoin and give Spark's own answers (the same query with the flag off); other
 * joins keep Spark's plan.
 */
class SqlJoinsTest {
  private static final String NODE = "WixlibBroadcastJoin";

  @BeforeAll
  static void tables() {
    SparkSession spark = LocalSpark.get();
    SplittableRandom r = new SplittableRandom(11);
    // build: repeated keys, nulls, the reserved keys -1 and -2; probe: misses, nulls, -1, -2
    view(spark, "sb", DataTypes.IntegerType, r, 3000, 2500, 0);
    view(spark, "sp", DataTypes.IntegerType, r, 20000, 4000, 0);
    view(spark, "lb", DataTypes.LongType, r, 3000, 2500, 1L << 40);
    view(spark, "lp", DataTypes.LongType, r, 20000, 4000, 1L << 40);
    view(spark, "xb", DataTypes.ShortType, r, 300, 200, 0);
    view(spark, "xp", DataTypes.ShortType, r, 2000, 400, 0);
  }

  /** A view (k, id, s) of rows with keys base + [0, range) and some null, -1 and -2 keys; s = k as text. */
  private static void view(SparkSession spark, String name, DataType type, SplittableRandom r, int rows, int range,
      long base) {
    List<Row> data = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      long k = base + r.nextInt(range);
      Object key = i % 97 == 0 ? null : i % 89 == 0 ? -1L : i % 83 == 0 ? -2L : k;
      data.add(RowFactory.create(key == null ? null : cast((Long) key, type), i, key == null ? null : key.toString()));
    }
    StructType schema = new StructType().add("k", type).add("id", DataTypes.IntegerType).add("s", DataTypes.StringType);
    spark.createDataFrame(data, schema).createOrReplaceTempView(name);
  }

  private static Object cast(long v, DataType type) {
    return type == DataTypes.IntegerType ? (Object) (int) v : type == DataTypes.ShortType ? (Object) (short) v : v;
  }

  @AfterEach
  void off() {
    LocalSpark.get().conf().set(WixlibSqlExtensions.Enabled(), "false");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT * FROM sp JOIN sb ON sp.k = sb.k",
      "SELECT * FROM sp LEFT SEMI JOIN sb ON sp.k = sb.k",
      "SELECT * FROM sp LEFT ANTI JOIN sb ON sp.k = sb.k",
      "SELECT * FROM sp WHERE EXISTS (SELECT 1 FROM sb WHERE sb.k = sp.k)",
      "SELECT * FROM sp WHERE NOT EXISTS (SELECT 1 FROM sb WHERE sb.k = sp.k)",
      "SELECT /*+ BROADCAST(sb) */ sp.id, sb.id FROM sb JOIN sp ON sb.k = sp.k",
      "SELECT * FROM lp JOIN lb ON lp.k = lb.k",
      "SELECT * FROM lp LEFT ANTI JOIN lb ON lp.k = lb.k",
      "SELECT * FROM xp JOIN xb ON xp.k = xb.k",
      "SELECT count(*), sum(sp.id) FROM sp JOIN sb ON sp.k = sb.k WHERE sb.id > 100",
  })
  void sameAnswersAsSparkJoin(String sql) {
    assertEquals(answer(sql, false), answer(sql, true), sql);
  }

  @Test
  void planUsesWixlibOnlyForIntegerKeysAndWhenEnabled() {
    assertTrue(plan("SELECT * FROM sp JOIN sb ON sp.k = sb.k", true).contains(NODE));
    assertFalse(plan("SELECT * FROM sp JOIN sb ON sp.k = sb.k", false).contains(NODE), "off by default");
    assertFalse(plan("SELECT * FROM sp JOIN sb ON sp.s = sb.s", true).contains(NODE), "string keys: Spark's join");
    assertFalse(plan("SELECT * FROM sp JOIN sb ON sp.k = sb.k AND sp.id < sb.id", true).contains(NODE),
        "another condition: Spark's join");
    assertFalse(plan("SELECT * FROM sp LEFT OUTER JOIN sb ON sp.k = sb.k", true).contains(NODE), "outer: Spark's join");
    assertFalse(plan("SELECT /*+ SHUFFLE_HASH(sb) */ * FROM sp JOIN sb ON sp.k = sb.k", true).contains(NODE),
        "a hint against broadcasting: Spark's join");
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void gpuKindsGiveSparksAnswers(TableKind kind) {
    assumeTrue(Wixlib.isAvailable(kind), () -> kind + " unavailable: " + Wixlib.unavailableReason(kind).orElse(""));
    SparkSession spark = LocalSpark.get();
    String before = spark.conf().get(WixlibJoins.KIND);
    spark.conf().set(WixlibJoins.KIND, kind.name().toLowerCase());
    try {
      for (String sql : List.of("SELECT * FROM sp JOIN sb ON sp.k = sb.k", "SELECT * FROM sp LEFT ANTI JOIN sb ON sp.k = sb.k")) {
        assertEquals(answer(sql, false), answer(sql, true), sql);
      }
    } finally {
      spark.conf().set(WixlibJoins.KIND, before);
    }
  }

  /** The query's rows as sorted text, with the extension on or off; on, its plan must use the wixlib join. */
  private static List<String> answer(String sql, boolean wixlib) {
    SparkSession spark = LocalSpark.get();
    spark.conf().set(WixlibSqlExtensions.Enabled(), Boolean.toString(wixlib));
    Dataset<Row> df = spark.sql(sql);
    List<String> rows = new ArrayList<>();
    for (Row r : df.collectAsList()) {
      rows.add(r.toString());
    }
    String plan = df.queryExecution().executedPlan().toString();
    assertEquals(wixlib, plan.contains(NODE), plan);
    Collections.sort(rows);
    assertFalse(rows.isEmpty() && !sql.contains("ANTI"), "an empty answer proves little: " + sql);
    return rows;
  }

  private static String plan(String sql, boolean wixlib) {
    SparkSession spark = LocalSpark.get();
    spark.conf().set(WixlibSqlExtensions.Enabled(), Boolean.toString(wixlib));
    Dataset<Row> df = spark.sql(sql);
    df.collectAsList();
    return df.queryExecution().executedPlan().toString();
  }
}
