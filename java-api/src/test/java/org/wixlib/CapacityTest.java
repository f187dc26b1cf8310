package org.wixlib;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** capacity(n) means n keys fit without any resize, at every max load factor (GPU kinds skip without a GPU). */
class CapacityTest {
  static final int N = 1_000_000;

  /** N distinct random-looking keys (a bijection of 0..N-1), none reserved. */
  static int[] keys() {
    int[] k = new int[N];
    for (int i = 0; i < N; i++) {
      k[i] = (int) (i * 0x9E3779B1L + 0x2545F491L);
    }
    return k;
  }

  @ParameterizedTest
  @ValueSource(doubles = {0, 0.5, 0.9, 0.95, 1.0}) // 0: the kind's default
  void cpuHoldsItsCapacityWithoutResizing(double maxLoad) {
    check(TableKind.CPU, maxLoad);
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void gpuKindsHoldTheirCapacityWithoutResizing(TableKind kind) {
    GpuAssumptions.requireOrSkip(kind);
    check(kind, 0);
  }

  private static void check(TableKind kind, double maxLoad) {
    HashTable.Builder b = HashTable.builder().kind(kind).capacity(N);
    if (maxLoad > 0) {
      b.maxLoadFactor(maxLoad);
    }
    try (HashTable t = b.build()) {
      t.insert(keys(), null);
      assertEquals(N, t.size());
      assertEquals(0, t.stats().resizes(), kind + " at max load " + maxLoad + " grew to " + t.capacity() + " slots");
    }
  }

  @ParameterizedTest
  @EnumSource(TableKind.class)
  void resizeToACapacityHoldsItWithoutFurtherResizing(TableKind kind) {
    if (kind.isGpu()) {
      GpuAssumptions.requireOrSkip(kind);
    }
    try (HashTable t = HashTable.builder().kind(kind).capacity(1000).build()) {
      t.resize(N);
      long after = t.stats().resizes();
      t.insert(keys(), null);
      assertEquals(after, t.stats().resizes(), kind + ": inserting the capacity grew the table");
    }
  }
}
