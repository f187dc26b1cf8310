package org.wixlib.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;

/**
 * The broadcast value of a join's build side. Build rows are numbered so that rows {@code 0 ..
 * keys.length - 1} are those the wixlib join holds (row i has key {@code keys[i]}); the rows whose key
 * is one of wixlib's reserved keys (-1, -2) follow and are looked up in {@link #reserved} instead. Rows
 * with a null key match nothing and are left out.
 *
 * @param rows the build rows in that numbering (inner joins), or null (semi and anti joins need none)
 * @param keys the keys of the rows the wixlib join holds
 * @param reserved reserved key to the numbers of its rows
 * @param unique whether {@code keys} has no key twice
 * @param fitsInt whether every key fits 32 bits (a 64-bit column can then use a 32-bit join)
 */
record BuildSide(BuildRows rows, long[] keys, Map<Long, int[]> reserved, boolean unique, boolean fitsInt)
    implements Serializable {

  /** wixlib's reserved keys: they fail a build and match nothing in a probe. */
  static boolean isReserved(long key) {
    return key == -1 || key == -2;
  }

  /** The build side of collected rows; keepRows false keeps only the keys. */
  static BuildSide of(List<Row> collected, KeyColumn key, boolean keepRows) {
    List<Row> joinRows = new ArrayList<>(collected.size());
    List<Row> reservedRows = new ArrayList<>();
    for (Row r : collected) {
      if (key.isNull(r)) {
        continue;
      }
      (isReserved(key.get(r)) ? reservedRows : joinRows).add(r);
    }
    long[] keys = joinRows.stream().mapToLong(key::get).toArray();
    BuildSide side = ofKeys(keys, reservedRows.stream().mapToLong(key::get).toArray());
    if (!keepRows) {
      return side;
    }
    joinRows.addAll(reservedRows);
    return new BuildSide(new BuildRows(joinRows.toArray(new Row[0])), keys, side.reserved, side.unique, side.fitsInt);
  }

  /**
   * The keys-only build side of rows numbered as above: {@code keys} those of rows 0 .. keys.length -
   * 1, {@code reservedKeys} those of the rows after them (each -1 or -2), in order. The caller keeps
   * the rows themselves (the SQL join's broadcast holds them as Spark's internal rows).
   */
  static BuildSide ofKeys(long[] keys, long[] reservedKeys) {
    boolean fitsInt = true;
    for (long k : keys) {
      fitsInt &= k == (int) k;
    }
    Map<Long, List<Integer>> byKey = new HashMap<>();
    for (int i = 0; i < reservedKeys.length; i++) {
      byKey.computeIfAbsent(reservedKeys[i], k -> new ArrayList<>()).add(keys.length + i);
    }
    Map<Long, int[]> reserved = new HashMap<>();
    byKey.forEach((k, v) -> reserved.put(k, v.stream().mapToInt(Integer::intValue).toArray()));
    return new BuildSide(null, keys, reserved, distinct(keys), fitsInt);
  }

  private static boolean distinct(long[] keys) {
    long[] sorted = keys.clone();
    Arrays.parallelSort(sorted);
    for (int i = 1; i < sorted.length; i++) {
      if (sorted[i] == sorted[i - 1]) {
        return false;
      }
    }
    return true;
  }

  /** The rows of a reserved key (none when no build row has it). */
  int[] reservedRows(long key) {
    int[] r = reserved.get(key);
    return r == null ? new int[0] : r;
  }
}
