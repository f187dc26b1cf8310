package org.wixlib.cli.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.wixlib.Op;
import org.wixlib.Outcome;

/**
 * verify's per-key check ({@link PerKeyCheck#checkKeys}, its verdict {@link PerKeyCheck#violation})
 * against the definition: a concurrent batch is valid when SOME sequential order of its ops, started from the state before, reports every outcome and
 * found value and ends in the state after. The definition is written plainly here as a search of all
 * orders, and the two must agree on every history of up to {@link #MAX_OPS} ops on one key, and on
 * random batches over a few keys.
 */
class ExhaustiveCheckTest {
  /** Longest histories enumerated (all multisets of ELEMENTS of this size; a batch has no order). */
  private static final int MAX_OPS = 6;
  /** Values the ops write; FOUND values and before/after values also take 3, which no op writes. */
  private static final int[] WRITTEN = {1, 2};
  private static final int[] SEEN = {1, 2, 3};

  /** One element of a batch as verify records it: op, value passed in, outcome, value slot afterwards. */
  private record El(byte op, int in, byte out, int valueOut) {}

  /** Every element one op can report: insert/insert_or_assign of each value, erase, find of each value. */
  private static final El[] ELEMENTS = elements();

  private static El[] elements() {
    List<El> e = new ArrayList<>();
    for (int v : WRITTEN) {
      e.add(new El(Op.INSERT, v, Outcome.INSERTED, v));
      e.add(new El(Op.INSERT, v, Outcome.PRESENT, v));
      e.add(new El(Op.INSERT_OR_ASSIGN, v, Outcome.INSERTED, v));
      e.add(new El(Op.INSERT_OR_ASSIGN, v, Outcome.ASSIGNED, v));
    }
    e.add(new El(Op.ERASE, 0, Outcome.ERASED, 0));
    e.add(new El(Op.ERASE, 0, Outcome.NOT_FOUND, 0));
    for (int w : SEEN) {
      e.add(new El(Op.FIND, 0, Outcome.FOUND, w));
    }
    e.add(new El(Op.FIND, 0, Outcome.NOT_FOUND, 0));
    return e.toArray(new El[0]);
  }

  /**
   * Runs el sequentially on a key in state (present, value): the element's outcome/value if they match
   * what the op does there, as the new state {present, value}; null when the op would report otherwise.
   */
  private static int[] step(El el, boolean present, int value) {
    switch (el.op()) {
      case Op.INSERT:
        if (!present) {
          return el.out() == Outcome.INSERTED ? new int[] {1, el.in()} : null;
        }
        return el.out() == Outcome.PRESENT ? new int[] {1, value} : null;
      case Op.INSERT_OR_ASSIGN:
        return el.out() == (present ? Outcome.ASSIGNED : Outcome.INSERTED) ? new int[] {1, el.in()} : null;
      case Op.ERASE:
        return el.out() == (present ? Outcome.ERASED : Outcome.NOT_FOUND) ? new int[] {0, 0} : null;
      default:
        if (present) {
          return el.out() == Outcome.FOUND && el.valueOut() == value ? new int[] {1, value} : null;
        }
        return el.out() == Outcome.NOT_FOUND && el.valueOut() == el.in() ? new int[] {0, 0} : null;
    }
  }

  /**
   * Brute force: the states a key can end in when the remaining elements (count[k] copies of
   * ELEMENTS[k]) run in some order from (present, value), as a bit set over state codes (0 absent,
   * v: present with value v). Tries every order; memo only remembers the answer for a (remaining
   * elements, state) pair already searched, which many histories share.
   */
  private static int endStates(int[] count, int left, boolean present, int value, Map<Long, Integer> memo) {
    int code = present ? value : 0;
    if (left == 0) {
      return 1 << code;
    }
    long id = code;
    for (int c : count) {
      id = id * 8 + c;
    }
    Integer known = memo.get(id);
    if (known != null) {
      return known;
    }
    int ends = 0;
    for (int k = 0; k < ELEMENTS.length; k++) {
      if (count[k] == 0) {
        continue;
      }
      int[] next = step(ELEMENTS[k], present, value);
      if (next == null) {
        continue;
      }
      count[k]--;
      ends |= endStates(count, left - 1, next[0] == 1, next[1], memo);
      count[k]++;
    }
    memo.put(id, ends);
    return ends;
  }

