package org.wixlib.cli.verify;

import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.wixlib.cli.Progress;

/**
 * Differential test of one table against an oracle through {@link VerifyTarget#batch}, at 32 or 64
 * key bits (keys and values held as longs; the 32-bit ones are ints sign-extended).
 *
 * <p>Phase 1 (distinct): every batch has distinct keys, so each element's outcome, found value and
 * the key's state afterwards are determined; all are checked ({@link DistinctBatch}). Phase 2 (hot
 * keys): batches hammer a few keys concurrently — or, with a Zipf exponent, keys drawn
 * Zipf-distributed over the whole key range, so a handful of keys get a large share of every batch;
 * per key some sequential order of its ops must give every outcome and found value and the key's
 * state afterwards ({@link PerKeyBatch}, {@link PerKeyCheck}). In both phases the keys of a batch are
 * read back before it when they may have changed since the oracle last saw them, size() is compared
 * after every batch and the whole table once the ops since the last comparison reach 4x its size, so
 * keys outside a batch are checked too. With {@code resizeEvery > 0} the table is resized up and back
 * down to its size every that many batches, and compared whole after each resize. At the end the
 * whole table (retrieveAll) must equal the oracle, also after a resize, and clear() must empty it.
 *
 * <p>The work is split into {@link Shards#COUNT} shards by the keys' indices in the run's key space,
 * each with its own oracle part and random stream; a batch interleaves the shards' elements
 * ({@link Layout}), and each shard checks the keys it owns. The ops, the checks and the result do not
 * depend on the number of threads.
 */
final class Verifier {
  /** What to run; threads only sets how fast. */
  record Params(long seed, long ops, int batch, long keyRange, int hotKeys, double hotFraction, double zipf,
      int resizeEvery, int keyBits, int threads) {
    Params {
      if (keyBits != 32 && keyBits != 64) {
        throw new IllegalArgumentException("key bits must be 32 or 64, got " + keyBits);
      }
    }

    /** 32-bit keys on all cores. */
    Params(long seed, long ops, int batch, long keyRange, int hotKeys, double hotFraction, double zipf,
        int resizeEvery) {
      this(seed, ops, batch, keyRange, hotKeys, hotFraction, zipf, resizeEvery, 32,
          Runtime.getRuntime().availableProcessors());
    }

    /** Hot keys only, no Zipf, no interleaved resizes. */
    Params(long seed, long ops, int batch, long keyRange, int hotKeys, double hotFraction) {
      this(seed, ops, batch, keyRange, hotKeys, hotFraction, 0, 0);
    }

    Params withKeyBits(int bits) {
      return new Params(seed, ops, batch, keyRange, hotKeys, hotFraction, zipf, resizeEvery, bits, threads);
    }

    Params withThreads(int n) {
      return new Params(seed, ops, batch, keyRange, hotKeys, hotFraction, zipf, resizeEvery, keyBits, n);
    }
  }

  /** Totals of a run; mismatch is the first offending key, or null. */
  record Result(long opsChecked, long batches, long sizeChecks, long finalSize, long mismatches,
      Mismatch mismatch, double seconds, long resizes, long zipfBatches, double hottestShare) {}

  final Params p;
  private final Progress log;
  private final String name;
  final KeyWidth width;
  final Shard[] shard = new Shard[Shards.COUNT];
  private final SplittableRandom layoutRnd;
  private final SplittableRandom hotRnd;
  private final Map<Integer, Layout> layouts = new HashMap<>();
  /** The keys each shard owns, as weights of the batch layout. */
  private final int[] owned = new int[Shards.COUNT];
  Shards shards;
  VerifyTarget target;
  long opsChecked;
  long batches;
  private long sizeChecks;
  private long mismatches;
  private Mismatch first;
  private long resizes;
  long zipfBatches;
  double hottestShare;
  private long opsSinceCompare;

  Verifier(Params p, String name, Progress log) {
    this.p = p;
    this.log = log;
    this.name = name;
    this.width = KeyWidth.of(p.keyBits(), p.seed(), p.keyRange());
    SplittableRandom root = new SplittableRandom(p.seed());
    for (int s = 0; s < Shards.COUNT; s++) {
      shard[s] = new Shard(s, p.keyRange(), root.split());
      owned[s] = shard[s].owned();
    }
    this.layoutRnd = root.split();
    this.hotRnd = root.split();
  }

