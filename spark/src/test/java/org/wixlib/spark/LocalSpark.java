package org.wixlib.spark;

import org.apache.spark.sql.SparkSession;

/** One local-mode Spark session for all test classes (starting Spark takes seconds), on the loopback address. */
final class LocalSpark {
  private static SparkSession session;

  private LocalSpark() {}

  static synchronized SparkSession get() {
    if (session == null) {
      session = SparkSession.builder()
          .master("local[2]")
          .appName("wixlib-spark-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1")
          .config("spark.sql.shuffle.partitions", "4")
          // Small batches: a partition takes several wixlib calls.
          .config(WixlibJoins.BATCH_ROWS, "4000")
          .config(WixlibJoins.KIND, "cpu")
          // The SQL extension plans nothing until spark.wixlib.join.enabled is set (SqlJoinsTest).
          .config("spark.sql.extensions", WixlibSqlExtensions.class.getName())
          .getOrCreate();
    }
    return session;
  }
}
