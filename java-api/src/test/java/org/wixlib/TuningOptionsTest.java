package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.wixlib.internal.Native;
import org.wixlib.internal.ffi.wixlib_h;

/**
 * The builders' configuration checks use the C API's limits (the generated WX_* constants): values
 * past them fail fast in the builder, values at them create tables; and the per-call counts the
 * facade reports come from the table's stats.
 */
class TuningOptionsTest {

  @Test
  void limitsAreTheHeaders() {
    assertEquals(wixlib_h.WX_LOAD_FACTOR_MIN(), ConfigChecks.LOAD_FACTOR_MIN);
    assertEquals(0.05, ConfigChecks.LOAD_FACTOR_MIN);
    assertEquals(1.0, ConfigChecks.LOAD_FACTOR_MAX);
    assertEquals(1024, ConfigChecks.STAGING_CHUNK_MIN);
    assertEquals(1L << 26, ConfigChecks.STAGING_CHUNK_MAX);
    assertEquals(100, ConfigChecks.HOT_SHARE_MAX);
    assertEquals(wixlib_h.WX_MIXED_GROUP_MAX(), ConfigChecks.MIXED_GROUP_MAX);
  }

  @Test
  void badTuningValuesFailInTheBuilder() {
    Executable[] calls = {
      () -> HashTable.builder().stagingChunk(ConfigChecks.STAGING_CHUNK_MIN - 1),
      () -> HashTable.builder().stagingChunk(ConfigChecks.STAGING_CHUNK_MAX + 1),
      () -> HashTable.builder().stagingChunk(0),
      () -> HashTable.builder().stagingChunk(-1),
      () -> HashTable.builder().hotShare(-1),
      () -> HashTable.builder().hotShare(ConfigChecks.HOT_SHARE_MAX + 1),
      () -> HashTable.builder().mixedGroup(-1),
      () -> HashTable.builder().mixedGroup(ConfigChecks.MIXED_GROUP_MAX + 1),
      () -> HashTable.builder().buildMin(-1),
      () -> HashTable.builder().maxLoadFactor(Math.nextDown(ConfigChecks.LOAD_FACTOR_MIN)),
      () -> HashTable.builder().maxLoadFactor(Math.nextUp(ConfigChecks.LOAD_FACTOR_MAX)),
      () -> Join.builder().maxLoadFactor(Math.nextDown(ConfigChecks.LOAD_FACTOR_MIN)),
    };
    for (int i = 0; i < calls.length; i++) {
      InvalidArgumentException e = assertThrows(InvalidArgumentException.class, calls[i], "call #" + i);
      assertEquals("INVALID_ARGUMENT", e.statusName());
    }
    InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
        () -> HashTable.builder().hotShare(101));
    assertTrue(e.getMessage().contains("hotShare") && e.getMessage().contains("101"), e.getMessage());
  }

  @Test
  void tuningValuesAtTheLimitsCreateCpuTables() {
    HashTable.Builder[] builders = {
      HashTable.builder().stagingChunk(ConfigChecks.STAGING_CHUNK_MIN).hotShare(0).mixedGroup(0).buildMin(0),
      HashTable.builder().stagingChunk(ConfigChecks.STAGING_CHUNK_MAX).hotShare(ConfigChecks.HOT_SHARE_MAX)
          .mixedGroup(ConfigChecks.MIXED_GROUP_MAX).buildMin(Long.MAX_VALUE),
      HashTable.builder().maxLoadFactor(ConfigChecks.LOAD_FACTOR_MIN).stagingChunk(1 << 21).hotShare(90),
      HashTable.builder().maxLoadFactor(ConfigChecks.LOAD_FACTOR_MAX).keyBits(64).mixedGroup(4),
    };
    for (HashTable.Builder b : builders) {
      try (HashTable t = b.capacity(100).build()) {
        if (t.keyBits() == 64) {
          t.insert(new long[] {1, 2, 3}, new long[] {4, 5, 6});
          assertEquals(5L, t.find(new long[] {2}, -1L)[0]);
        } else {
          t.insert(new int[] {1, 2, 3}, new int[] {4, 5, 6});
          assertEquals(5, t.find(new int[] {2}, -1)[0]);
        }
        assertEquals(3, t.size());
      }
    }
  }

  @Test
  void theLibraryChecksTheSameLimitsWhenTheBuilderIsBypassed() {
    Native.Tuning[] bad = {
      new Native.Tuning(ConfigChecks.STAGING_CHUNK_MIN - 1, null, null, null),
      new Native.Tuning(null, ConfigChecks.HOT_SHARE_MAX + 1, null, null),
      new Native.Tuning(null, null, ConfigChecks.MIXED_GROUP_MAX + 1, null),
    };
    String[] field = {"staging_chunk", "hot_share", "mixed_group"};
    for (int i = 0; i < bad.length; i++) {
      Native.Tuning tuning = bad[i];
      InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> Native.tableCreate(
          new Native.Config(TableKind.CPU.code(), 16L, null, null, null, null, null, null, tuning)));
      assertTrue(e.getMessage().contains(field[i]), e.getMessage());
    }
    InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> Native.tableCreate(
        new Native.Config(TableKind.CPU.code(), 16L, Math.nextDown(ConfigChecks.LOAD_FACTOR_MIN), null, null,
            null, null)));
    assertTrue(e.getMessage().contains("max_load_factor"), e.getMessage());
  }

  @Test
  void statsCarryTheLastCallsCounts() {
    try (HashTable t = HashTable.builder().capacity(50).growPolicy(GrowPolicy.NEVER).build()) {
      assertEquals(0, t.stats().lastFull());
      assertEquals(0, t.stats().lastInvalid());
      int n = (int) t.capacity() * 3;
      int[] keys = new int[n];
      for (int i = 0; i < n; i++) {
        keys[i] = i;
      }
      byte[] out = new byte[n];
      t.insert(keys, keys, out); // outcomes given: FULL is a result
      long full = 0;
      for (byte b : out) {
        full += b == Outcome.FULL ? 1 : 0;
      }
      assertTrue(full > 0, "some inserts must be FULL");
      assertEquals(full, t.stats().lastFull());
      assertEquals(n - t.size(), full);
      // Without outcomes the exception's count is the native count.
      int[] more = {n + 1, n + 2, n + 3, n + 4};
      long before = t.size();
      TableFullException e = assertThrows(TableFullException.class, () -> t.insert(more, more));
      assertEquals(more.length - (t.size() - before), e.count(), e.getMessage());
      assertEquals(e.count(), t.stats().lastFull());
      t.find(new int[] {1}, -1); // a clean call resets the counts
      assertEquals(0, t.stats().lastFull());
    }
  }
}