  Result run(VerifyTarget t) {
    if (t.keyBits() != p.keyBits()) {
      throw new IllegalArgumentException("a " + t.keyBits() + "-bit table for a " + p.keyBits() + "-bit run");
    }
    long start = System.nanoTime();
    target = t;
    try (Shards sh = new Shards(p.threads())) {
      shards = sh;
      phases();
    } finally {
      shards = null;
    }
    long finalSize = t.size();
    return new Result(opsChecked, batches, sizeChecks, finalSize, mismatches, first,
        (System.nanoTime() - start) / 1e9, resizes, zipfBatches, hottestShare);
  }

  private void phases() {
    long hotOps = Math.round(p.ops() * p.hotFraction());
    long distinctOps = p.ops() - hotOps;
    long nextReport = 0;
    long done = 0;
    DistinctBatch distinct = new DistinctBatch(this);
    while (done < distinctOps && first == null) {
      int b = (int) Math.min(p.batch(), distinctOps - done);
      distinct.run(layout(b));
      done += b;
      betweenBatches("distinct", b);
      maybeResize();
      if (done >= nextReport) {
        log.progress("verify " + name + ": distinct phase " + done + "/" + distinctOps + " ops, size " + oracleSize());
        nextReport += Math.max(p.ops() / 10, 1);
      }
    }
    distinct = null; // its arrays can go before the second phase makes its own
    if (first == null) {
      checkSize("distinct");
    }
    PerKeyBatch perKey = hotOps == 0 ? null : p.zipf() > 0 ? PerKeyBatch.zipf(this)
        : PerKeyBatch.hot(this, hotIndices());
    done = 0;
    nextReport = 0;
    while (done < hotOps && first == null) {
      int b = (int) Math.min(p.batch(), hotOps - done);
      perKey.run(layout(b));
      done += b;
      betweenBatches("hot-key", b);
      maybeResize();
      if (done >= nextReport) {
        log.progress("verify " + name + ": " + (p.zipf() > 0 ? "zipf phase " + done + "/" + hotOps + " ops (s="
            + p.zipf() + ")" : "hot-key phase " + done + "/" + hotOps + " ops on " + perKey.hotCount() + " keys"));
        nextReport += Math.max(p.ops() / 10, 1);
      }
    }
    if (first == null) {
      log.progress("verify " + name + ": comparing the whole table (" + oracleSize() + " keys)");
      compareAll("final");
    }
    if (first == null) {
      long cap = Math.max(2L * oracleSize(), 1024);
      log.progress("verify " + name + ": resize(" + cap + ") and compare again");
      target.resize(cap);
      compareAll("after resize");
    }
    if (first == null) {
      target.clear();
      shards.each(s -> shard[s].clear());
      compareAll("after clear");
    }
  }

  private Layout layout(int b) {
    return layouts.computeIfAbsent(b, n -> new Layout(n, owned, layoutRnd));
  }

  /**
   * The indices of h distinct keys of the range, in pairs of neighbours 2j, 2j+1 (at 64 bits such a
   * pair differs only in the high half of the key; see KeySpace64): j by Floyd's sampling, in the order
   * drawn.
   */
  private long[] hotIndices() {
    int h = (int) Math.min(p.hotKeys(), p.keyRange());
    long[] hot = new long[h];
    if (h == p.keyRange()) {
      for (int i = 0; i < h; i++) {
        hot[i] = i;
      }
      return hot;
    }
    long pairs = p.keyRange() / 2;
    int want = (h + 1) / 2;
    LongOpenHashSet picked = new LongOpenHashSet();
    int n = 0;
    for (long j = pairs - want; j < pairs; j++) {
      long t = hotRnd.nextLong(j + 1);
      long pair = picked.add(t) ? t : j;
      picked.add(pair);
      for (int k = 0; k < 2 && n < h; k++) {
        hot[n++] = 2 * pair + k;
      }
    }
    return hot;
  }

  /** Every resizeEvery batches: resize up (room for 4x the keys), next time back down to the size. */
  private void maybeResize() {
    if (first != null || p.resizeEvery() <= 0 || batches % p.resizeEvery() != 0) {
      return;
    }
    long size = oracleSize();
    long cap = resizes % 2 == 0 ? Math.max(4L * size, 1024) : Math.max(size, 1);
    target.resize(cap);
    resizes++;
    log.detail("verify " + name + ": batch " + batches + ": resize(" + cap + ") with " + size + " keys");
    compareAll("after resize(" + cap + ") at batch " + batches);
  }

