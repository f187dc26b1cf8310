package org.wixlib.spark.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.wixlib.spark.WixlibSqlExtensions;

/**
 * The comparison runner on TPC-H SF 0.01 (CPU kind): Spark's join and wixlib's give the same row counts,
 * which are dbgen's (every line item has its order and its part; every order has line items; customers
 * whose key is a multiple of 3 have no orders), and the output names what it ran on.
 */
class JoinComparisonTest {
  @Test
  void sparkAndWixlibCountTheSameRowsAsDbgen() {
    SparkSession spark = SparkSession.builder().master("local[2]").appName("wixlib-spark-comparison-test")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.shuffle.partitions", "4")
        // as the other test classes' session (one JVM, one session: whichever test starts it configures it)
        .config("spark.sql.extensions", WixlibSqlExtensions.class.getName()).getOrCreate();
    ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
    List<JoinComparison.Result> results = JoinComparison.run(spark, new JoinComparison.Options(0.01, List.of("cpu", "auto"), 1, 1, true, 0),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(12, results.size(), "six cores, two kinds");
    Map<String, JoinComparison.Result> byCore = results.stream().filter(r -> r.kind().equals("cpu"))
        .collect(Collectors.toMap(JoinComparison.Result::core, r -> r));
    assertEquals(6, byCore.size());
    for (JoinComparison.Result r : results) {
      // Spark's own join is measured once per core and set beside each kind.
      assertEquals(byCore.get(r.core()).sparkMs(), r.sparkMs(), r.toString());
      assertEquals(byCore.get(r.core()).wixlibRows(), r.wixlibRows(), r.toString());
    }
    for (JoinComparison.Result r : results) {
      assertTrue(r.agree(), r.toString());
      assertTrue(r.sparkMs() > 0 && r.wixlibMs() > 0, r.toString());
    }
    assertEquals(60175, byCore.get("orders_lineitem").wixlibRows());
    assertEquals(15000, byCore.get("customer_orders").wixlibRows());
    assertEquals(60175, byCore.get("part_lineitem").wixlibRows());
    assertEquals(60175, byCore.get("lineitem_orders").wixlibRows());
    assertEquals(15000, byCore.get("q4_semi").wixlibRows());
    assertEquals(500, byCore.get("q22_anti").wixlibRows());
    assertTrue(JoinComparison.sqlExtension(spark));
    for (JoinComparison.Result r : results) {
      assertEquals(r.sparkRows(), r.sqlRows(), "Spark's join planned on wixlib: " + r);
      assertTrue(r.sqlMs() > 0, r.toString());
    }
    String csv = out.toString(StandardCharsets.UTF_8);
    assertTrue(csv.startsWith("core,kind,spark_rows,wixlib_rows,check,spark_ms,wixlib_ms,speedup,sql_rows,sql_ms,sql_speedup"),
        csv);
    assertEquals(6, csv.lines().filter(l -> l.split(",")[1].equals("cpu")).count(), csv);
    assertEquals(6, csv.lines().filter(l -> l.split(",")[1].equals("auto")).count(), csv);
    assertEquals(13, csv.lines().count(), csv);
    String header = err.toString(StandardCharsets.UTF_8);
    assertTrue(header.contains("spark: 4.") && header.contains("wixlib: ") && header.contains("scale factor 0.01"), header);
  }

  @Test
  void badOptionsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> JoinComparison.Options.parse(new String[] {"--sf", "0"}));
    assertThrows(IllegalArgumentException.class, () -> JoinComparison.Options.parse(new String[] {"--rows", "5"}));
    assertThrows(IllegalArgumentException.class, () -> JoinComparison.Options.parse(new String[] {"--sf"}));
    assertThrows(IllegalArgumentException.class, () -> JoinComparison.Options.parse(new String[] {"--sql", "yes"}));
    assertThrows(IllegalArgumentException.class, () -> JoinComparison.Options.parse(new String[] {"--warmups", "-1"}));
    assertThrows(IllegalArgumentException.class, () -> JoinComparison.Options.parse(new String[] {"--kind", ","}));
    assertEquals(new JoinComparison.Options(10, List.of("glht"), 5, 1, true, 16),
        JoinComparison.Options.parse(new String[] {"--sf", "10", "--kind", "glht", "--reps", "5", "--cores", "16"}));
    assertEquals(new JoinComparison.Options(10, List.of("glht", "hive"), 1, 0, false, 0), JoinComparison.Options.parse(
        new String[] {"--sf", "10", "--kind", "glht,hive", "--reps", "1", "--warmups", "0", "--sql", "off"}));
  }
}
