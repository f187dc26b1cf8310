package org.wixlib.cli.verify;

import java.util.Arrays;
import org.wixlib.Op;
import org.wixlib.Outcome;

/**
 * The check of keys hit several times by one concurrent batch: per key some sequential order of its
 * ops must give every outcome and found value and the key's state afterwards (exact: see
 * {@link #violation}).
 */
final class PerKeyCheck {
  private PerKeyCheck() {}

  /**
   * A batch's elements: element i ran ops[i] with valuesIn[i] and reported outcomes[i], valuesOut[i];
   * it is element position[i] of the batch (position null: element i).
   */
  record Elements(byte[] ops, long[] valuesIn, long[] valuesOut, byte[] outcomes, int[] position) {
    Elements(byte[] ops, long[] valuesIn, long[] valuesOut, byte[] outcomes) {
      this(ops, valuesIn, valuesOut, outcomes, null);
    }

    /** The element's number in the batch. */
    int at(int i) {
      return position == null ? i : position[i];
    }
  }

  /** Where a violating key goes: its slot (index into the keys checked) and what is wrong. */
  @FunctionalInterface
  interface Sink {
    void accept(int slot, Mismatch m);
  }

  /** Work arrays of one thread, grown as needed and reused across keys and batches. */
  static final class Scratch {
    int[] start = new int[0];
    int[] order = new int[0];
    long[] written = new long[0];

    int[] start(int n) {
      if (start.length < n) {
        start = new int[Math.max(n, 2 * start.length)];
      }
      Arrays.fill(start, 0, n, 0);
      return start;
    }

    int[] order(int n) {
      if (order.length < n) {
        order = new int[Math.max(n, 2 * order.length)];
      }
      return order;
    }

    long[] written(int n) {
      if (written.length < n) {
        written = new long[Math.max(n, 2 * written.length)];
      }
      return written;
    }
  }

  /**
   * Checks every key a concurrent batch touched: element elems[j] ({@code j < n}; elems null: element j) hit
   * key keys[slot[j]];
   * prePresent/preValue[s] is key s's state before the batch, nowPresent/nowValue[s] after (values
   * meaningful where present). Each key's ops are judged by {@link #checkKey}; every violating key
   * goes to sink, in slot order.
   */
  static void checkKeys(long batch, int keyBits, long[] keys, int h, byte[] prePresent, long[] preValue,
      byte[] nowPresent, long[] nowValue, int[] elems, int[] slot, int n, Elements e, Scratch scratch, Sink sink) {
    // Elements of each key (counting sort by slot), in the order given.
    int[] start = scratch.start(h + 1);
    for (int j = 0; j < n; j++) {
      start[slot[j] + 1]++;
    }
    for (int s = 0; s < h; s++) {
      start[s + 1] += start[s];
    }
    int[] order = scratch.order(n);
    for (int j = 0; j < n; j++) {
      order[start[slot[j]]++] = elems == null ? j : elems[j];
    }
    // start[s] is now the end of key s's run, i.e. the start of s + 1.
    for (int s = 0, from = 0; s < h; s++) {
      int to = start[s];
      Mismatch m = checkKey(batch, keys[s], keyBits, prePresent[s] != 0, preValue[s], nowPresent[s] != 0,
          nowValue[s], order, from, to, e, scratch);
      if (m != null) {
        sink.accept(s, m);
      }
      from = to;
    }
  }

  /**
   * {@link #violation} as a mismatch naming the key, its states and its ops (in batch order), or null
   * when some sequential order fits.
   */
  static Mismatch checkKey(long batch, long key, int keyBits, boolean wasPresent, long preValue, boolean nowPresent,
      long nowValue, int[] order, int from, int to, Elements e, Scratch scratch) {
    String problem = violation(wasPresent, preValue, nowPresent, nowValue, order, from, to, e, scratch);
    if (problem == null) {
      return null;
    }
    Mismatch m = new Mismatch("hot-key", batch, key, keyBits, problem)
        .line("before the batch: " + (wasPresent ? "present, value " + preValue : "absent"))
        .line("after the batch: " + (nowPresent ? "present, value " + nowValue : "absent"));
    Integer[] mine = new Integer[to - from];
    for (int k = from; k < to; k++) {
      mine[k - from] = order[k];
    }
    Arrays.sort(mine, (x, y) -> Integer.compare(e.at(x), e.at(y)));
    for (int i : mine) {
      m.op(e.at(i), e.ops()[i], e.valuesIn()[i], e.outcomes()[i], e.valuesOut()[i]);
    }
    return m;
  }

  /**
   * Whether one key's ops of a concurrent batch (elements order[from..to)) fit some sequential order:
   * started from the state before the batch, the order gives every reported outcome and found value
   * and ends in the state after the batch. Null when one fits, else which rule fails. Exact (the rules
   * of native/tests/suite/linearizability.hpp; ExhaustiveCheckTest compares it with a search of all
   * orders) and linear in the key's ops plus a sort.
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
  static String violation(boolean wasPresent, long pre, boolean nowPresent, long nowValue, int[] order, int from,
      int to, Elements e, Scratch scratch) {
    byte[] ops = e.ops();
    long[] valuesIn = e.valuesIn();
    long[] valuesOut = e.valuesOut();
    byte[] outcomes = e.outcomes();
    int inserted = 0;
    int erased = 0;
    int sawPresent = 0;
    int sawAbsent = 0;
    int assigned = 0;
    int finds = 0;
    boolean v1Inserted = false;
    boolean v1Assigned = false;
    // Values written by INSERTED/ASSIGNED elements, sorted below for binary search when there are
    // many (a set per key would dominate the run time of Zipf batches with ~10^5 keys each).
    long[] written = scratch.written(to - from);
    int nw = 0;
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
        problem = Op.name(ops[i]) + " cannot have outcome " + Outcome.name(o) + " (element " + e.at(i) + ")";
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
          finds++;
        }
        case Outcome.NOT_FOUND -> {
          sawAbsent++;
          if (ops[i] == Op.FIND && valuesOut[i] != valuesIn[i] && problem == null) {
            problem = "a find that missed changed its value to " + valuesOut[i] + " (element " + e.at(i) + ")";
          }
        }
        default -> { }
      }
    }
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
    if (problem == null && finds > 0) { // C4
      boolean sorted = nw > SCAN;
      if (sorted) {
        Arrays.sort(written, 0, nw);
      }
      for (int k = from; k < to && problem == null; k++) {
        int i = order[k];
        long w = valuesOut[i];
        if (outcomes[i] == Outcome.FOUND && !(wasPresent && pre == w) && !contains(written, nw, w, sorted)) {
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

  /** Written values up to which a plain scan beats sorting (most keys of a Zipf batch have a few ops). */
  private static final int SCAN = 16;

  private static boolean contains(long[] a, int n, long x, boolean sorted) {
    if (sorted) {
      return Arrays.binarySearch(a, 0, n, x) >= 0;
    }
    for (int k = 0; k < n; k++) {
      if (a[k] == x) {
        return true;
      }
    }
    return false;
  }
}