  /**
   * How the small values of the histories reach the checker at a key width: as they are at 32 bits; at
   * 64 bits in the high half, over one low half shared by all, so a checker that compared only the low
   * 32 bits of values would take every value for every other and accept invalid histories.
   */
  private static long value(int bits, int v) {
    return bits == 32 ? v : ((long) v << 32) | 0x5A5A5A5AL;
  }

  /** The checker's verdict on the elements (count[k] copies of ELEMENTS[k]). */
  private static boolean checkerAccepts(int bits, int[] count, int n, Integer pre, boolean nowPresent, int nowValue,
      PerKeyCheck.Scratch scratch) {
    byte[] ops = new byte[n];
    long[] in = new long[n];
    byte[] out = new byte[n];
    long[] valuesOut = new long[n];
    int[] order = new int[n];
    int i = 0;
    // Interleave the kinds (last kind first) so the checker never sees them grouped in element order.
    for (int k = ELEMENTS.length - 1; k >= 0; k--) {
      for (int c = 0; c < count[k]; c++) {
        El e = ELEMENTS[k];
        ops[i] = e.op();
        in[i] = value(bits, e.in());
        out[i] = e.out();
        valuesOut[i] = value(bits, e.valueOut());
        order[i] = n - 1 - i;
        i++;
      }
    }
    PerKeyCheck.Elements els = new PerKeyCheck.Elements(ops, in, valuesOut, out);
    return PerKeyCheck.violation(pre != null, pre == null ? 0 : value(bits, pre), nowPresent, value(bits, nowValue),
        order, 0, n, els, scratch) == null;
  }

  @ParameterizedTest(name = "{0}-bit values")
  @ValueSource(ints = {32, 64})
  void agreesWithASearchOfAllOrdersOnEveryHistoryOfOneKey(int bits) {
    List<Integer> states = new ArrayList<>(); // 0: absent, v > 0: present with value v
    states.add(0);
    for (int v : SEEN) {
      states.add(v);
    }
    long compared = 0;
    long valid = 0;
    long disagree = 0;
    long acceptedInvalid = 0;
    List<String> examples = new ArrayList<>();
    Map<Long, Integer> memo = new HashMap<>();
    PerKeyCheck.Scratch scratch = new PerKeyCheck.Scratch();
    long start = System.nanoTime();
    for (int n = 1; n <= MAX_OPS; n++) {
      int[] pick = new int[n]; // non-decreasing indices into ELEMENTS: one multiset
      while (true) {
        int[] count = new int[ELEMENTS.length];
        for (int k : pick) {
          count[k]++;
        }
        for (int before : states) {
          int ends = endStates(count, n, before != 0, before, memo);
          for (int after : states) {
            Integer pre = before == 0 ? null : before;
            boolean truth = (ends >> after & 1) != 0;
            boolean verdict = checkerAccepts(bits, count, n, pre, after != 0, after, scratch);
            compared++;
            valid += truth ? 1 : 0;
            if (truth != verdict) {
              disagree++;
              acceptedInvalid += verdict ? 1 : 0;
              if (examples.size() < 10) {
                examples.add((truth ? "rejects valid" : "accepts invalid") + ": before " + describe(before)
                    + ", after " + describe(after) + ", ops " + describe(count));
              }
            }
          }
        }
        int j = n - 1;
        while (j >= 0 && pick[j] == ELEMENTS.length - 1) {
          j--;
        }
        if (j < 0) {
          break;
        }
        pick[j]++;
        for (int k = j + 1; k < n; k++) {
          pick[k] = pick[j];
        }
      }
    }
    System.out.printf("ExhaustiveCheckTest (%d-bit values): %,d one-key histories of 1..%d ops compared (%,d valid),"
        + " %,d wrong verdicts (%,d invalid ones accepted), %.1f s%n", bits, compared, MAX_OPS, valid, disagree,
        acceptedInvalid,
        (System.nanoTime() - start) / 1e9);
    examples.forEach(e -> System.out.println("  " + e));
    assertEquals(0, disagree, disagree + " wrong verdicts of " + compared + ", e.g.\n" + String.join("\n", examples));
    assertTrue(compared > 500_000, "enumerated " + compared);
  }

