package org.wixlib.spark;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructType;

/** The join key column of a side: its index in the rows and whether its values need 64 bits. */
record KeyColumn(String name, int index, boolean wide) implements java.io.Serializable {

  /** The column {@code name} of {@code schema}; only byte, short, int and long columns join. */
  static KeyColumn of(StructType schema, String name) {
    int index;
    try {
      index = schema.fieldIndex(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("no column '" + name + "' in " + schema.simpleString(), e);
    }
    DataType t = schema.fields()[index].dataType();
    if (t instanceof LongType) {
      return new KeyColumn(name, index, true);
    }
    if (t instanceof IntegerType || t instanceof ShortType || t instanceof ByteType) {
      return new KeyColumn(name, index, false);
    }
    throw new IllegalArgumentException("join key '" + name + "' is " + t.simpleString()
        + "; wixlib joins byte, short, int and long keys");
  }

  boolean isNull(Row row) {
    return row.isNullAt(index);
  }

  /** The key of a row whose key is not null. */
  long get(Row row) {
    return ((Number) row.get(index)).longValue();
  }
}
