package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Sharded CPU tables of 64-bit keys and values against a HashMap: the long[] calls, reserved keys, snapshots. */
class ShardedWideKeysTest {
  @TempDir Path dir;

  static HashTable wide(int shards) {
    return HashTable.builder().kind(TableKind.CPU).keyBits(64).shards(shards).capacity(256).build();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7})
  void everyLongCallMatchesTheOracle(int shards) {
    Random rnd = new Random(shards);
    Map<Long, Long> oracle = new HashMap<>();
    try (HashTable t = wide(shards)) {
      for (int round = 0; round < 16; round++) {
        int n = 3000;
        long[] keys = WideKeysTest.distinctKeys(rnd, n, 40_000);
        long[] vals = rnd.longs(n).toArray();
        byte[] out = new byte[n];
        switch (round < 4 ? 0 : round % 4) {
          case 0 -> {
            t.insert(keys, vals, out);
            for (int i = 0; i < n; i++) {
              assertEquals(oracle.containsKey(keys[i]) ? Outcome.PRESENT : Outcome.INSERTED, out[i]);
              oracle.putIfAbsent(keys[i], vals[i]);
            }
          }
          case 1 -> {
            t.insertOrAssign(keys, vals, out);
            for (int i = 0; i < n; i++) {
              assertEquals(oracle.containsKey(keys[i]) ? Outcome.ASSIGNED : Outcome.INSERTED, out[i]);
              oracle.put(keys[i], vals[i]);
            }
          }
          case 2 -> {
            t.erase(keys, out);
            for (int i = 0; i < n; i++) {
              assertEquals(oracle.remove(keys[i]) != null ? Outcome.ERASED : Outcome.NOT_FOUND, out[i]);
            }
          }
          default -> {
            byte[] ops = new byte[n];
            long[] before = vals.clone();
            for (int i = 0; i < n; i++) {
              ops[i] = (byte) rnd.nextInt(4);
            }
            t.batch(ops, keys, vals, out);
            for (int i = 0; i < n; i++) {
              Long old = oracle.get(keys[i]);
              switch (ops[i]) {
                case Op.INSERT -> oracle.putIfAbsent(keys[i], before[i]);
                case Op.INSERT_OR_ASSIGN -> oracle.put(keys[i], before[i]);
                case Op.ERASE -> oracle.remove(keys[i]);
                default -> assertEquals(old == null ? before[i] : old, vals[i], "batch find of " + keys[i]);
              }
              assertEquals(old == null, out[i] == Outcome.INSERTED || out[i] == Outcome.NOT_FOUND,
                  "outcome " + Outcome.name(out[i]) + " of " + Op.name(ops[i]) + " " + keys[i]);
            }
          }
        }
        long[] found = t.find(keys, WideKeysTest.NOT_FOUND);
        boolean[] has = t.contains(keys);
        for (int i = 0; i < n; i++) {
          Long want = oracle.get(keys[i]);
          assertEquals(want == null ? WideKeysTest.NOT_FOUND : want, found[i], "find of " + keys[i]);
          assertEquals(want != null, has[i], "contains of " + keys[i]);
        }
        assertEquals(oracle.size(), t.size());
      }
      assertEquals(oracle, pairs(t));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 7})
  void reservedKeysMidArray(int shards) {
    try (HashTable t = wide(shards)) {
      long[] keys = {1L << 40, HashTable.EMPTY_KEY64, 5, HashTable.TOMBSTONE_KEY64, -7};
      byte[] out = new byte[keys.length];
      t.insert(keys, new long[] {1, 2, 3, 4, 5}, out);
      assertArrayEquals(new byte[] {Outcome.INSERTED, Outcome.INVALID_KEY, Outcome.INSERTED, Outcome.INVALID_KEY,
          Outcome.INSERTED}, out);
      assertArrayEquals(new long[] {1, 0, 3, 0, 5}, t.find(keys, 0L));
      assertEquals(3, t.size());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 7})
  void snapshotRoundTrip(int shards) throws IOException {
    Path f = dir.resolve("wide.snap");
    Map<Long, Long> saved;
    try (HashTable t = wide(shards)) {
      long[] keys = WideKeysTest.distinctKeys(new Random(8), 5_000, Long.MAX_VALUE);
      t.insert(keys, keys);
      saved = pairs(t);
      t.save(f);
    }
    try (HashTable back = HashTable.load(f, null)) {
      assertEquals(64, back.keyBits());
      assertEquals(shards, back.shards());
      assertEquals(saved, pairs(back));
    }
  }

  static Map<Long, Long> pairs(HashTable t) {
    LongPairs p = t.retrieveAllLong();
    Map<Long, Long> m = new HashMap<>();
    for (int i = 0; i < p.size(); i++) {
      m.put(p.keys()[i], p.values()[i]);
    }
    assertEquals(p.size(), m.size(), "retrieveAllLong gives each key once");
    return m;
  }
}
