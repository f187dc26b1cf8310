package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * GPU tables that are never closed give their device memory back through the Cleaner once they are
 * unreachable: the device's free memory, measured with the CUDA memory-info call, drops
 * while they live and returns to the baseline after GC. Skipped (visibly) without a GPU.
 */
class GpuCleanerTest {
  private static final int TABLES = 16;
  private static final long CAPACITY = 1 << 22;
  private static final long TOLERANCE = 8L << 20; // cudaMemGetInfo moves in 2 MiB pages; allocator caches

  static long deviceFree() {
    return Wixlib.devices().get(0).freeBytes();
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void unclosedGpuTablesFreeDeviceMemory(TableKind kind) throws Exception {
    GpuAssumptions.requireOrSkip(kind);
    // Context, kernels and the driver's pools for pinned staging memory reach their working size before
    // the baseline: a first round of as many live tables, closed explicitly (the driver keeps the pools it
    // grew for 16 tables' pinned buffers; gpu_leaks shows no loss per table over 10^4 staged cycles).
    HashTable[] warm = new HashTable[TABLES];
    for (int t = 0; t < TABLES; t++) {
      warm[t] = HashTable.builder().kind(kind).capacity(1024).build();
      warm[t].insert(new int[] {1, 2, 3}, new int[] {1, 2, 3});
    }
    for (HashTable t : warm) {
      t.close();
    }
    System.gc();
    long free0 = deviceFree();
    long destroyed0 = HashTable.DESTROYED.get();
    long held = makeUnclosedTables(kind, free0);
    long deadline = System.nanoTime() + 30_000_000_000L;
    long free1 = deviceFree();
    while ((HashTable.DESTROYED.get() - destroyed0 < TABLES || free0 - free1 > TOLERANCE)
        && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(50);
      free1 = deviceFree();
    }
    System.out.printf("%s: %d unclosed tables of %d keys held %d MiB of device memory; after GC free %d -> %d MiB%n",
        kind, TABLES, CAPACITY, held >> 20, free0 >> 20, free1 >> 20);
    assertEquals(TABLES, HashTable.DESTROYED.get() - destroyed0, "unreachable tables destroyed by the cleaner");
    assertTrue(free0 - free1 <= TOLERANCE, "device memory not back to baseline: " + (free0 - free1) + " bytes short");
  }

  /** Creates the tables, fills them a little, drops them; returns the device memory they held. */
  private static long makeUnclosedTables(TableKind kind, long free0) {
    HashTable[] tables = new HashTable[TABLES];
    int[] keys = new int[1000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i * 7 + 1;
    }
    for (int t = 0; t < TABLES; t++) {
      tables[t] = HashTable.builder().kind(kind).capacity(CAPACITY).build();
      tables[t].insert(keys, keys);
    }
    long held = free0 - deviceFree();
    // Each table has room for 2^22 keys of 8 bytes at least: far more than the tolerance.
    assertTrue(held >= TABLES * CAPACITY * 8 / 2, "live tables hold only " + held + " bytes of device memory");
    return held;
  }
}
