package org.wixlib.spark;

import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * The build rows an inner join's output takes its build columns from, serialized column by column:
 * int and long columns without nulls as plain values, any other column value by value. Java
 * serialization of the {@code Row} objects themselves costs about 2 µs a row each way and 59 bytes a
 * row of three ints, which made the broadcast most of a join's time.
 */
final class BuildRows implements Externalizable {
  private static final long serialVersionUID = 1L;
  private static final byte INTS = 'I', LONGS = 'J', VALUES = 'O';

  private Row[] rows;

  /** For deserialization only. */
  public BuildRows() {}

  BuildRows(Row[] rows) {
    this.rows = rows;
  }

  Row get(int i) {
    return rows[i];
  }

  int size() {
    return rows.length;
  }

  @Override
  public void writeExternal(ObjectOutput out) throws IOException {
    int n = rows.length, width = n == 0 ? 0 : rows[0].length();
    boolean sameWidth = true;
    for (Row r : rows) {
      sameWidth &= r.length() == width;
    }
    out.writeInt(n);
    out.writeInt(sameWidth ? width : -1);
    if (!sameWidth) {  // not a DataFrame's rows: value by value, row by row
      for (Row r : rows) {
        out.writeInt(r.length());
        for (int c = 0; c < r.length(); c++) {
          out.writeObject(r.get(c));
        }
      }
      return;
    }
    for (int c = 0; c < width; c++) {
      byte kind = kindOf(c);
      out.writeByte(kind);
      for (Row r : rows) {
        switch (kind) {
          case INTS -> out.writeInt((Integer) r.get(c));
          case LONGS -> out.writeLong((Long) r.get(c));
          default -> out.writeObject(r.get(c));
        }
      }
    }
  }

  @Override
  public void readExternal(ObjectInput in) throws IOException, ClassNotFoundException {
    int n = in.readInt(), width = in.readInt();
    rows = new Row[n];
    if (width < 0) {
      for (int i = 0; i < n; i++) {
        Object[] v = new Object[in.readInt()];
        for (int c = 0; c < v.length; c++) {
          v[c] = in.readObject();
        }
        rows[i] = RowFactory.create(v);
      }
      return;
    }
    Object[][] values = new Object[n][width];
    for (int c = 0; c < width; c++) {
      byte kind = in.readByte();
      for (int i = 0; i < n; i++) {
        values[i][c] = switch (kind) {
          case INTS -> in.readInt();
          case LONGS -> in.readLong();
          default -> in.readObject();
        };
      }
    }
    for (int i = 0; i < n; i++) {
      rows[i] = RowFactory.create(values[i]);
    }
  }

  /** INTS or LONGS when every row holds a non-null Integer (Long) in column c, else VALUES. */
  private byte kindOf(int c) {
    boolean ints = true, longs = true;
    for (Row r : rows) {
      Object v = r.get(c);
      ints &= v instanceof Integer;
      longs &= v instanceof Long;
    }
    return ints ? INTS : longs ? LONGS : VALUES;
  }
}
