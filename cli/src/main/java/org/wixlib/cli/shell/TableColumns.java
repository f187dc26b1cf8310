package org.wixlib.cli.shell;

import org.wixlib.HashTable;

/**
 * A session table's bulk calls for either key width. Columns as the shell holds them are longs;
 * {@link #column} turns them into what the table's calls take (long[] for 64-bit tables, int[]
 * otherwise), and the calls on such columns pick the overload of the table's width, so a caller that
 * times calls converts its arrays once, beforehand.
 */
final class TableColumns {
  private TableColumns() {}

  /** Keys or values as the table's calls take them (null stays null). */
  static Object column(HashTable t, long[] a) {
    return a == null || t.keyBits() == 64 ? a : ints(a);
  }

  static void insert(HashTable t, long[] keys, long[] values, byte[] outcomes, boolean assign) {
    insert(t, column(t, keys), column(t, values), outcomes, assign);
  }

  /** On columns of the table's width (values may be null; outcomes may be null). */
  static void insert(HashTable t, Object keys, Object values, byte[] outcomes, boolean assign) {
    if (keys instanceof long[] k) {
      if (assign) {
        t.insertOrAssign(k, (long[]) values, outcomes);
      } else {
        t.insert(k, (long[]) values, outcomes);
      }
    } else if (assign) {
      t.insertOrAssign((int[]) keys, (int[]) values, outcomes);
    } else {
      t.insert((int[]) keys, (int[]) values, outcomes);
    }
  }

  /** The values of keys, notFound where absent. */
  static long[] find(HashTable t, long[] keys, long notFound) {
    Object v = find(t, column(t, keys), notFound);
    return v instanceof long[] l ? l : longs((int[]) v);
  }

  /** On a column of the table's width: the values as the same kind of array. */
  static Object find(HashTable t, Object keys, long notFound) {
    return keys instanceof long[] k ? t.find(k, notFound) : t.find((int[]) keys, (int) notFound);
  }

  static boolean[] contains(HashTable t, long[] keys) {
    return contains(t, column(t, keys));
  }

  static boolean[] contains(HashTable t, Object keys) {
    return keys instanceof long[] k ? t.contains(k) : t.contains((int[]) keys);
  }

  static void erase(HashTable t, long[] keys, byte[] outcomes) {
    erase(t, column(t, keys), outcomes);
  }

  static void erase(HashTable t, Object keys, byte[] outcomes) {
    if (keys instanceof long[] k) {
      t.erase(k, outcomes);
    } else {
      t.erase((int[]) keys, outcomes);
    }
  }

  /** Every key the table holds. */
  static long[] keys(HashTable t) {
    return t.keyBits() == 64 ? t.retrieveAllLong().keys() : longs(t.retrieveAll().keys());
  }

  static int[] ints(long[] a) {
    if (a == null) {
      return null;
    }
    int[] out = new int[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = (int) a[i];
    }
    return out;
  }

  static long[] longs(int[] a) {
    long[] out = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = a[i];
    }
    return out;
  }
}
