package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Sharded GLHT and Hive tables: three shards on device 0 through heap arrays and device buffers, and,
 * on a machine with two GPUs or more, one shard per device. Skipped (visibly) without a GPU.
 */
class ShardedGpuTest {
  static HashTable onDevice0(TableKind kind, int shards) {
    GpuAssumptions.requireOrSkip(kind);
    return HashTable.builder().kind(kind).shards(shards).capacity(1024).build();
  }

  static HashTable onTwoDevices(TableKind kind) {
    GpuAssumptions.requireOrSkip(kind);
    int count = Wixlib.devices().size();
    Assumptions.assumeTrue(count >= 2, "needs two GPUs, this machine has " + count + ": skipped");
    return HashTable.builder().kind(kind).devices(0, 1).capacity(1024).build();
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void threeShardsOnOneDeviceMatchTheOracle(TableKind kind) {
    try (HashTable t = onDevice0(kind, 3)) {
      assertEquals(3, t.shards());
      assertEquals(List.of(0), t.devices());
      new RoundTrip(t, 31, 60_000).run(4, 10_000);
      long size = 0;
      for (int s = 0; s < 3; s++) {
        ShardStats ss = t.shardStats(s);
        assertEquals(0, ss.device(), "shard " + s);
        size += ss.stats().size();
      }
      assertEquals(t.size(), size);
    }
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void deviceBuffersOfAShardedTable(TableKind kind) {
    try (HashTable t = onDevice0(kind, 3)) {
      deviceRoundTrip(t, 0);
    }
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void oneShardPerDevice(TableKind kind) {
    try (HashTable t = onTwoDevices(kind)) {
      assertEquals(2, t.shards());
      assertEquals(List.of(0, 1), t.devices());
      assertEquals(0, t.shardStats(0).device());
      assertEquals(1, t.shardStats(1).device());
      new RoundTrip(t, 32, 60_000).run(4, 10_000);
      t.clear();
      deviceRoundTrip(t, 0);
      deviceRoundTrip(t, 1);
      try (DeviceBuffer k0 = DeviceBuffer.ofInts(0, new int[] {1}); DeviceBuffer v1 = DeviceBuffer.allocate(1, 4)) {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> t.find(k0, v1, 1, 0));
        assertTrue(e.getMessage().contains("the other buffers on device"), e.getMessage());
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void buffersOnADeviceTheTableDoesNotUseAreRefused(TableKind kind) {
    GpuAssumptions.requireOrSkip(kind);
    Assumptions.assumeTrue(Wixlib.devices().size() >= 2, "needs two GPUs: skipped");
    try (HashTable t = HashTable.builder().kind(kind).shards(2).capacity(64).build();
        DeviceBuffer k = DeviceBuffer.ofInts(1, new int[] {1});
        DeviceBuffer v = DeviceBuffer.allocate(1, 4)) {
      InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> t.find(k, v, 1, 0));
      assertTrue(e.getMessage().contains("but the table on device 0"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void shardedJoinsGiveTheSamePairsInTheSameOrder(TableKind kind) {
    GpuAssumptions.requireOrSkip(kind);
    java.util.Random r = new java.util.Random(4);
    int[] build = new int[30_000];
    for (int i = 0; i < build.length; i++) {
      build[i] = r.nextInt(9_000);
    }
    int[] probe = Oracle.keys(r, 40_000, 12_000);
    JoinPairs one;
    try (Join j = Join.builder().kind(kind).build(Join.Build.MULTI).build(build)) {
      one = j.probe(probe);
    }
    try (Join j = Join.builder().kind(kind).build(Join.Build.MULTI).shards(3).build(build)) {
      assertEquals(3, j.shards());
      JoinPairs p = j.probe(probe);
      assertArrayEquals(one.probeRows(), p.probeRows());
      assertArrayEquals(one.buildRows(), p.buildRows());
    }
  }

  /** Inserts, finds and erases through buffers on {@code device}; the table must be empty before. */
  static void deviceRoundTrip(HashTable t, int device) {
    int n = 50_000;
    int[] keys = new int[n];
    int[] values = new int[n];
    for (int i = 0; i < n; i++) {
      keys[i] = i * 13 + 7;
      values[i] = i ^ 0x5A5A;
    }
    try (DeviceBuffer k = DeviceBuffer.ofInts(device, keys);
        DeviceBuffer v = DeviceBuffer.ofInts(device, values);
        DeviceBuffer o = DeviceBuffer.allocate(device, n);
        DeviceBuffer found = DeviceBuffer.allocate(device, 4L * n)) {
      t.insert(k, v, n, o);
      byte[] out = new byte[n];
      o.copyTo(out);
      for (int i = 0; i < n; i++) {
        assertEquals(Outcome.INSERTED, out[i], "insert of element " + i);
      }
      assertEquals(n, t.size());
      t.find(k, found, n, -1);
      int[] got = new int[n];
      found.copyTo(got);
      assertArrayEquals(values, got, "values in the caller's order, device " + device);
      assertArrayEquals(values, t.find(keys, -1), "the heap path agrees");
      t.erase(k, n, o);
      o.copyTo(out);
      for (int i = 0; i < n; i++) {
        assertEquals(Outcome.ERASED, out[i], "erase of element " + i);
      }
      assertEquals(0, t.size());
    }
  }
}
