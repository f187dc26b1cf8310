package org.wixlib.cli.verify;

import org.wixlib.HashTable;
import org.wixlib.LongPairs;

/** A 64-bit table as a {@link VerifyTarget}: the long[] calls as they are. */
final class WideTarget implements VerifyTarget {
  private final HashTable t;

  WideTarget(HashTable t) {
    this.t = t;
  }

  @Override
  public int keyBits() {
    return 64;
  }

  @Override
  public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
    t.batch(ops, keys, values, outcomes);
  }

  @Override
  public void contains(long[] keys, byte[] found) {
    t.contains(keys, found);
  }

  @Override
  public void find(long[] keys, long[] valuesOut, long notFound) {
    t.find(keys, valuesOut, notFound);
  }

  @Override
  public long size() {
    return t.size();
  }

  @Override
  public LongPairs retrieveAll() {
    return t.retrieveAllLong();
  }

  @Override
  public void resize(long capacity) {
    t.resize(capacity);
  }

  @Override
  public void clear() {
    t.clear();
  }
}
