package org.wixlib.cli.verify;

import it.unimi.dsi.fastutil.ints.Int2IntMap;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.wixlib.HashTable;
import org.wixlib.Op;
import org.wixlib.Outcome;
import org.wixlib.Pairs;
import org.wixlib.cli.KeySpace;
import org.wixlib.cli.Progress;

/**
 * Differential test of one table against a map oracle (fastutil's primitive int map: an oracle of 2^22
 * boxed entries would cost more than the table under test) through {@link HashTable#batch}.
 *
 * <p>Phase 1 (distinct): every batch has distinct keys, so each element's outcome and found value is
 * determined; all are checked, and the size every few batches. Phase 2 (hot keys): batches hammer a
 * few keys concurrently — or, with a Zipf exponent, keys drawn Zipf-distributed over the whole key
 * range, so a handful of keys get a large share of every batch; per key the outcomes must fit some
 * sequential order of its ops (see {@link #checkHotKey}). With {@code resizeEvery > 0} the table is
 * resized up and back down to its size every that many batches, and compared whole after each resize.
 * At the end the whole table (retrieveAll) must equal the oracle, also after a resize, and clear()
 * must empty it.
 */
final class Verifier {
  /** What to run. */
  record Params(long seed, long ops, int batch, long keyRange, int hotKeys, double hotFraction, double zipf,
      int resizeEvery) {
    /** Hot keys only, no Zipf, no interleaved resizes. */
    Params(long seed, long ops, int batch, long keyRange, int hotKeys, double hotFraction) {
      this(seed, ops, batch, keyRange, hotKeys, hotFraction, 0, 0);
    }
  }

  /** Totals of a run; mismatch is the first offending key, or null. */
  record Result(long opsChecked, long batches, long sizeChecks, long finalSize, long mismatches,
      Mismatch mismatch, double seconds, long resizes, long zipfBatches, double hottestShare) {}

  private static final int SIZE_CHECK_EVERY = 8;

  private final Params p;
  private final Progress log;
  private final String name;
  private final Int2IntOpenHashMap oracle = new Int2IntOpenHashMap();
  private final SplittableRandom rnd;
  private final KeySpace space;
  private final int[] perm;
  private long opsChecked;
  private long batches;
  private long sizeChecks;
  private long mismatches;
  private Mismatch first;
  private int valueCounter;
  private long resizes;
  private long zipfBatches;
  private double hottestShare;

  Verifier(Params p, String name, Progress log) {
    this.p = p;
    this.log = log;
    this.name = name;
    this.rnd = new SplittableRandom(p.seed());
    this.space = new KeySpace(p.seed(), p.keyRange());
    this.perm = new int[(int) p.keyRange()];
    for (int i = 0; i < perm.length; i++) {
      perm[i] = i;
    }
  }

  Result run(VerifyTarget t) {
    long start = System.nanoTime();
    long hotOps = Math.round(p.ops() * p.hotFraction());
    long distinctOps = p.ops() - hotOps;
    long nextReport = 0;
    long done = 0;
    while (done < distinctOps && first == null) {
      int b = (int) Math.min(p.batch(), distinctOps - done);
      distinctBatch(t, b);
      done += b;
      if (first == null && batches % SIZE_CHECK_EVERY == 0) {
        checkSize(t, "distinct");
      }
      maybeResize(t);
      if (done >= nextReport) {
        log.progress("verify " + name + ": distinct phase " + done + "/" + distinctOps + " ops, size " + oracle.size());
        nextReport += Math.max(p.ops() / 10, 1);
      }
    }
    if (first == null) {
      checkSize(t, "distinct");
    }
    int[] hot = p.zipf() > 0 ? null : hotKeys();
    done = 0;
    nextReport = 0;
    while (done < hotOps && first == null) {
      int b = (int) Math.min(p.batch(), hotOps - done);
      if (hot != null) {
        hotBatch(t, hot, b);
      } else {
        zipfBatch(t, b);
      }
      done += b;
      if (first == null && batches % SIZE_CHECK_EVERY == 0) {
        checkSize(t, "hot-key");
      }
      maybeResize(t);
      if (done >= nextReport) {
        log.progress("verify " + name + ": " + (hot != null ? "hot-key phase " + done + "/" + hotOps + " ops on "
            + hot.length + " keys" : "zipf phase " + done + "/" + hotOps + " ops (s=" + p.zipf() + ")"));
        nextReport += Math.max(p.ops() / 10, 1);
      }
    }
    if (first == null) {
      log.progress("verify " + name + ": comparing the whole table (" + oracle.size() + " keys)");
      compareAll(t, "final");
    }
    if (first == null) {
      long cap = Math.max(2L * oracle.size(), 1024);
      log.progress("verify " + name + ": resize(" + cap + ") and compare again");
      t.resize(cap);
      compareAll(t, "after resize");
    }
    if (first == null) {
      t.clear();
      oracle.clear();
      compareAll(t, "after clear");
    }
    long finalSize = t.size();
    return new Result(opsChecked, batches, sizeChecks, finalSize, mismatches, first,
        (System.nanoTime() - start) / 1e9, resizes, zipfBatches, hottestShare);
  }

