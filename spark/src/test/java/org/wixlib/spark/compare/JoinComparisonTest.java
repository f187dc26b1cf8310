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
    List<JoinComparison.Result> results = JoinComparison.run(spark, new JoinComparison.Options(0.01, "cpu", 1, 0),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    Map<String, JoinComparison.Result> byCore = results.stream()
        .collect(Collectors.toMap(JoinComparison.Result::core, r -> r));
    assertEquals(6, byCore.size());
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
    assertTrue(csv.startsWith("core,spark_rows,wixlib_rows,check,spark_ms,wixlib_ms,speedup,sql_rows,sql_ms,sql_speedup"),
        csv);
    assertEquals(7, csv.lines().count(), csv);
    String header = err.toString(StandardCharsets.UTF_8);
    assertTrue(header.contains("spark: 4.") && header.contains("wixlib: ") && header.contains("scale factor 0.01"), header);
  }

  @Test
  void badOptionsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> JoinComparison.Options.parse(new String[] {"--sf", "0"}));
    assertThrows(IllegalArgumentException.class, () -> JoinComparison.Options.parse(new String[] {"--rows", "5"}));
    assertThrows(IllegalArgumentException.class, () -> JoinComparison.Options.parse(new String[] {"--sf"}));
    assertEquals(new JoinComparison.Options(10, "glht", 5, 16),
        JoinComparison.Options.parse(new String[] {"--sf", "10", "--kind", "glht", "--reps", "5", "--cores", "16"}));
  }
}
