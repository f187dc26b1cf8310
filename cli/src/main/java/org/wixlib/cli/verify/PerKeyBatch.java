package org.wixlib.cli.verify;

import java.util.Arrays;

/**
 * A batch of the second phase, keys repeated across the whole batch: either a fixed set of hot keys
 * (half the ops on the 4 hottest, the rest uniformly on all) or keys Zipf-distributed over the key range
 * (rank r, the key of index r, has weight ~ 1/(r+1)^s; rank 0 hottest; drawn by inverting the
 * continuous power law, O(1) per key). Every shard draws the elements of its positions; each key's
 * elements, from whichever positions, are then gathered by the shard owning the key, which checks them
 * ({@link PerKeyCheck}) and keeps the key's oracle state. Values are unique (a bijection of a per-shard
 * counter and the shard), so a found value names the insert that wrote it.
 */
final class PerKeyBatch extends BatchArrays {
  private final Verifier v;
  /** Hot key indices (null: Zipf), and each one's slot in the shard owning it. */
  private final long[] hot;
  private final long[] hotKey;
  private final int[] hotSlot;
  /** Whether the batch's keys must be read back before it: always with Zipf keys, once with hot keys. */
  private boolean readBefore = true;
  /** The batch's distinct keys, shard after shard, and their states read from the table. */
  private long[] touched = new long[0];
  private byte[] present = new byte[0];
  private long[] value = new long[0];

  private PerKeyBatch(Verifier v, long[] hot) {
    this.v = v;
    this.hot = hot;
    this.hotKey = hot == null ? null : new long[hot.length];
    this.hotSlot = hot == null ? null : new int[hot.length];
    if (hot == null) {
      for (Shard sh : v.shard) {
        sh.slotOfLocal = new int[sh.owned()];
        Arrays.fill(sh.slotOfLocal, -1);
      }
      return;
    }
    int[] owned = new int[Shards.COUNT];
    for (int x = 0; x < hot.length; x++) {
      hotKey[x] = v.width.key(hot[x]);
      hotSlot[x] = owned[Shards.owner(hot[x])]++;
    }
    for (int c = 0; c < Shards.COUNT; c++) {
      v.shard[c].reserve(owned[c], 0);
      v.shard[c].keys = owned[c];
    }
    for (int x = 0; x < hot.length; x++) {
      Shard c = v.shard[Shards.owner(hot[x])];
      c.key[hotSlot[x]] = hotKey[x];
      c.local[hotSlot[x]] = Shards.local(hot[x]);
    }
  }

  /** Batches on the keys of these indices. */
  static PerKeyBatch hot(Verifier v, long[] indices) {
    return new PerKeyBatch(v, indices);
  }

  static PerKeyBatch zipf(Verifier v) {
    return new PerKeyBatch(v, null);
  }

  int hotCount() {
    return hot == null ? 0 : hot.length;
  }

  void run(Layout layout) {
    allocate(layout.size);
    v.shards.each(s -> draw(v.shard[s], layout.positions[s]));
    v.shards.each(c -> gather(v.shard[c]));
    int total = 0;
    for (Shard sh : v.shard) {
      sh.keyOffset = total;
      total += sh.keys;
    }
    if (touched.length != total) {
      touched = new long[total];
      present = new byte[total];
      value = new long[total];
    }
    v.shards.each(c -> {
      Shard sh = v.shard[c];
      System.arraycopy(sh.key, 0, touched, sh.keyOffset, sh.keys);
    });
    if (readBefore) {
      // Keys new to this batch must still be as the oracle left them (see DistinctBatch). Hot keys
      // keep the state read after the last batch, and no call changes the table in between but a
      // resize, which is followed by a whole-table comparison.
      v.read(touched, present, value);
      v.shards.each(c -> checkBefore(v.shard[c]));
      v.collect();
      readBefore = hot == null;
    }
    v.target.batch(ops, keys, values, outcomes);
    v.batches++;
    v.read(touched, present, value);
    v.shards.each(g -> scatter(v.shard[g]));
    v.shards.each(c -> checkAfter(v.shard[c]));
    v.collect();
    if (hot == null) {
      v.zipfBatches++;
      int hottest = 0;
      for (Shard sh : v.shard) {
        hottest += sh.hottest;
      }
      v.hottestShare = Math.max(v.hottestShare, (double) hottest / layout.size);
    }
    v.opsChecked += layout.size;
  }