  /** Every resizeEvery batches: resize up (room for twice the keys), next time back down to the size. */
  private void maybeResize(VerifyTarget t) {
    if (first != null || p.resizeEvery() <= 0 || batches % p.resizeEvery() != 0) {
      return;
    }
    long cap = resizes % 2 == 0 ? Math.max(4L * oracle.size(), 1024) : Math.max(oracle.size(), 1);
    t.resize(cap);
    resizes++;
    log.detail("verify " + name + ": batch " + batches + ": resize(" + cap + ") with " + oracle.size() + " keys");
    compareAll(t, "after resize(" + cap + ") at batch " + batches);
  }

  // ---- phase 1: distinct keys per batch --------------------------------------------------------

  private void distinctBatch(VerifyTarget t, int b) {
    byte[] ops = new byte[b];
    int[] keys = new int[b];
    int[] values = new int[b];
    int[] valuesIn = new int[b];
    byte[] expected = new byte[b];
    int[] expectedValue = new int[b];
    byte[] outcomes = new byte[b];
    Integer[] before = new Integer[b];
    int range = perm.length;
    for (int i = 0; i < b; i++) {
      // Partial Fisher-Yates over a persistent permutation: b distinct indices.
      int j = i + rnd.nextInt(range - i);
      int tmp = perm[i];
      perm[i] = perm[j];
      perm[j] = tmp;
      int key = space.key(perm[i]);
      keys[i] = key;
      byte op = OpMix.draw(rnd);
      ops[i] = op;
      values[i] = rnd.nextInt();
      valuesIn[i] = values[i];
      Integer cur = oracleGet(key);
      before[i] = cur;
      switch (op) {
        case Op.INSERT -> {
          expected[i] = cur == null ? Outcome.INSERTED : Outcome.PRESENT;
          if (cur == null) {
            oracle.put(key, values[i]);
          }
        }
        case Op.INSERT_OR_ASSIGN -> {
          expected[i] = cur == null ? Outcome.INSERTED : Outcome.ASSIGNED;
          oracle.put(key, values[i]);
        }
        case Op.ERASE -> {
          expected[i] = cur == null ? Outcome.NOT_FOUND : Outcome.ERASED;
          oracle.remove(key);
        }
        default -> {
          expected[i] = cur == null ? Outcome.NOT_FOUND : Outcome.FOUND;
          expectedValue[i] = cur == null ? values[i] : cur;
        }
      }
    }
    t.batch(ops, keys, values, outcomes);
    batches++;
    for (int i = 0; i < b; i++) {
      boolean bad = outcomes[i] != expected[i] || (ops[i] == Op.FIND && values[i] != expectedValue[i]);
      if (bad) {
        mismatches++;
        if (first == null) {
          String what = outcomes[i] != expected[i]
              ? "expected " + Outcome.name(expected[i]) + ", got " + Outcome.name(outcomes[i])
              : "find returned value " + values[i] + ", expected " + expectedValue[i];
          first = new Mismatch("distinct-key", batches, keys[i], what)
              .line("oracle before the batch: " + (before[i] == null ? "absent" : "present, value " + before[i]))
              .op(i, ops[i], valuesIn[i], outcomes[i], values[i]);
        }
      }
    }
    opsChecked += b;
  }