  private static String describe(int state) {
    return state == 0 ? "absent" : "present " + state;
  }

  private static String describe(int[] count) {
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < ELEMENTS.length; k++) {
      for (int c = 0; c < count[k]; c++) {
        El e = ELEMENTS[k];
        sb.append(sb.isEmpty() ? "" : ", ").append(Op.name(e.op()));
        if (e.op() == Op.INSERT || e.op() == Op.INSERT_OR_ASSIGN) {
          sb.append('(').append(e.in()).append(')');
        }
        sb.append(" -> ").append(Outcome.name(e.out()));
        if (e.out() == Outcome.FOUND) {
          sb.append(' ').append(e.valueOut());
        }
      }
    }
    return sb.toString();
  }

  // ---- random batches over several keys --------------------------------------------------------

  private static final int[] KEYS = {10, 20, 30}; // KEYS[j] = 10 * (j + 1)

  /**
   * Brute force over the whole batch: some order of all its elements (any keys interleaved) fits.
   * state[j]: key KEYS[j], 0 absent or its value; els[i] hits KEYS[key[i]]. failed remembers (elements
   * used, states) already searched without success.
   */
  private static boolean someOrder(int[] key, El[] els, int used, int[] state, int[] end, boolean[] failed) {
    if (used == (1 << els.length) - 1) {
      return Arrays.equals(state, end);
    }
    int here = used * 64 + state[0] * 16 + state[1] * 4 + state[2];
    if (failed[here]) {
      return false;
    }
    for (int i = 0; i < els.length; i++) {
      if ((used & 1 << i) != 0) {
        continue;
      }
      int cur = state[key[i]];
      int[] next = step(els[i], cur != 0, cur);
      if (next == null) {
        continue;
      }
      state[key[i]] = next[0] == 1 ? next[1] : 0;
      boolean ok = someOrder(key, els, used | 1 << i, state, end, failed);
      state[key[i]] = cur;
      if (ok) {
        return true;
      }
    }
    failed[here] = true;
    return false;
  }

  @ParameterizedTest(name = "{0}-bit values")
  @ValueSource(ints = {32, 64})
  void agreesWithASearchOfAllOrdersOnRandomBatchesOverSeveralKeys(int bits) {
    SplittableRandom rnd = new SplittableRandom(42);
    int batches = 50_000;
    int valid = 0;
    int disagree = 0;
    String example = null;
    for (int t = 0; t < batches; t++) {
      int n = 1 + rnd.nextInt(8);
      Map<Integer, Integer> before = new HashMap<>();
      for (int key : KEYS) {
        if (rnd.nextBoolean()) {
          before.put(key, 1 + rnd.nextInt(3));
        }
      }
      // A sequential run makes a valid batch; then, half the time, one thing about it is changed.
      Map<Integer, Integer> state = new HashMap<>(before);
      int[] keys = new int[n];
      El[] els = new El[n];
      for (int i = 0; i < n; i++) {
        keys[i] = KEYS[rnd.nextInt(KEYS.length)];
        Integer cur = state.get(keys[i]);
        El e = null;
        while (e == null) {
          El cand = ELEMENTS[rnd.nextInt(ELEMENTS.length)];
          if (step(cand, cur != null, cur == null ? 0 : cur) != null) {
            e = cand;
          }
        }
        int[] next = step(e, cur != null, cur == null ? 0 : cur);
        if (next[0] == 1) {
          state.put(keys[i], next[1]);
        } else {
          state.remove(keys[i]);
        }
        els[i] = e;
      }
      Map<Integer, Integer> after = state;
      if (rnd.nextBoolean()) {
        int what = rnd.nextInt(3);
        if (what == 0) {
          els[rnd.nextInt(n)] = ELEMENTS[rnd.nextInt(ELEMENTS.length)];
        } else {
          Map<Integer, Integer> m = what == 1 ? after : before;
          int key = KEYS[rnd.nextInt(KEYS.length)];
          int v = rnd.nextInt(4);
          if (v == 0) {
            m.remove(key);
          } else {
            m.put(key, v);
          }
        }
      }
      // Shuffle: the checker must not depend on the batch order.
      for (int i = n - 1; i > 0; i--) {
        int j = rnd.nextInt(i + 1);
        int tk = keys[i];
        keys[i] = keys[j];
        keys[j] = tk;
        El te = els[i];
        els[i] = els[j];
        els[j] = te;
      }
      int[] keyIndex = new int[n];
      for (int i = 0; i < n; i++) {
        keyIndex[i] = keys[i] / 10 - 1;
      }
      int[] from = new int[KEYS.length];
      int[] to = new int[KEYS.length];
      for (int j = 0; j < KEYS.length; j++) {
        from[j] = before.getOrDefault(KEYS[j], 0);
        to[j] = after.getOrDefault(KEYS[j], 0);
      }
      boolean truth = someOrder(keyIndex, els, 0, from, to, new boolean[(1 << n) * 64]);
      // The checker's input: the batch's distinct keys (slots), their states before and after.
      int[] slot = new int[n];
      int[] touched = Arrays.stream(keys).distinct().toArray();
      for (int i = 0; i < n; i++) {
        for (int s = 0; s < touched.length; s++) {
          if (touched[s] == keys[i]) {
            slot[i] = s;
          }
        }
      }
      byte[] prePresent = new byte[touched.length];
      long[] preValue = new long[touched.length];
      byte[] nowPresent = new byte[touched.length];
      long[] nowValue = new long[touched.length];
      long[] touchedKeys = new long[touched.length];
      for (int s = 0; s < touched.length; s++) {
        touchedKeys[s] = touched[s];
        prePresent[s] = (byte) (before.containsKey(touched[s]) ? 1 : 0);
        preValue[s] = value(bits, before.getOrDefault(touched[s], 0));
        nowPresent[s] = (byte) (after.containsKey(touched[s]) ? 1 : 0);
        nowValue[s] = value(bits, after.getOrDefault(touched[s], 0));
      }
      // Keys the batch does not touch are checked elsewhere (unchanged): the search must agree there.
      boolean untouchedSame = true;
      for (int key : KEYS) {
        if (Arrays.stream(touched).noneMatch(x -> x == key)) {
          untouchedSame &= java.util.Objects.equals(before.get(key), after.get(key));
        }
      }
      byte[] ops = new byte[n];
      long[] in = new long[n];
      long[] valuesOut = new long[n];
      byte[] out = new byte[n];
      int[] elems = new int[n];
      for (int i = 0; i < n; i++) {
        ops[i] = els[i].op();
        in[i] = value(bits, els[i].in());
        valuesOut[i] = value(bits, els[i].valueOut());
        out[i] = els[i].out();
        elems[i] = i;
      }
      List<Mismatch> found = new ArrayList<>();
      PerKeyCheck.checkKeys(1, bits, touchedKeys, touched.length, prePresent, preValue, nowPresent, nowValue, elems,
          slot, n, new PerKeyCheck.Elements(ops, in, valuesOut, out), new PerKeyCheck.Scratch(),
          (s, m) -> found.add(m));
      boolean verdict = found.isEmpty() && untouchedSame;
      valid += truth ? 1 : 0;
      if (truth != verdict) {
        disagree++;
        if (example == null) {
          example = (truth ? "rejects valid" : "accepts invalid") + ": before " + before + ", after " + after
              + ", keys " + Arrays.toString(keys) + ", ops " + Arrays.toString(els);
        }
      }
    }
    System.out.printf("ExhaustiveCheckTest (%d-bit values): %,d random batches over %d keys compared (%,d valid),"
        + " %,d wrong verdicts%n", bits, batches, KEYS.length, valid, disagree);
    assertEquals(0, disagree, example);
    assertTrue(valid > batches / 4 && valid < batches * 3 / 4, "a mix of valid and invalid batches: " + valid);
  }
}