  // ---- mismatches ------------------------------------------------------------------------------

  boolean failed() {
    return first != null;
  }

  Mismatch mismatch(String phase, long key, String problem) {
    return new Mismatch(phase, batches, key, width.bits(), problem);
  }

  /** Counts a mismatch found outside the shards; the first one is kept. */
  void record(Mismatch m) {
    mismatches++;
    if (first == null) {
      first = m;
    }
  }

  /** Takes the shards' findings of the last step: all counted, the lowest rank first (then shard order). */
  void collect() {
    Findings best = null;
    for (Shard s : shard) {
      Findings f = s.findings;
      mismatches += f.count;
      if (f.first != null && (best == null || f.rank < best.rank)) {
        best = f;
      }
    }
    if (best != null && first == null) {
      first = best.first;
    }
    for (Shard s : shard) {
      s.findings.reset();
    }
  }

  // ---- reading keys back -----------------------------------------------------------------------

  /** The state of keys: see {@link #read(VerifyTarget, Shards, long[], byte[], long[], long)}. */
  void read(long[] keys, byte[] present, long[] value) {
    read(target, shards, keys, present, value, width.probe());
  }

  /**
   * The state of keys in t: present[s], and value[s] (meaningful where present). One find with probe as
   * its not-found value, then contains for the keys that read probe (absent, or present with that
   * value); the scans run on the shards' fixed slices.
   */
  static void read(VerifyTarget t, Shards shards, long[] keys, byte[] present, long[] value, long probe) {
    t.find(keys, value, probe);
    int n = keys.length;
    int[] at = new int[Shards.COUNT + 1];
    shards.slices(n, (slice, from, to) -> {
      int misses = 0;
      for (int s = from; s < to; s++) {
        boolean miss = value[s] == probe;
        present[s] = (byte) (miss ? 0 : 1);
        misses += miss ? 1 : 0;
      }
      at[slice + 1] = misses;
    });
    for (int slice = 0; slice < Shards.COUNT; slice++) {
      at[slice + 1] += at[slice];
    }
    int unsure = at[Shards.COUNT];
    if (unsure == 0) {
      return;
    }
    long[] k = new long[unsure];
    shards.slices(n, (slice, from, to) -> {
      for (int s = from, j = at[slice]; s < to; s++) {
        if (value[s] == probe) {
          k[j++] = keys[s];
        }
      }
    });
    byte[] there = new byte[unsure];
    t.contains(k, there);
    shards.slices(n, (slice, from, to) -> {
      for (int s = from, j = at[slice]; s < to; s++) {
        if (value[s] == probe) {
          present[s] = there[j++];
        }
      }
    });
  }

  // ---- whole-table checks ----------------------------------------------------------------------

  long oracleSize() {
    long n = 0;
    for (Shard s : shard) {
      n += s.size();
    }
    return n;
  }

  /**
   * After every batch: size() must equal the oracle's, and once the ops since the last whole-table
   * comparison reach 4x the oracle's size (so it costs at most 1/4 lookup per op) retrieveAll() is
   * compared with the oracle. With the read-back of a batch's keys before it and the final comparison
   * every change to a key outside a batch is caught: a dropped or foreign key at once (size), a changed
   * value at its next touch or the next comparison.
   */
  private void betweenBatches(String phase, int b) {
    if (first != null) {
      return;
    }
    checkSize(phase);
    opsSinceCompare += b;
    if (first == null && opsSinceCompare >= 4L * oracleSize()) {
      compareAll(phase + " whole-table check at batch " + batches);
    }
  }

  private void checkSize(String phase) {
    sizeChecks++;
    long size = target.size();
    long want = oracleSize();
    log.detail("verify " + name + ": batch " + batches + ": size " + size + ", oracle " + want);
    if (size != want) {
      Mismatch m = TableCompare.diff(this, target.retrieveAll(), phase + " size check");
      record(m != null ? m : mismatch(phase + " size check", 0, "size() is " + size
          + " but the oracle holds " + want + " keys (retrieveAll agrees with the oracle)"));
    }
  }

  /** retrieveAll() must hold exactly the oracle's pairs. */
  private void compareAll(String phase) {
    opsSinceCompare = 0;
    Mismatch m = TableCompare.compare(this, target.retrieveAll(), phase);
    if (m != null) {
      record(m);
    }
  }
}