  // ---- phase 2: hot keys -----------------------------------------------------------------------

  private int[] hotKeys() {
    int h = Math.min(p.hotKeys(), perm.length);
    int[] hot = new int[h];
    for (int i = 0; i < h; i++) {
      int j = i + rnd.nextInt(perm.length - i);
      int tmp = perm[i];
      perm[i] = perm[j];
      perm[j] = tmp;
      hot[i] = space.key(perm[i]);
    }
    return hot;
  }

  private void hotBatch(VerifyTarget t, int[] hot, int b) {
    int h = hot.length;
    int[] slot = new int[b];
    int skewed = Math.min(4, h);
    for (int i = 0; i < b; i++) {
      // Half the ops go to the 4 hottest keys, the rest uniformly to all hot keys.
      slot[i] = rnd.nextBoolean() ? rnd.nextInt(skewed) : rnd.nextInt(h);
    }
    perKeyBatch(t, hot, slot, b);
  }

  /**
   * Keys Zipf-distributed over the key range (rank r has weight ~ 1/(r+1)^s; rank 0 hottest), drawn
   * by inverting the continuous power law (O(1) per key). The batch's distinct keys are then checked
   * like hot keys.
   */
  private void zipfBatch(VerifyTarget t, int b) {
    double s1 = 1.0 - p.zipf();
    double span = Math.pow(p.keyRange() + 1.0, s1) - 1.0;
    Int2IntOpenHashMap slotOf = new Int2IntOpenHashMap();
    slotOf.defaultReturnValue(-1);
    int[] slot = new int[b];
    int[] touched = new int[b];
    int h = 0;
    int hottest = 0;
    for (int i = 0; i < b; i++) {
      double u = rnd.nextDouble();
      double x = Math.abs(s1) < 1e-9 ? Math.exp(u * Math.log(p.keyRange() + 1.0)) : Math.pow(span * u + 1.0, 1.0 / s1);
      long rank = Math.min((long) x - 1, p.keyRange() - 1);
      hottest += rank == 0 ? 1 : 0;
      int key = space.key(rank);
      int s = slotOf.get(key);
      if (s < 0) {
        s = h;
        slotOf.put(key, h);
        touched[h++] = key;
      }
      slot[i] = s;
    }
    zipfBatches++;
    hottestShare = Math.max(hottestShare, (double) hottest / b);
    perKeyBatch(t, Arrays.copyOf(touched, h), slot, b);
  }

  /** Runs one batch whose element i hits key hot[slot[i]], then checks each of those keys' ops. */
  private void perKeyBatch(VerifyTarget t, int[] hot, int[] slot, int b) {
    int h = hot.length;
    byte[] ops = new byte[b];
    int[] keys = new int[b];
    int[] values = new int[b];
    int[] valuesIn = new int[b];
    byte[] outcomes = new byte[b];
    for (int i = 0; i < b; i++) {
      keys[i] = hot[slot[i]];
      ops[i] = OpMix.draw(rnd);
      // Unique values (a bijection of a counter) so a found value names the insert that wrote it.
      values[i] = KeySpace.mix(valueCounter++ ^ (int) p.seed());
      valuesIn[i] = values[i];
    }
    t.batch(ops, keys, values, outcomes);
    batches++;
    byte[] present = new byte[h];
    t.contains(hot, present);
    int[] finalValue = t.find(hot, 0);

    // Elements of each key, in batch order (counting sort by slot).
    int[] start = new int[h + 1];
    for (int i = 0; i < b; i++) {
      start[slot[i] + 1]++;
    }
    for (int s = 0; s < h; s++) {
      start[s + 1] += start[s];
    }
    int[] order = new int[b];
    int[] fill = Arrays.copyOf(start, h);
    for (int i = 0; i < b; i++) {
      order[fill[slot[i]]++] = i;
    }
    for (int s = 0; s < h; s++) {
      Integer pre = oracleGet(hot[s]);
      boolean nowPresent = present[s] != 0;
      Mismatch m = checkHotKey(batches, hot[s], pre, nowPresent, finalValue[s], order, start[s], start[s + 1], ops,
          valuesIn, values, outcomes);
      if (m != null) {
        record(m);
      }
      if (nowPresent) {
        oracle.put(hot[s], finalValue[s]);
      } else {
        oracle.remove(hot[s]);
      }
    }
    opsChecked += b;
  }

