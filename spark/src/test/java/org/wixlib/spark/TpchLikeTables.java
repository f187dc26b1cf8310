package org.wixlib.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Key columns shaped as TPC-H's at a small scale: customer keys 1..C; order keys dense in runs of 8
 * out of every 32; each order's customer one whose key is not a multiple of 3 (a third of the
 * customers have no order); 1 to 7 line items per order except every fifth order (which has none);
 * part keys 1..P. Each table has a row id column (x_id) for the pair checksums.
 */
record TpchLikeTables(Dataset<Row> customer, Dataset<Row> orders, Dataset<Row> lineitem) {

  /** offset is added to every key (2^33 makes the keys need 64 bits); wide makes the key columns long. */
  static TpchLikeTables generate(SparkSession spark, int customers, int orders, long offset, boolean wide) {
    SplittableRandom rnd = new SplittableRandom(42);
    List<Row> c = new ArrayList<>(), o = new ArrayList<>(), l = new ArrayList<>();
    for (int i = 0; i < customers; i++) {
      c.add(RowFactory.create(i, key(i + 1, offset, wide)));
    }
    int parts = Math.max(1, customers * 4 / 3);
    for (int i = 0; i < orders; i++) {
      long orderkey = (long) (i / 8) * 32 + (i % 8) + 1;
      long custkey;
      do {
        custkey = 1 + rnd.nextInt(customers);
      } while (custkey % 3 == 0);
      o.add(RowFactory.create(i, key(orderkey, offset, wide), key(custkey, offset, wide)));
      int lines = i % 5 == 4 ? 0 : 1 + rnd.nextInt(7);
      for (int j = 0; j < lines; j++) {
        l.add(RowFactory.create(l.size(), key(orderkey, offset, wide), key(1 + rnd.nextInt(parts), offset, wide)));
      }
    }
    var k = wide ? DataTypes.LongType : DataTypes.IntegerType;
    StructType cs = new StructType().add("c_id", DataTypes.IntegerType, false).add("c_custkey", k, false);
    StructType os = new StructType().add("o_id", DataTypes.IntegerType, false).add("o_orderkey", k, false)
        .add("o_custkey", k, false);
    StructType ls = new StructType().add("l_id", DataTypes.IntegerType, false).add("l_orderkey", k, false)
        .add("l_partkey", k, false);
    return new TpchLikeTables(spark.createDataFrame(c, cs).repartition(3), spark.createDataFrame(o, os).repartition(3),
        spark.createDataFrame(l, ls).repartition(3));
  }

  private static Object key(long k, long offset, boolean wide) {
    long v = k + offset;
    return wide ? (Object) v : (Object) Math.toIntExact(v);
  }
}
