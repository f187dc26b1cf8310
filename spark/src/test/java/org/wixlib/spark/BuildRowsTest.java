package org.wixlib.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;

/** Build rows survive the broadcast's serialization value for value, in a fraction of the Rows' own size. */
class BuildRowsTest {
  private static BuildRows roundTrip(BuildRows rows) throws IOException, ClassNotFoundException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(rows);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (BuildRows) in.readObject();
    }
  }

  private static void assertSameRows(Row[] want, BuildRows got) {
    assertEquals(want.length, got.size());
    for (int i = 0; i < want.length; i++) {
      assertEquals(want[i].length(), got.get(i).length(), "row " + i);
      for (int c = 0; c < want[i].length(); c++) {
        assertEquals(want[i].get(c), got.get(i).get(c), "row " + i + " column " + c);
      }
    }
  }

  @Test
  void everyColumnKindComesBack() throws Exception {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      rows.add(RowFactory.create(i, (long) i << 33, i % 7 == 0 ? null : i, "s" + i, new BigDecimal(i).movePointLeft(2),
          i % 2 == 0 ? Integer.valueOf(i) : Long.valueOf(i)));
    }
    Row[] want = rows.toArray(new Row[0]);
    BuildRows got = roundTrip(new BuildRows(want));
    assertSameRows(want, got);
    assertEquals(Integer.class, got.get(1).get(0).getClass());
    assertEquals(Long.class, got.get(1).get(1).getClass());
    assertEquals(null, got.get(7).get(2));
  }

  @Test
  void rowsOfDifferentWidthsAndNoRows() throws Exception {
    Row[] ragged = {RowFactory.create(1, 2), RowFactory.create(3), RowFactory.create()};
    assertSameRows(ragged, roundTrip(new BuildRows(ragged)));
    assertSameRows(new Row[0], roundTrip(new BuildRows(new Row[0])));
  }

  @Test
  void intColumnsTakeTheirBytes() throws Exception {
    Row[] rows = new Row[100_000];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = RowFactory.create(i, -i, i * 7);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(new BuildRows(rows));
    }
    assertTrue(bytes.size() < 13 * rows.length, bytes.size() + " bytes for " + rows.length + " rows of three ints");
  }
}