  /**
   * One key's ops of a concurrent batch must fit some sequential order: each op's outcome is one its op
   * can have; INSERTED and ERASED alternate starting from the presence before the batch and end in the
   * presence after it; a key never present in the batch was never found / erased / kept, a key never
   * absent was never missed; found values and the final value were written in the batch by an
   * INSERTED/ASSIGNED element of the key, or are the value from before the batch.
   */
  static Mismatch checkHotKey(long batch, int key, Integer pre, boolean nowPresent, int nowValue, int[] order, int from,
      int to, byte[] ops, int[] valuesIn, int[] valuesOut, byte[] outcomes) {
    int inserted = 0;
    int erased = 0;
    int sawPresent = 0;
    int sawAbsent = 0;
    // Values written by INSERTED/ASSIGNED elements, sorted below for binary search (a set per key
    // would dominate the run time of Zipf batches with ~10^5 distinct keys each).
    int[] written = new int[to - from];
    int nw = 0;
    String problem = null;
    for (int k = from; k < to; k++) {
      int i = order[k];
      byte o = outcomes[i];
      boolean ok = switch (ops[i]) {
        case Op.INSERT -> o == Outcome.INSERTED || o == Outcome.PRESENT;
        case Op.INSERT_OR_ASSIGN -> o == Outcome.INSERTED || o == Outcome.ASSIGNED;
        case Op.ERASE -> o == Outcome.ERASED || o == Outcome.NOT_FOUND;
        default -> o == Outcome.FOUND || o == Outcome.NOT_FOUND;
      };
      if (!ok && problem == null) {
        problem = Op.name(ops[i]) + " cannot have outcome " + Outcome.name(o) + " (element " + i + ")";
      }
      switch (o) {
        case Outcome.INSERTED -> {
          inserted++;
          written[nw++] = valuesIn[i];
        }
        case Outcome.ASSIGNED -> {
          sawPresent++;
          written[nw++] = valuesIn[i];
        }
        case Outcome.ERASED -> erased++;
        case Outcome.PRESENT, Outcome.FOUND -> sawPresent++;
        case Outcome.NOT_FOUND -> sawAbsent++;
        default -> { }
      }
    }
    Arrays.sort(written, 0, nw);
    boolean wasPresent = pre != null;
    if (problem == null) {
      int lead = wasPresent ? erased - inserted : inserted - erased;
      boolean expectPresent = wasPresent ? erased == inserted : inserted > erased;
      if (lead != 0 && lead != 1) {
        problem = inserted + " INSERTED and " + erased + " ERASED cannot alternate from "
            + (wasPresent ? "present" : "absent");
      } else if (expectPresent != nowPresent) {
        problem = "after " + inserted + " INSERTED and " + erased + " ERASED from " + (wasPresent ? "present" : "absent")
            + " the key should be " + (expectPresent ? "present" : "absent") + ", but is "
            + (nowPresent ? "present" : "absent");
      } else if (wasPresent && erased == 0 && sawAbsent > 0) {
        problem = "the key was present throughout the batch, yet " + sawAbsent + " op(s) saw it absent";
      } else if (!wasPresent && inserted == 0 && sawPresent > 0) {
        problem = "the key was absent throughout the batch, yet " + sawPresent + " op(s) saw it present";
      }
    }
    if (problem == null) {
      for (int k = from; k < to && problem == null; k++) {
        int i = order[k];
        if (ops[i] != Op.FIND) {
          continue;
        }
        if (outcomes[i] == Outcome.FOUND && Arrays.binarySearch(written, 0, nw, valuesOut[i]) < 0
            && !(wasPresent && pre == valuesOut[i])) {
          problem = "find returned value " + valuesOut[i] + ", which no insert of this key wrote (element " + i + ")";
        } else if (outcomes[i] == Outcome.NOT_FOUND && valuesOut[i] != valuesIn[i]) {
          problem = "a find that missed changed its value to " + valuesOut[i] + " (element " + i + ")";
        }
      }
    }
    if (problem == null && nowPresent) {
      if (nw == 0 ? !(wasPresent && pre == nowValue) : Arrays.binarySearch(written, 0, nw, nowValue) < 0) {
        problem = "final value " + nowValue + " was not written by the last insert of this key"
            + (nw == 0 ? " (no write, value before: " + pre + ")" : "");
      }
    }
    if (problem == null) {
      return null;
    }
    Mismatch m = new Mismatch("hot-key", batch, key, problem)
        .line("before the batch: " + (wasPresent ? "present, value " + pre : "absent"))
        .line("after the batch: " + (nowPresent ? "present, value " + nowValue : "absent"));
    for (int k = from; k < to; k++) {
      int i = order[k];
      m.op(i, ops[i], valuesIn[i], outcomes[i], valuesOut[i]);
    }
    return m;
  }

