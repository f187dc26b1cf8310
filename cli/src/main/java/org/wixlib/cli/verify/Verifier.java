package org.wixlib.cli.verify;

import it.unimi.dsi.fastutil.ints.Int2IntMap;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntIterator;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Consumer;
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
 * <p>Phase 1 (distinct): every batch has distinct keys, so each element's outcome, found value and
 * the key's state afterwards are determined; all are checked. Phase 2 (hot keys): batches hammer a
 * few keys concurrently — or, with a Zipf exponent, keys drawn Zipf-distributed over the whole key
 * range, so a handful of keys get a large share of every batch; per key some sequential order of its
 * ops must give every outcome and found value and the key's state afterwards (exact: see
 * {@link #checkHotKey}). In both phases the keys of a batch are read back before it (they must be as
 * the oracle left them), size() is compared after every batch and the whole table once the ops since
 * the last comparison reach 4x its size, so keys outside a batch are checked too. With
 * {@code resizeEvery > 0} the table is resized up and back down to its size every that many batches,
 * and compared whole after each resize.
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
  private long opsSinceCompare;

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
      betweenBatches(t, "distinct", b);
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
      betweenBatches(t, "hot-key", b);
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
    boolean[] wantPresent = new boolean[b];
    int[] wantValue = new int[b];
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
      // The key's state after the batch.
      wantPresent[i] = op == Op.INSERT_OR_ASSIGN || (op != Op.ERASE && (cur != null || op == Op.INSERT));
      wantValue[i] = op == Op.INSERT_OR_ASSIGN || (op == Op.INSERT && cur == null) ? values[i] : cur == null ? 0 : cur;
    }
    checkUntouched(t, keys, before);
    t.batch(ops, keys, values, outcomes);
    batches++;
    byte[] present = new byte[b];
    int[] after = new int[b];
    read(t, keys, present, after);
    for (int i = 0; i < b; i++) {
      boolean wrongState = wantPresent[i] != (present[i] != 0) || (wantPresent[i] && after[i] != wantValue[i]);
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
      } else if (wrongState) {
        record(new Mismatch("distinct-key", batches, keys[i], "after the batch the key should be "
            + (wantPresent[i] ? "present with value " + wantValue[i] : "absent") + ", but the table holds "
            + (present[i] != 0 ? "value " + after[i] : "nothing"))
            .line("oracle before the batch: " + (before[i] == null ? "absent" : "present, value " + before[i]))
            .op(i, ops[i], valuesIn[i], outcomes[i], values[i]));
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
    Integer[] pre = new Integer[h];
    for (int s = 0; s < h; s++) {
      pre[s] = oracleGet(hot[s]);
    }
    checkUntouched(t, hot, pre);
    t.batch(ops, keys, values, outcomes);
    batches++;
    byte[] present = new byte[h];
    int[] finalValue = new int[h];
    read(t, hot, present, finalValue);
    checkKeys(batches, hot, pre, present, finalValue, slot, b, ops, valuesIn, values, outcomes, this::record);
    for (int s = 0; s < h; s++) {
      if (present[s] != 0) {
        oracle.put(hot[s], finalValue[s]);
      } else {
        oracle.remove(hot[s]);
      }
    }
    opsChecked += b;
  }

  /** find's not-found value in {@link #read}; a key that holds it is resolved by contains. */
  private static final int PROBE = 0x9E3779B9;

  /** The state of keys: present[s], and value[s] (0 when absent); one find, contains only where needed. */
  static void read(VerifyTarget t, int[] keys, byte[] present, int[] value) {
    int[] v = t.find(keys, PROBE);
    int unsure = 0;
    for (int s = 0; s < keys.length; s++) {
      present[s] = (byte) (v[s] != PROBE ? 1 : 0);
      value[s] = v[s] != PROBE ? v[s] : 0;
      unsure += v[s] == PROBE ? 1 : 0;
    }
    if (unsure == 0) {
      return;
    }
    int[] idx = new int[unsure];
    int[] k = new int[unsure];
    for (int s = 0, n = 0; s < keys.length; s++) {
      if (v[s] == PROBE) {
        idx[n] = s;
        k[n++] = keys[s];
      }
    }
    byte[] there = new byte[unsure];
    t.contains(k, there);
    for (int n = 0; n < unsure; n++) {
      if (there[n] != 0) {
        present[idx[n]] = 1;
        value[idx[n]] = PROBE;
      }
    }
  }

  /**
   * Keys a batch is about to touch must still hold the oracle's state: no op touched them since the
   * oracle last saw them, so a difference is a key the table changed on its own (a lost, corrupted or
   * resurrected key) — caught here even when the batch would overwrite it.
   */
  private void checkUntouched(VerifyTarget t, int[] keys, Integer[] expected) {
    byte[] present = new byte[keys.length];
    int[] value = new int[keys.length];
    read(t, keys, present, value);
    for (int s = 0; s < keys.length; s++) {
      Integer e = expected[s];
      boolean bad = e == null ? present[s] != 0 : present[s] == 0 || value[s] != e;
      if (bad) {
        record(new Mismatch("between batches", batches, keys[s], "the key changed while no op touched it: the oracle"
            + " holds " + (e == null ? "nothing" : "value " + e) + ", the table "
            + (present[s] != 0 ? "value " + value[s] : "nothing")));
      }
    }
  }

  /**
   * Checks every key a concurrent batch touched: element i hit key keys[slot[i]]; pre[s] is that key's
   * state before the batch (null: absent), nowPresent/nowValue its state after. Each key's ops are
   * judged by {@link #checkHotKey}; every violating key goes to sink, in slot order.
   */
  static void checkKeys(long batch, int[] keys, Integer[] pre, byte[] nowPresent, int[] nowValue, int[] slot, int b,
      byte[] ops, int[] valuesIn, int[] valuesOut, byte[] outcomes, Consumer<Mismatch> sink) {
    int h = keys.length;
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
      Mismatch m = checkHotKey(batch, keys[s], pre[s], nowPresent[s] != 0, nowValue[s], order, start[s], start[s + 1],
          ops, valuesIn, valuesOut, outcomes);
      if (m != null) {
        sink.accept(m);
      }
    }
  }

  /**
   * Whether one key's ops of a concurrent batch fit some sequential order: started from the state
   * before the batch, the order gives every reported outcome and found value and ends in the state
   * after the batch. Exact (the rules of native/tests/suite/linearizability.hpp; ExhaustiveCheckTest
   * compares it with a search of all orders) and linear in the key's ops plus a sort.
   *
   * <p>The key's sequential history is a run of present and absent segments; only INSERTED
   * (absent to present, writes its value) and ERASED switch. PRESENT, ASSIGNED (writes its value)
   * and FOUND lie in present segments, NOT_FOUND in absent ones. With i INSERTED, e ERASED, A the
   * ASSIGNED values, p0/p1 the presence before/after and v0/v1 the values:
   * C1 i - e = p1 - p0; C2 a present reader needs p0 or {@code i >= 1}; C3 a NOT_FOUND needs !p0 or {@code e >= 1};
   * C4 a found value was written by the initial value, an INSERTED or an ASSIGNED; C5 when p1, v1 is
   * the last writer of the last present segment: v1 in A, or the segment's opener wrote v1 and every
   * ASSIGNED fits in an earlier present segment (an INSERTED of v1 and, if A is not empty, {@code p0 + i >= 2};
   * with i = 0: A empty and v1 = v0). A lost assign (an insert's late value store overwriting a
   * concurrent assign) breaks C5.
   */
  static Mismatch checkHotKey(long batch, int key, Integer pre, boolean nowPresent, int nowValue, int[] order, int from,
      int to, byte[] ops, int[] valuesIn, int[] valuesOut, byte[] outcomes) {
    String problem = violation(pre, nowPresent, nowValue, order, from, to, ops, valuesIn, valuesOut, outcomes);
    if (problem == null) {
      return null;
    }
    boolean wasPresent = pre != null;
    Mismatch m = new Mismatch("hot-key", batch, key, problem)
        .line("before the batch: " + (wasPresent ? "present, value " + pre : "absent"))
        .line("after the batch: " + (nowPresent ? "present, value " + nowValue : "absent"));
    for (int k = from; k < to; k++) {
      int i = order[k];
      m.op(i, ops[i], valuesIn[i], outcomes[i], valuesOut[i]);
    }
    return m;
  }

  /** {@link #checkHotKey}'s verdict: null when some sequential order fits, else which rule fails. */
  static String violation(Integer pre, boolean nowPresent, int nowValue, int[] order, int from, int to, byte[] ops,
      int[] valuesIn, int[] valuesOut, byte[] outcomes) {
    int inserted = 0;
    int erased = 0;
    int sawPresent = 0;
    int sawAbsent = 0;
    int assigned = 0;
    boolean v1Inserted = false;
    boolean v1Assigned = false;
    // Values written by INSERTED/ASSIGNED elements and the values finds returned, sorted below for
    // binary search (a set per key would dominate the run time of Zipf batches with ~10^5 keys each).
    int[] written = new int[to - from];
    int nw = 0;
    int[] found = new int[to - from];
    int nf = 0;
    String problem = null;
    for (int k = from; k < to; k++) {
      int i = order[k];
      byte o = outcomes[i];
      boolean ok = switch (ops[i]) {
        case Op.INSERT -> o == Outcome.INSERTED || o == Outcome.PRESENT;
        case Op.INSERT_OR_ASSIGN -> o == Outcome.INSERTED || o == Outcome.ASSIGNED;
        case Op.ERASE -> o == Outcome.ERASED || o == Outcome.NOT_FOUND;
        case Op.FIND -> o == Outcome.FOUND || o == Outcome.NOT_FOUND;
        default -> false;
      };
      if (!ok && problem == null) {
        problem = Op.name(ops[i]) + " cannot have outcome " + Outcome.name(o) + " (element " + i + ")";
      }
      switch (o) {
        case Outcome.INSERTED -> {
          inserted++;
          written[nw++] = valuesIn[i];
          v1Inserted |= valuesIn[i] == nowValue;
        }
        case Outcome.ASSIGNED -> {
          sawPresent++;
          assigned++;
          written[nw++] = valuesIn[i];
          v1Assigned |= valuesIn[i] == nowValue;
        }
        case Outcome.ERASED -> erased++;
        case Outcome.PRESENT -> sawPresent++;
        case Outcome.FOUND -> {
          sawPresent++;
          found[nf++] = valuesOut[i];
        }
        case Outcome.NOT_FOUND -> {
          sawAbsent++;
          if (ops[i] == Op.FIND && valuesOut[i] != valuesIn[i] && problem == null) {
            problem = "a find that missed changed its value to " + valuesOut[i] + " (element " + i + ")";
          }
        }
        default -> { }
      }
    }
    boolean wasPresent = pre != null;
    int p0 = wasPresent ? 1 : 0;
    int p1 = nowPresent ? 1 : 0;
    if (problem == null && inserted - erased != p1 - p0) { // C1
      problem = inserted + " INSERTED and " + erased + " ERASED cannot alternate from "
          + (wasPresent ? "present" : "absent") + " to " + (nowPresent ? "present" : "absent")
          + " (a lost or duplicate insert/erase)";
    }
    if (problem == null && sawPresent > 0 && !wasPresent && inserted == 0) { // C2
      problem = "the key was absent throughout the batch, yet " + sawPresent + " op(s) saw it present";
    }
    if (problem == null && sawAbsent > 0 && wasPresent && erased == 0) { // C3
      problem = "the key was present throughout the batch, yet " + sawAbsent + " op(s) saw it absent";
    }
    if (problem == null && nf > 0) { // C4
      Arrays.sort(written, 0, nw);
      for (int k = 0; k < nf && problem == null; k++) {
        int w = found[k];
        if (Arrays.binarySearch(written, 0, nw, w) < 0 && !(wasPresent && pre == w)) {
          problem = "find returned value " + w + ", which no insert of this key wrote"
              + (wasPresent ? " (value before: " + pre + ")" : "");
        }
      }
    }
    if (problem == null && nowPresent && !v1Assigned) { // C5
      if (inserted > 0) {
        if (!v1Inserted) {
          problem = "final value " + nowValue + " was not written by any INSERTED or ASSIGNED element of this key";
        } else if (assigned > 0 && p0 + inserted < 2) {
          problem = "final value " + nowValue + " comes from the only INSERTED, but the key's " + assigned
              + " ASSIGNED element(s) must come after it (a lost assign)";
        }
      } else if (assigned > 0) {
        problem = "final value " + nowValue + " is not the value of an ASSIGNED element (a lost assign)";
      } else if (pre != nowValue) {
        problem = "the value changed from " + pre + " to " + nowValue + " with no INSERTED or ASSIGNED element";
      }
    }
    return problem;
  }

  /** The oracle's value of key, or null when absent. */
  private Integer oracleGet(int key) {
    return oracle.containsKey(key) ? oracle.get(key) : null;
  }

  // ---- whole-table checks ----------------------------------------------------------------------

  /**
   * After every batch: size() must equal the oracle's, and once the ops since the last whole-table
   * comparison reach 4x the oracle's size (so it costs at most 1/4 lookup per op) retrieveAll() is
   * compared with the oracle. With {@link #checkUntouched} (a key is read back before every batch that
   * touches it) and the final comparison every change to a key outside a batch is caught: a dropped or
   * foreign key at once (size), a changed value at its next touch or the next comparison.
   */
  private void betweenBatches(VerifyTarget t, String phase, int b) {
    if (first != null) {
      return;
    }
    checkSize(t, phase);
    opsSinceCompare += b;
    if (first == null && opsSinceCompare >= 4L * oracle.size()) {
      compareAll(t, phase + " whole-table check at batch " + batches);
    }
  }

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
    opsSinceCompare = 0;
    Pairs pairs = t.retrieveAll();
    if (matchesOracle(pairs)) {
      return;
    }
    Mismatch m = diff(pairs, phase);
    if (m == null) {
      m = new Mismatch(phase, batches, 0, "retrieveAll differs from the oracle");
    }
    record(m);
  }

  private void record(Mismatch m) {
    mismatches++;
    if (first == null) {
      first = m;
    }
  }

  /**
   * Fast exact-enough test (no sort) that pairs equal the oracle: same count, every pair's key held by
   * the oracle with that value, and the sums of a bijective 64-bit mix of the keys agree (a duplicate
   * key plus a missing one would change the sum). On any difference {@link #diff} names the key.
   */
  private boolean matchesOracle(Pairs pairs) {
    int n = pairs.size();
    if (n != oracle.size()) {
      return false;
    }
    int[] k = pairs.keys();
    int[] v = pairs.values();
    long sum = 0;
    for (int i = 0; i < n; i++) {
      if (!oracle.containsKey(k[i]) || oracle.get(k[i]) != v[i]) {
        return false;
      }
      sum += mix64(k[i]);
    }
    long want = 0;
    for (IntIterator it = oracle.keySet().iterator(); it.hasNext(); ) {
      want += mix64(it.nextInt());
    }
    return sum == want;
  }

  /** A bijection of the 64-bit words (splitmix64's finalizer). */
  private static long mix64(int key) {
    long z = (key & 0xFFFFFFFFL) * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
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
