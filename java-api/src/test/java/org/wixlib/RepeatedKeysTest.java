package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What is promised when one call repeats a key (every kind; GPU kinds skip without a GPU): one copy
 * stored, exactly one INSERTED when it was absent, the others PRESENT / ASSIGNED, and a value that one
 * of its elements carried. Which element wins is unspecified, so it is not tested.
 */
class RepeatedKeysTest {
  static final int KEYS = 50_000;
  static final int COPIES = 4; // 200 000 elements: several CPU worker threads, many GPU warps

  /** keys[i] = i % KEYS, spread so copies of a key fall far apart; values all distinct. */
  static int[][] batch(int salt) {
    int n = KEYS * COPIES;
    int[] keys = new int[n];
    int[] values = new int[n];
    for (int i = 0; i < n; i++) {
      keys[i] = (i % KEYS) * 3 + 1;
      values[i] = i * 31 + salt;
    }
    return new int[][] {keys, values};
  }

  static Map<Integer, Set<Integer>> valuesByKey(int[] keys, int[] values) {
    Map<Integer, Set<Integer>> m = new HashMap<>();
    for (int i = 0; i < keys.length; i++) {
      m.computeIfAbsent(keys[i], k -> new HashSet<>()).add(values[i]);
    }
    return m;
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void insertStoresOneCopyWithOneOfItsValues(TableKind kind) {
    check(kind, false);
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void insertOrAssignStoresOneCopyWithOneOfItsValues(TableKind kind) {
    check(kind, true);
  }

  private static void check(TableKind kind, boolean assign) {
    if (kind.isGpu()) {
      GpuAssumptions.requireOrSkip(kind);
    }
    try (HashTable t = HashTable.builder().kind(kind).capacity(1024).build()) {
      for (int round = 0; round < 2; round++) { // absent keys, then present ones
        int[][] b = batch(round);
        int[] keys = b[0];
        int[] values = b[1];
        byte[] out = new byte[keys.length];
        if (assign) {
          t.insertOrAssign(keys, values, out);
        } else {
          t.insert(keys, values, out);
        }
        Map<Integer, Integer> inserted = new HashMap<>();
        for (int i = 0; i < keys.length; i++) {
          byte expectOther = assign ? Outcome.ASSIGNED : Outcome.PRESENT;
          if (out[i] == Outcome.INSERTED) {
            inserted.merge(keys[i], 1, Integer::sum);
          } else {
            assertEquals(expectOther, out[i], "element " + i + ": " + Outcome.name(out[i]));
          }
        }
        if (round == 0) {
          assertEquals(KEYS, inserted.size(), "every key inserted by some element");
          inserted.forEach((k, c) -> assertEquals(1, c, "key " + k + " reported INSERTED " + c + " times"));
        } else {
          assertTrue(inserted.isEmpty(), "present keys are never inserted again");
        }
        assertEquals(KEYS, t.size(), "one copy per key");
        // The stored value came from this call's elements (insertOrAssign) or the first call's (insert).
        Map<Integer, Set<Integer>> allowed = valuesByKey(keys, assign || round == 0 ? values : batch(0)[1]);
        int[] distinct = allowed.keySet().stream().mapToInt(Integer::intValue).toArray();
        int[] stored = t.find(distinct, 0);
        for (int i = 0; i < distinct.length; i++) {
          assertTrue(allowed.get(distinct[i]).contains(stored[i]),
              "key " + distinct[i] + " holds " + stored[i] + ", which none of its elements carried");
        }
      }
    }
  }
}