  /** The oracle's value of key, or null when absent. */
  private Integer oracleGet(int key) {
    return oracle.containsKey(key) ? oracle.get(key) : null;
  }

  // ---- whole-table checks ----------------------------------------------------------------------

  private void checkSize(VerifyTarget t, String phase) {
    sizeChecks++;
    long size = t.size();
    log.detail("verify " + name + ": batch " + batches + ": size " + size + ", oracle " + oracle.size());
    if (size != oracle.size()) {
      Mismatch m = diff(t.retrieveAll(), phase + " size check");
      record(m != null ? m : new Mismatch(phase + " size check", batches, 0, "size() is " + size
          + " but the oracle holds " + oracle.size() + " keys (retrieveAll agrees with the oracle)"));
    }
  }

  /** retrieveAll() must hold exactly the oracle's pairs. */
  private void compareAll(VerifyTarget t, String phase) {
    Mismatch m = diff(t.retrieveAll(), phase);
    if (m != null) {
      record(m);
    }
  }

  private void record(Mismatch m) {
    mismatches++;
    if (first == null) {
      first = m;
    }
  }

  private Mismatch diff(Pairs pairs, String phase) {
    int[] sorted = pairs.keys().clone();
    Arrays.sort(sorted);
    for (int i = 1; i < sorted.length; i++) {
      if (sorted[i] == sorted[i - 1]) {
        return new Mismatch(phase, batches, sorted[i], "retrieveAll returns the key twice");
      }
    }
    for (int i = 0; i < pairs.size(); i++) {
      Integer v = oracleGet(pairs.keys()[i]);
      if (v == null) {
        return new Mismatch(phase, batches, pairs.keys()[i], "retrieveAll returns a key the oracle does not hold"
            + " (value " + pairs.values()[i] + ")");
      }
      if (v != pairs.values()[i]) {
        return new Mismatch(phase, batches, pairs.keys()[i], "retrieveAll gives value " + pairs.values()[i]
            + ", the oracle " + v);
      }
    }
    if (pairs.size() != oracle.size()) {
      for (Int2IntMap.Entry e : oracle.int2IntEntrySet()) {
        if (Arrays.binarySearch(sorted, e.getIntKey()) < 0) {
          return new Mismatch(phase, batches, e.getIntKey(), "the key (value " + e.getIntValue()
              + ") is missing from retrieveAll");
        }
      }
    }
    return null;
  }
}
