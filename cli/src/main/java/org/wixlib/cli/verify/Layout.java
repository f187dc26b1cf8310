package org.wixlib.cli.verify;

import java.util.SplittableRandom;

/**
 * Which positions of a batch of b elements each shard fills: shard s gets a share of b proportional to
 * its weight (the keys it owns, so a distinct-key batch never asks a shard for more keys than it has),
 * in runs of {@link #RUN} positions (each run written in one go, a cache line of every array at a time)
 * shuffled over the batch, so the shards' elements interleave.
 */
final class Layout {
  /** Positions a shard fills in a row. */
  static final int RUN = 64;

  final int size;
  /** positions[s]: shard s's positions, in the order it fills them. */
  final int[][] positions;

  /** Needs b <= the sum of the weights (largest remainders keep each share <= its weight). */
  Layout(int b, int[] weights, SplittableRandom rnd) {
    this.size = b;
    int n = weights.length;
    long total = 0;
    for (int w : weights) {
      total += w;
    }
    int[] share = new int[n];
    long[] remainder = new long[n];
    int given = 0;
    for (int s = 0; s < n; s++) {
      share[s] = (int) ((long) b * weights[s] / total);
      remainder[s] = (long) b * weights[s] % total;
      given += share[s];
    }
    while (given < b) {
      int best = 0;
      for (int s = 1; s < n; s++) {
        if (remainder[s] > remainder[best]) {
          best = s;
        }
      }
      share[best]++;
      remainder[best] = -1;
      given++;
    }
    // The runs (shard, length), shuffled (Fisher-Yates), then laid out one after another.
    int runs = 0;
    for (int s = 0; s < n; s++) {
      runs += (share[s] + RUN - 1) / RUN;
    }
    int[] runShard = new int[runs];
    int[] runLength = new int[runs];
    for (int s = 0, r = 0; s < n; s++) {
      for (int left = share[s]; left > 0; left -= RUN) {
        runShard[r] = s;
        runLength[r++] = Math.min(RUN, left);
      }
    }
    for (int i = runs - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int ts = runShard[i];
      runShard[i] = runShard[j];
      runShard[j] = ts;
      int tl = runLength[i];
      runLength[i] = runLength[j];
      runLength[j] = tl;
    }
    positions = new int[n][];
    int[] fill = new int[n];
    for (int s = 0; s < n; s++) {
      positions[s] = new int[share[s]];
    }
    for (int r = 0, at = 0; r < runs; r++) {
      int[] mine = positions[runShard[r]];
      for (int k = 0; k < runLength[r]; k++) {
        mine[fill[runShard[r]]++] = at++;
      }
    }
  }
}
