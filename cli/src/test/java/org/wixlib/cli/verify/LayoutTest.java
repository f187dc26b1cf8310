package org.wixlib.cli.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A batch layout gives every position to exactly one shard, within each shard's weight, interleaved. */
class LayoutTest {
  @Test
  void everyPositionOnceSharesWithinTheWeightsAndInterleaved() {
    SplittableRandom rnd = new SplittableRandom(4);
    int[][] weights = {{10, 0, 5, 1}, {1000, 1000, 1000, 1000}, {3, 3, 3, 3}, {1, 0, 0, 0}};
    int[] sizes = {16, 3000, 12, 1};
    for (int c = 0; c < weights.length; c++) {
      int b = sizes[c];
      Layout l = new Layout(b, weights[c], rnd);
      int[] seen = new int[b];
      int switches = 0;
      int[] shardAt = new int[b];
      for (int s = 0; s < weights[c].length; s++) {
        assertTrue(l.positions[s].length <= weights[c][s], "shard " + s + " gets " + l.positions[s].length);
        for (int i : l.positions[s]) {
          seen[i]++;
          shardAt[i] = s;
        }
      }
      for (int i = 0; i < b; i++) {
        assertEquals(1, seen[i], "position " + i);
        switches += i > 0 && shardAt[i] != shardAt[i - 1] ? 1 : 0;
      }
      if (b == 3000) {
        // 3000 positions in runs of 64 from 4 shards: the runs are shuffled, not one shard after another.
        assertTrue(switches > 10, "interleaved: " + switches + " shard changes");
      }
    }
  }
}
