package org.wixlib.cli.verify;

import org.wixlib.HashTable;
import org.wixlib.Pairs;

/** The table calls verify makes; tests wrap a real table in it to inject faults the checks must catch. */
interface VerifyTarget {
  void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes);

  void contains(int[] keys, byte[] found);

  int[] find(int[] keys, int notFound);

  long size();

  Pairs retrieveAll();

  void resize(long capacity);

  void clear();

  /** The plain HashTable. */
  static VerifyTarget of(HashTable t) {
    return new VerifyTarget() {
      @Override
      public void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
        t.batch(ops, keys, values, outcomes);
      }

      @Override
      public void contains(int[] keys, byte[] found) {
        t.contains(keys, found);
      }

      @Override
      public int[] find(int[] keys, int notFound) {
        return t.find(keys, notFound);
      }

      @Override
      public long size() {
        return t.size();
      }

      @Override
      public Pairs retrieveAll() {
        return t.retrieveAll();
      }

      @Override
      public void resize(long capacity) {
        t.resize(capacity);
      }

      @Override
      public void clear() {
        t.clear();
      }
    };
  }
}
