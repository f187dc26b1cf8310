package org.wixlib;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sharded CPU tables of 32-bit keys against a HashMap: every bulk call, reserved keys in the middle of
 * a call, whole-table calls, snapshots and the per-shard counters, for shard counts that do and do not
 * divide the work evenly.
 */
class ShardedCpuTest {
  @TempDir Path dir;

  static HashTable sharded(int shards, long capacity) {
    return HashTable.builder().kind(TableKind.CPU).shards(shards).capacity(capacity).build();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7})
  void everyBulkCallMatchesTheOracle(int shards) {
    try (HashTable t = sharded(shards, 512)) {
      assertEquals(shards, t.shards());
      assertEquals(List.of(), t.devices(), "a cpu table lives on no device");
      long cap0 = t.capacity();
      new RoundTrip(t, 11 + shards, 40_000).run(5, 6_000);
      assertTrue(t.capacity() > cap0, "grew from " + cap0);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 7})
  void callsLargerThanOneSliceKeepTheirOrder(int shards) {
    int n = (1 << 18) + 12_345; // more than one off-heap slice of a CPU call
    try (HashTable t = sharded(shards, n)) {
      int[] keys = new int[n];
      int[] values = new int[n];
      for (int i = 0; i < n; i++) {
        keys[i] = i * 7 + 1;
        values[i] = ~i;
      }
      byte[] out = new byte[n];
      t.insert(keys, values, out);
      for (int i = 0; i < n; i++) {
        assertEquals(Outcome.INSERTED, out[i], "insert of element " + i);
      }
      assertArrayEquals(values, t.find(keys, 0), "values come back in the caller's order");
      assertEquals(n, t.size());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 7})
  void reservedKeysMidArrayAreRefusedAlone(int shards) {
    try (HashTable t = sharded(shards, 1024)) {
      int[] keys = {10, 11, HashTable.EMPTY_KEY, 12, HashTable.TOMBSTONE_KEY, 13};
      int[] values = {1, 2, 3, 4, 5, 6};
      byte[] out = new byte[keys.length];
      t.insert(keys, values, out);
      byte[] want = {Outcome.INSERTED, Outcome.INSERTED, Outcome.INVALID_KEY, Outcome.INSERTED,
          Outcome.INVALID_KEY, Outcome.INSERTED};
      assertArrayEquals(want, out);
      assertEquals(4, t.size());
      assertArrayEquals(new int[] {1, 2, -9, 4, -9, 6}, t.find(keys, -9), "reserved keys read as absent");
      InvalidKeyException e = assertThrows(InvalidKeyException.class,
          () -> t.insertOrAssign(new int[] {20, 21, HashTable.EMPTY_KEY, 22}, new int[] {1, 1, 1, 1}));
      assertEquals(2, e.index(), e.getMessage());
      assertEquals(7, t.size(), "the other elements were applied");
      byte[] ops = {Op.INSERT, Op.FIND, Op.ERASE, Op.FIND};
      int[] bk = {30, 10, HashTable.TOMBSTONE_KEY, 11};
      int[] bv = {3, -1, -1, -1};
      byte[] bo = new byte[4];
      t.batch(ops, bk, bv, bo);
      assertArrayEquals(new byte[] {Outcome.INSERTED, Outcome.FOUND, Outcome.INVALID_KEY, Outcome.FOUND}, bo);
      assertArrayEquals(new int[] {3, 1, -1, 2}, bv);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 7})
  void segmentsGoThroughTheShardsToo(int shards) {
    int n = 5_000;
    try (HashTable t = sharded(shards, n); Arena a = Arena.ofConfined()) {
      MemorySegment keys = a.allocate(JAVA_INT, n);
      MemorySegment values = a.allocate(JAVA_INT, n);
      MemorySegment out = a.allocate(n);
      for (int i = 0; i < n; i++) {
        keys.setAtIndex(JAVA_INT, i, i * 31 + 5);
        values.setAtIndex(JAVA_INT, i, i);
      }
      t.insert(keys, values, n, out);
      for (int i = 0; i < n; i++) {
        assertEquals(Outcome.INSERTED, out.get(JAVA_BYTE, i));
      }
      MemorySegment found = a.allocate(JAVA_INT, n);
      t.find(keys, found, n, -1);
      for (int i = 0; i < n; i++) {
        assertEquals(i, found.getAtIndex(JAVA_INT, i), "value of key " + (i * 31 + 5));
      }
      MemorySegment rk = a.allocate(JAVA_INT, n);
      MemorySegment rv = a.allocate(JAVA_INT, n);
      assertEquals(n, t.retrieveAll(rk, rv, n));
      for (int i = 0; i < n; i++) {
        assertEquals((rk.getAtIndex(JAVA_INT, i) - 5) / 31, rv.getAtIndex(JAVA_INT, i));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3, 7})
  void shardStatsAddUpToTheTable(int shards) {
    try (HashTable t = sharded(shards, 1 << 14)) {
      RoundTrip rt = new RoundTrip(t, 5, 0);
      rt.insert(20_000);
      TableStats whole = t.stats();
      long size = 0;
      long slots = 0;
      long bytes = 0;
      for (int s = 0; s < shards; s++) {
        ShardStats ss = t.shardStats(s);
        assertEquals(s, ss.shard());
        assertEquals(-1, ss.device(), "cpu shards live on no device");
        assertTrue(ss.stats().size() > 0, "shard " + s + " holds keys: the split spreads them");
        size += ss.stats().size();
        slots += ss.stats().capacity();
        bytes += ss.stats().bytes();
      }
      assertEquals(whole.size(), size);
      assertEquals(20_000, size);
      assertEquals(whole.capacity(), slots);
      assertEquals(whole.bytes(), bytes);
      InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> t.shardStats(shards));
      assertTrue(e.getMessage().contains("shard " + shards + " does not exist"), e.getMessage());
      assertThrows(InvalidArgumentException.class, () -> t.shardStats(-1));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 7})
  void wholeTableCallsCoverEveryShard(int shards) {
    try (HashTable t = sharded(shards, 1024)) {
      RoundTrip rt = new RoundTrip(t, 9, 0);
      rt.insert(3_000);
      rt.verifyAll();
      long[] seen = new long[1];
      t.forEach((k, v) -> seen[0]++);
      assertEquals(3_000, seen[0]);
      t.resize(50_000);
      rt.verify(3_000);
      rt.verifyAll();
      t.clear();
      assertEquals(0, t.size());
      assertTrue(t.isEmpty());
      assertEquals(0, t.retrieveAll().size());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 7})
  void snapshotsKeepTheShards(int shards) throws IOException {
    Path f = dir.resolve("t" + shards + ".snap");
    long[] saved;
    try (HashTable t = sharded(shards, 1024)) {
      new RoundTrip(t, 21, 0).insert(10_000);
      saved = SnapshotTest.sortedPairs(t);
      t.save(f);
    }
    assertEquals(shards, Snapshot.readHeader(f).shards());
    try (HashTable back = HashTable.load(f, null)) {
      assertEquals(shards, back.shards(), "the snapshot's shard count");
      assertArrayEquals(saved, SnapshotTest.sortedPairs(back));
    }
    try (HashTable back = HashTable.load(f, HashTable.builder().kind(TableKind.CPU).shards(1))) {
      assertEquals(1, back.shards(), "the config's shard count wins");
      assertArrayEquals(saved, SnapshotTest.sortedPairs(back));
    }
  }

  @Test
  void unshardedSnapshotsSayOneShard() throws IOException {
    Path f = dir.resolve("one.snap");
    try (HashTable t = HashTable.builder().kind(TableKind.CPU).build()) {
      t.insert(new int[] {1, 2}, new int[] {3, 4});
      t.save(f);
    }
    assertEquals(1, Snapshot.readHeader(f).shards());
    try (HashTable back = HashTable.load(f, null)) {
      assertEquals(1, back.shards());
      assertEquals(2, back.size());
    }
  }

  @Test
  void shardedJoinsGiveTheSamePairsInTheSameOrder() {
    Random r = new Random(3);
    int[] build = new int[20_000];
    for (int i = 0; i < build.length; i++) {
      build[i] = r.nextInt(5_000);
    }
    int[] probe = Oracle.keys(r, 30_000, 8_000);
    JoinPairs one;
    int[] semi;
    int[] anti;
    try (Join j = Join.builder().build(Join.Build.MULTI).build(build)) {
      one = j.probe(probe);
      semi = j.semi(probe);
      anti = j.anti(probe);
      assertEquals(1, j.shards());
    }
    assertEquals(JoinCpuTest.oracle(JoinCpuTest.widen(build), JoinCpuTest.widen(probe)).length, one.size());
    for (int shards : new int[] {2, 3, 7}) {
      try (Join j = Join.builder().build(Join.Build.MULTI).shards(shards).build(build)) {
        assertEquals(shards, j.shards());
        assertEquals(List.of(), j.devices());
        JoinPairs p = j.probe(probe);
        assertArrayEquals(one.probeRows(), p.probeRows(), shards + " shards: probe rows");
        assertArrayEquals(one.buildRows(), p.buildRows(), shards + " shards: build rows");
        assertArrayEquals(semi, j.semi(probe), shards + " shards: semi join");
        assertArrayEquals(anti, j.anti(probe), shards + " shards: anti join");
      }
    }
  }

  @Test
  void useAfterCloseThrows() {
    HashTable t = sharded(3, 64);
    t.insert(new int[] {1}, new int[] {1});
    t.close();
    assertThrows(IllegalStateException.class, () -> t.shardStats(0));
    assertThrows(IllegalStateException.class, () -> t.find(new int[] {1}, 0));
    assertThrows(IllegalStateException.class, t::retrieveAll);
    assertEquals(3, t.shards(), "the layout stays readable");
  }
}
