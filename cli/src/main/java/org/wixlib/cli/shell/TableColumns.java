package org.wixlib.cli.shell;

import org.wixlib.HashTable;

/**
 * A session table's bulk calls on columns as the shell holds them (longs), for either key width:
 * 64-bit tables take them as they are, 32-bit tables as ints.
 */
final class TableColumns {
  private TableColumns() {}

  static void insert(HashTable t, long[] keys, long[] values, byte[] outcomes, boolean assign) {
    if (t.keyBits() == 64) {
      if (assign) {
        t.insertOrAssign(keys, values, outcomes);
      } else {
        t.insert(keys, values, outcomes);
      }
    } else if (assign) {
      t.insertOrAssign(ints(keys), ints(values), outcomes);
    } else {
      t.insert(ints(keys), ints(values), outcomes);
    }
  }

  /** The values of keys, notFound where absent. */
  static long[] find(HashTable t, long[] keys, long notFound) {
    return t.keyBits() == 64 ? t.find(keys, notFound) : longs(t.find(ints(keys), (int) notFound));
  }

  static boolean[] contains(HashTable t, long[] keys) {
    return t.keyBits() == 64 ? t.contains(keys) : t.contains(ints(keys));
  }

  static void erase(HashTable t, long[] keys, byte[] outcomes) {
    if (t.keyBits() == 64) {
      t.erase(keys, outcomes);
    } else {
      t.erase(ints(keys), outcomes);
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
