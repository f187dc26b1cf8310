package org.wixlib.cli.verify;

/**
 * Mismatches one shard found in one step of a batch: how many, and the one of lowest rank (its
 * element's position in the batch, or another order every thread count gives alike).
 */
final class Findings {
  long count;
  Mismatch first;
  long rank;

  void add(long rank, Mismatch m) {
    count++;
    if (first == null || rank < this.rank) {
      first = m;
      this.rank = rank;
    }
  }

  void reset() {
    count = 0;
    first = null;
  }
}
