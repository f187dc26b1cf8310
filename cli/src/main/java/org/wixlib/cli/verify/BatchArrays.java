package org.wixlib.cli.verify;

/** The arrays one verify batch hands to the table, reused while the batch size stays the same. */
abstract class BatchArrays {
  int size = -1;
  byte[] ops;
  long[] keys;
  long[] values;
  /** The values as drawn (a find overwrites its element of values). */
  long[] valuesIn;
  byte[] outcomes;

  /** Makes room for batches of b elements; returns whether the arrays were replaced. */
  boolean allocate(int b) {
    if (size == b) {
      return false;
    }
    size = b;
    ops = new byte[b];
    keys = new long[b];
    values = new long[b];
    valuesIn = new long[b];
    outcomes = new byte[b];
    return true;
  }
}
