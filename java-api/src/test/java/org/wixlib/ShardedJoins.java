package org.wixlib;

import org.junit.jupiter.api.Assumptions;

/** Builds a sharded join, skipping the test (visibly) where the native library does not shard joins. */
final class ShardedJoins {
  private ShardedJoins() {}

  static Join build(Join.Builder b, int[] keys) {
    try {
      return b.build(keys);
    } catch (UnsupportedKindException e) {
      Assumptions.abort("this native library does not shard joins: " + e.getMessage());
      throw e;
    }
  }
}
