package org.wixlib.cli.verify;

import org.wixlib.HashTable;
import org.wixlib.LongPairs;

/**
 * The table calls verify makes, at either width with keys and values as longs (a 32-bit table's are
 * ints sign-extended: {@link NarrowTarget}); tests wrap a real table in it to inject faults the checks
 * must catch. Arrays passed in have exactly the length of the call.
 */
interface VerifyTarget {
  /** 32 or 64. */
  int keyBits();

  void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes);

  void contains(long[] keys, byte[] found);

  /** valuesOut[i] = the value of keys[i], or notFound when absent. */
  void find(long[] keys, long[] valuesOut, long notFound);

  long size();

  LongPairs retrieveAll();

  void resize(long capacity);

  void clear();

  /** The plain HashTable, at its width. */
  static VerifyTarget of(HashTable t) {
    return t.keyBits() == 64 ? new WideTarget(t) : new NarrowTarget(t);
  }
}
