package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Drives a table and a java.util.HashMap through the same operations and compares every result.
 * Keys are distinct within one batch (so per-element expectations are exact); they repeat across
 * batches (range bounded) so present / absent cases both occur.
 */
final class RoundTrip {
  static final int NOT_FOUND = 0x5EA1F00D;

  private final HashTable table;
  private final Random rnd;
  private final int range;
  final Map<Integer, Integer> oracle = new HashMap<>();

  RoundTrip(HashTable table, long seed, int range) {
    this.table = table;
    this.rnd = new Random(seed);
    this.range = range;
  }

  int[] distinctKeys(int n) {
    Set<Integer> seen = new HashSet<>();
    int[] keys = new int[n];
    for (int i = 0; i < n; i++) {
      int k;
      do {
        k = Oracle.key(rnd, range);
      } while (!seen.add(k));
      keys[i] = k;
    }
    return keys;
  }

  void insert(int n) {
    int[] keys = distinctKeys(n);
    int[] values = Oracle.values(rnd, n);
    byte[] out = new byte[n];
    table.insert(keys, values, out);
    for (int i = 0; i < n; i++) {
      byte want = oracle.containsKey(keys[i]) ? Outcome.PRESENT : Outcome.INSERTED;
      assertEquals(Outcome.name(want), Outcome.name(out[i]), "insert outcome of key " + keys[i]);
      oracle.putIfAbsent(keys[i], values[i]);
    }
  }

  void insertOrAssign(int n) {
    int[] keys = distinctKeys(n);
    int[] values = Oracle.values(rnd, n);
    byte[] out = new byte[n];
    table.insertOrAssign(keys, values, out);
    for (int i = 0; i < n; i++) {
      byte want = oracle.containsKey(keys[i]) ? Outcome.ASSIGNED : Outcome.INSERTED;
      assertEquals(Outcome.name(want), Outcome.name(out[i]), "insertOrAssign outcome of key " + keys[i]);
      oracle.put(keys[i], values[i]);
    }
  }

  void erase(int n) {
    int[] keys = distinctKeys(n);
    byte[] out = new byte[n];
    table.erase(keys, out);
    for (int i = 0; i < n; i++) {
      byte want = oracle.remove(keys[i]) != null ? Outcome.ERASED : Outcome.NOT_FOUND;
      assertEquals(Outcome.name(want), Outcome.name(out[i]), "erase outcome of key " + keys[i]);
    }
  }

  void batch(int n) {
    int[] keys = distinctKeys(n);
    int[] values = Oracle.values(rnd, n);
    int[] before = values.clone();
    byte[] ops = new byte[n];
    for (int i = 0; i < n; i++) {
      ops[i] = (byte) rnd.nextInt(4);
    }
    byte[] out = new byte[n];
    table.batch(ops, keys, values, out);
    for (int i = 0; i < n; i++) {
      Integer old = oracle.get(keys[i]);
      String what = "batch " + Op.name(ops[i]) + " of key " + keys[i];
      switch (ops[i]) {
        case Op.INSERT -> {
          assertEquals(Outcome.name(old == null ? Outcome.INSERTED : Outcome.PRESENT), Outcome.name(out[i]), what);
          oracle.putIfAbsent(keys[i], before[i]);
          assertEquals(before[i], values[i], what + ": value must be left alone");
        }
        case Op.INSERT_OR_ASSIGN -> {
          assertEquals(Outcome.name(old == null ? Outcome.INSERTED : Outcome.ASSIGNED), Outcome.name(out[i]), what);
          oracle.put(keys[i], before[i]);
        }
        case Op.ERASE -> {
          assertEquals(Outcome.name(old == null ? Outcome.NOT_FOUND : Outcome.ERASED), Outcome.name(out[i]), what);
          oracle.remove(keys[i]);
        }
        case Op.FIND -> {
          assertEquals(Outcome.name(old == null ? Outcome.NOT_FOUND : Outcome.FOUND), Outcome.name(out[i]), what);
          assertEquals(old == null ? before[i] : old.intValue(), values[i], what + ": value");
        }
        default -> throw new AssertionError(what);
      }
    }
  }

  /** find, contains and size against the oracle, over present and absent keys. */
  void verify(int n) {
    int[] keys = new int[n];
    Integer[] present = oracle.keySet().toArray(new Integer[0]);
    for (int i = 0; i < n; i++) {
      keys[i] = present.length > 0 && rnd.nextBoolean() ? present[rnd.nextInt(present.length)]
          : Oracle.key(rnd, range);
    }
    int[] found = table.find(keys, NOT_FOUND);
    boolean[] has = table.contains(keys);
    for (int i = 0; i < n; i++) {
      Integer want = oracle.get(keys[i]);
      assertEquals(want == null ? NOT_FOUND : want.intValue(), found[i], "find of key " + keys[i]);
      assertEquals(want != null, has[i], "contains of key " + keys[i]);
    }
    assertEquals(oracle.size(), table.size(), "size");
  }

  /** retrieveAll gives exactly the oracle's pairs. */
  void verifyAll() {
    Pairs p = table.retrieveAll();
    assertEquals(oracle.size(), p.size(), "retrieveAll count");
    Map<Integer, Integer> got = new HashMap<>();
    for (int i = 0; i < p.size(); i++) {
      Integer dup = got.put(p.keys()[i], p.values()[i]);
      assertTrue(dup == null, "retrieveAll returned key " + p.keys()[i] + " twice");
    }
    assertEquals(oracle, got, "retrieveAll pairs");
  }

  /** A full mixed workload with growth. */
  void run(int rounds, int batch) {
    for (int r = 0; r < rounds; r++) {
      insert(batch);
      verify(batch);
      insertOrAssign(batch / 2);
      verify(batch);
      erase(batch / 3);
      verify(batch);
      batch(batch);
      verify(batch);
    }
    verifyAll();
    int[] keys = oracle.keySet().stream().mapToInt(Integer::intValue).toArray();
    int[] values = table.find(keys, NOT_FOUND);
    int[] want = oracle.values().stream().mapToInt(Integer::intValue).toArray();
    assertArrayEquals(want, values);
  }
}