  /** Shard g's positions: key, op and a unique value each; the position goes to the key owner's bucket. */
  private void draw(Shard g, int[] pos) {
    Arrays.fill(g.bucketSize, 0);
    g.hottest = 0;
    int h = hotCount();
    int skewed = Math.min(4, h);
    double s1 = 1.0 - v.p.zipf();
    double range = v.p.keyRange();
    double span = Math.pow(range + 1.0, s1) - 1.0;
    double logRange = Math.log(range + 1.0);
    for (int i : pos) {
      int c;
      int id;
      if (hot != null) {
        int x = g.rnd.nextBoolean() ? g.rnd.nextInt(skewed) : g.rnd.nextInt(h);
        id = x;
        keys[i] = hotKey[x];
        c = Shards.owner(hot[x]);
      } else {
        double u = g.rnd.nextDouble();
        double x = Math.abs(s1) < 1e-9 ? Math.exp(u * logRange) : Math.pow(span * u + 1.0, 1.0 / s1);
        long rank = Math.min((long) x - 1, v.p.keyRange() - 1);
        g.hottest += rank == 0 ? 1 : 0;
        id = Shards.local(rank);
        keys[i] = v.width.key(rank);
        c = Shards.owner(rank);
      }
      ops[i] = OpMix.draw(g.rnd);
      long val = v.width.uniqueValue(g.valueCounter++ * Shards.COUNT + g.index);
      values[i] = val;
      valuesIn[i] = val;
      g.drop(c, i, id);
    }
  }

  /** Shard c collects the elements of its keys from every shard's bucket, and the keys' oracle states. */
  private void gather(Shard c) {
    int n = 0;
    for (Shard g : v.shard) {
      n += g.bucketSize[c.index];
    }
    if (hot == null) {
      c.keys = 0;
    }
    c.reserve(hot == null ? n : c.keys, n);
    Arrays.fill(c.firstPos, 0, c.keys, Integer.MAX_VALUE);
    int j = 0;
    for (Shard g : v.shard) {
      long[] bucket = g.bucket[c.index];
      c.bucketStart[g.index] = j;
      for (int t = 0, end = g.bucketSize[c.index]; t < end; t++) {
        int i = (int) (bucket[t] >>> 32);
        int id = (int) bucket[t];
        int s;
        if (hot != null) {
          s = hotSlot[id];
        } else {
          s = c.slotOfLocal[id];
          if (s < 0) {
            s = c.keys++;
            c.slotOfLocal[id] = s;
            c.key[s] = v.width.key(Shards.index(c.index, id));
            c.local[s] = id;
            c.firstPos[s] = i;
          }
        }
        c.firstPos[s] = Math.min(c.firstPos[s], i);
        c.elem[j] = i;
        c.slot[j++] = s;
      }
    }
    c.elems = j;
    for (int s = 0; s < c.keys; s++) {
      if (hot == null) {
        c.slotOfLocal[c.local[s]] = -1;
      }
      long cur = c.get(c.local[s]);
      boolean had = cur != Shard.NONE;
      c.prePresent[s] = (byte) (had ? 1 : 0);
      c.preValue[s] = had ? cur : 0;
      c.failed[s] = 0;
    }
  }

  /** Rank of a key's findings: its first position, after the batch for a hot key the batch missed. */
  private long rank(Shard c, int s) {
    return c.firstPos[s] != Integer.MAX_VALUE ? c.firstPos[s] : (long) size + c.keyOffset + s;
  }

  private void checkBefore(Shard c) {
    for (int s = 0; s < c.keys; s++) {
      int at = c.keyOffset + s;
      boolean had = c.prePresent[s] != 0;
      boolean is = present[at] != 0;
      if (had != is || (had && value[at] != c.preValue[s])) {
        c.findings.add(rank(c, s), v.mismatch("between batches", c.key[s], "the key changed while no op touched it:"
            + " the oracle holds " + (had ? "value " + c.preValue[s] : "nothing") + ", the table "
            + (is ? "value " + value[at] : "nothing")));
      }
    }
  }

  /**
   * Shard g copies the batch's results of the elements it drew to the shards owning their keys (reading
   * its own positions, writing each owner's arrays in order).
   */
  private void scatter(Shard g) {
    for (int c = 0; c < Shards.COUNT; c++) {
      Shard o = v.shard[c];
      long[] bucket = g.bucket[c];
      for (int t = 0, j = o.bucketStart[g.index], end = g.bucketSize[c]; t < end; t++, j++) {
        int i = (int) (bucket[t] >>> 32);
        o.eOps[j] = ops[i];
        o.eOutcomes[j] = outcomes[i];
        o.eIn[j] = valuesIn[i];
        o.eOut[j] = values[i];
      }
    }
  }

  private void checkAfter(Shard c) {
    System.arraycopy(present, c.keyOffset, c.nowPresent, 0, c.keys);
    System.arraycopy(value, c.keyOffset, c.nowValue, 0, c.keys);
    PerKeyCheck.Elements mine = new PerKeyCheck.Elements(c.eOps, c.eIn, c.eOut, c.eOutcomes, c.elem);
    PerKeyCheck.checkKeys(v.batches, v.width.bits(), c.key, c.keys, c.prePresent, c.preValue, c.nowPresent,
        c.nowValue, null, c.slot, c.elems, mine, c.scratch, (s, m) -> {
          c.findings.add(rank(c, s), m);
          c.failed[s] = 1;
        });
    // The oracle takes each key's state from the table once its ops fit it (a key that failed keeps
    // its state: the run stops after this batch).
    for (int s = 0; s < c.keys; s++) {
      if (c.failed[s] == 0) {
        c.set(c.local[s], c.nowPresent[s] != 0, c.nowValue[s]);
      }
    }
  }
}
