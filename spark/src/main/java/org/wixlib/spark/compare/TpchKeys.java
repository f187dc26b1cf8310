package org.wixlib.spark.compare;

import io.trino.tpch.Customer;
import io.trino.tpch.CustomerGenerator;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import io.trino.tpch.Part;
import io.trino.tpch.PartGenerator;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The key columns of the TPC-H tables the join cores use, generated inside Spark by the io.trino.tpch
 * generator (dbgen's rows): each Spark partition generates one part of a table. Cached once counted.
 */
record TpchKeys(Dataset<Row> customer, Dataset<Row> orders, Dataset<Row> part, Dataset<Row> lineitem) {

  static TpchKeys generate(SparkSession spark, double sf, int parts) {
    StructType c = new StructType().add("c_custkey", DataTypes.IntegerType, false);
    StructType o = new StructType().add("o_orderkey", DataTypes.IntegerType, false)
        .add("o_custkey", DataTypes.IntegerType, false);
    StructType p = new StructType().add("p_partkey", DataTypes.IntegerType, false);
    StructType l = new StructType().add("l_orderkey", DataTypes.IntegerType, false)
        .add("l_partkey", DataTypes.IntegerType, false);
    return new TpchKeys(
        table(spark, parts, c, (MapPartitionsFunction<Long, Row>) it -> rows(it, part ->
            map(new CustomerGenerator(sf, part, parts), (Customer x) -> RowFactory.create(key(x.customerKey()))))),
        table(spark, parts, o, (MapPartitionsFunction<Long, Row>) it -> rows(it, part ->
            map(new OrderGenerator(sf, part, parts), (Order x) -> RowFactory.create(key(x.orderKey()), key(x.customerKey()))))),
        table(spark, parts, p, (MapPartitionsFunction<Long, Row>) it -> rows(it, part ->
            map(new PartGenerator(sf, part, parts), (Part x) -> RowFactory.create(key(x.partKey()))))),
        table(spark, parts, l, (MapPartitionsFunction<Long, Row>) it -> rows(it, part ->
            map(new LineItemGenerator(sf, part, parts), (LineItem x) -> RowFactory.create(key(x.orderKey()), key(x.partKey()))))));
  }

  /** A table of `parts` partitions, partition i holding generator part i + 1; cached and counted. */
  private static Dataset<Row> table(SparkSession spark, int parts, StructType schema, MapPartitionsFunction<Long, Row> gen) {
    Dataset<Row> t = spark.range(0, parts, 1, parts).as(Encoders.LONG()).mapPartitions(gen, Encoders.row(schema)).cache();
    t.count();
    return t;
  }

  private interface PartRows {
    List<Row> of(int part) throws Exception;
  }

  /** The rows of the generator parts named by a partition's ids (one id per partition). */
  private static Iterator<Row> rows(Iterator<Long> ids, PartRows gen) throws Exception {
    List<Row> out = new ArrayList<>();
    while (ids.hasNext()) {
      out.addAll(gen.of(Math.toIntExact(ids.next()) + 1));
    }
    return out.iterator();
  }

  private interface ToRow<T> {
    Row apply(T x);
  }

  private static <T> List<Row> map(Iterable<T> generator, ToRow<T> f) {
    List<Row> out = new ArrayList<>();
    for (T x : generator) {
      out.add(f.apply(x));
    }
    return out;
  }

  /** TPC-H keys fit 32 bits up to SF ~ 350 (orderkey); larger ones are refused. */
  private static int key(long k) {
    if (k < 0 || k > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("TPC-H key " + k + " does not fit a 32-bit key: scale factor too large");
    }
    return (int) k;
  }
}
