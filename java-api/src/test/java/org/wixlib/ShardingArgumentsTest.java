package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The shards and devices options: their limits, the defaults they imply, and the CPU kind's rule. */
class ShardingArgumentsTest {
  static void refused(String expected, Executable call) {
    InvalidArgumentException e = assertThrows(InvalidArgumentException.class, call);
    assertTrue(e.getMessage().contains(expected), "message: " + e.getMessage());
  }

  @Test
  void shardCountsOutsideTheLimitsAreRefused() {
    refused("shards must be in [1, 256], got 0", () -> HashTable.builder().shards(0));
    refused("shards must be in [1, 256], got 257", () -> HashTable.builder().shards(257));
    refused("shards must be in [1, 256], got -3", () -> Join.builder().shards(-3));
    assertEquals(256, ConfigChecks.MAX_SHARDS, "the C header's WX_MAX_SHARDS");
  }

  @Test
  void deviceListsAreCheckedAsGiven() {
    refused("devices must list 1 to 16 device ordinals, got 0", () -> HashTable.builder().devices());
    refused("got 17", () -> HashTable.builder().devices(new int[17]));
    refused("devices must be >= 0, got -1", () -> HashTable.builder().devices(0, -1));
    refused("devices must be distinct, got 1 twice", () -> HashTable.builder().devices(1, 0, 1));
    refused("devices must be distinct", () -> Join.builder().devices(2, 2));
    assertThrows(NullPointerException.class, () -> HashTable.builder().devices((int[]) null));
  }

  @Test
  void theCpuKindRefusesADeviceList() {
    refused("devices apply to GPU kinds", () -> HashTable.builder().kind(TableKind.CPU).devices(0).build());
    refused("devices apply to GPU kinds", () -> Join.builder().devices(0, 1).build(new int[] {1, 2}));
  }

  @Test
  void unshardedTablesReportOneShard() {
    try (HashTable t = HashTable.builder().build()) {
      assertEquals(1, t.shards());
      assertEquals(List.of(), t.devices());
      ShardStats s = t.shardStats(0);
      assertEquals(-1, s.device());
      assertEquals(t.stats().capacity(), s.stats().capacity());
      assertThrows(InvalidArgumentException.class, () -> t.shardStats(1));
    }
  }

  @Test
  void devicesThatDoNotExistAreNamed() {
    int count = Wixlib.devices().size();
    if (count == 0) {
      // No GPU: creating a GPU table says so (NoDeviceException), whatever the list holds.
      assertThrows(NoDeviceException.class,
          () -> HashTable.builder().kind(TableKind.GLHT).devices(0, 1).build());
      return;
    }
    refused("device " + count + " does not exist: this machine has " + count,
        () -> HashTable.builder().kind(TableKind.GLHT).devices(0, count).build());
  }

  @Test
  void theDeviceListSetsTheDefaultShardCount() {
    // Sharding.of is the layout every builder uses; no table is made, so no GPU is needed.
    Sharding one = Sharding.of(TableKind.GLHT, 3, null, null);
    assertEquals(1, one.shards);
    assertEquals(List.of(3), one.used);
    assertEquals(3, one.device);
    Sharding cpu = Sharding.of(TableKind.CPU, null, 4, null);
    assertEquals(4, cpu.shards);
    assertEquals(List.of(), cpu.used);
    if (Wixlib.devices().size() >= 2) {
      Sharding two = Sharding.of(TableKind.HIVE, null, null, new int[] {1, 0});
      assertEquals(2, two.shards, "one shard per listed device");
      assertEquals(List.of(1, 0), two.used);
      assertEquals(1, two.device, "the first shard's device");
      Sharding fewer = Sharding.of(TableKind.HIVE, null, 1, new int[] {1, 0});
      assertEquals(1, fewer.shards);
      assertEquals(List.of(1, 0), fewer.used, "the table's devices, as listed");
    }
  }
}
