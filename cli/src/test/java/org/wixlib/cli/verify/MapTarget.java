package org.wixlib.cli.verify;

import org.wixlib.LongPairs;
import org.wixlib.Op;
import org.wixlib.Outcome;

/**
 * An honest in-memory table of either width for tests of the checker: a map, each batch run in element
 * order (one of the orders a concurrent batch may take effect in). Fast enough that a run's time is the
 * checker's.
 */
class MapTarget implements VerifyTarget {
  private final int keyBits;
  // java.util, not fastutil: the shaded CLI jar the GPU machine's tests run against keeps only the
  // fastutil classes the CLI itself uses.
  final java.util.HashMap<Long, Long> map = new java.util.HashMap<>();

  MapTarget(int keyBits) {
    this.keyBits = keyBits;
  }

  @Override
  public int keyBits() {
    return keyBits;
  }

  @Override
  public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
    for (int i = 0; i < ops.length; i++) {
      long k = keys[i];
      boolean has = map.containsKey(k);
      switch (ops[i]) {
        case Op.INSERT -> {
          if (!has) {
            map.put(k, values[i]);
          }
          outcomes[i] = has ? Outcome.PRESENT : Outcome.INSERTED;
        }
        case Op.INSERT_OR_ASSIGN -> {
          map.put(k, values[i]);
          outcomes[i] = has ? Outcome.ASSIGNED : Outcome.INSERTED;
        }
        case Op.ERASE -> {
          map.remove(k);
          outcomes[i] = has ? Outcome.ERASED : Outcome.NOT_FOUND;
        }
        default -> {
          if (has) {
            values[i] = map.get(k);
          }
          outcomes[i] = has ? Outcome.FOUND : Outcome.NOT_FOUND;
        }
      }
    }
  }

  @Override
  public void contains(long[] keys, byte[] found) {
    for (int i = 0; i < keys.length; i++) {
      found[i] = (byte) (map.containsKey(keys[i]) ? 1 : 0);
    }
  }

  @Override
  public void find(long[] keys, long[] valuesOut, long notFound) {
    for (int i = 0; i < keys.length; i++) {
      valuesOut[i] = map.getOrDefault(keys[i], notFound);
    }
  }

  @Override
  public long size() {
    return map.size();
  }

  @Override
  public LongPairs retrieveAll() {
    long[] k = new long[map.size()];
    long[] v = new long[map.size()];
    int n = 0;
    for (java.util.Map.Entry<Long, Long> e : map.entrySet()) {
      k[n] = e.getKey();
      v[n++] = e.getValue();
    }
    return new LongPairs(k, v);
  }

  @Override
  public void resize(long capacity) {}

  @Override
  public void clear() {
    map.clear();
  }
}
