package org.wixlib.cli.verify;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.wixlib.Op;
import org.wixlib.Outcome;

/** The per-key order check of verify's hot-key phase accepts every sequential story and nothing else. */
class HotKeyCheckTest {
  private static final int KEY = 77;

  /** One key's batch: ops, values in, outcomes, values out (find results). */
  private static Mismatch check(Integer pre, boolean nowPresent, int nowValue, byte[] ops, int[] in, byte[] out,
      int[] valuesOut) {
    int[] order = new int[ops.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    PerKeyCheck.Elements e = new PerKeyCheck.Elements(ops, longs(in), longs(valuesOut), out);
    return PerKeyCheck.checkKey(1, KEY, 32, pre != null, pre == null ? 0 : pre, nowPresent, nowValue, order, 0,
        ops.length, e, new PerKeyCheck.Scratch());
  }

  private static long[] longs(int[] a) {
    return java.util.Arrays.stream(a).asLongStream().toArray();
  }

  private static byte[] ops(byte... b) {
    return b;
  }

  @Test
  void acceptsASequentialStory() {
    // absent; insert 10 (INSERTED); find (FOUND 10); erase (ERASED); insert 20 (INSERTED); insert 30 (PRESENT)
    byte[] ops = ops(Op.INSERT, Op.FIND, Op.ERASE, Op.INSERT, Op.INSERT);
    int[] in = {10, 99, 0, 20, 30};
    byte[] out = {Outcome.INSERTED, Outcome.FOUND, Outcome.ERASED, Outcome.INSERTED, Outcome.PRESENT};
    int[] vOut = {10, 10, 0, 20, 30};
    assertNull(check(null, true, 20, ops, in, out, vOut));
  }

  @Test
  void acceptsPresentBeforeAndErasedAtTheEnd() {
    byte[] ops = ops(Op.FIND, Op.ERASE, Op.ERASE, Op.FIND);
    int[] in = {1, 2, 3, 4};
    byte[] out = {Outcome.FOUND, Outcome.ERASED, Outcome.NOT_FOUND, Outcome.NOT_FOUND};
    int[] vOut = {5, 2, 3, 4};
    assertNull(check(5, false, 0, ops, in, out, vOut));
  }

  @Test
  void acceptsAnUntouchedKey() {
    assertNull(check(5, true, 5, ops(), new int[0], new byte[0], new int[0]));
    assertNull(check(null, false, 0, ops(), new int[0], new byte[0], new int[0]));
  }

  @Test
  void rejectsTwoInsertsOfAnAbsentKey() {
    byte[] ops = ops(Op.INSERT, Op.INSERT);
    Mismatch m = check(null, true, 1, ops, new int[] {1, 2}, new byte[] {Outcome.INSERTED, Outcome.INSERTED},
        new int[] {1, 2});
    assertNotNull(m);
    assertTrue(m.problem().contains("alternate"), m.problem());
  }

  @Test
  void rejectsAWrongFinalPresence() {
    byte[] ops = ops(Op.INSERT);
    assertNotNull(check(null, false, 0, ops, new int[] {1}, new byte[] {Outcome.INSERTED}, new int[] {1}));
    assertNotNull(check(4, false, 0, ops(), new int[0], new byte[0], new int[0]));
  }

  @Test
  void rejectsAFoundValueNobodyWrote() {
    byte[] ops = ops(Op.INSERT, Op.FIND);
    Mismatch m = check(null, true, 1, ops, new int[] {1, 50}, new byte[] {Outcome.INSERTED, Outcome.FOUND},
        new int[] {1, 7});
    assertNotNull(m);
    assertTrue(m.problem().contains("no insert"), m.problem());
    // A PRESENT insert writes nothing, so its value cannot be found either.
    assertNotNull(check(3, true, 3, ops(Op.INSERT, Op.FIND), new int[] {8, 0},
        new byte[] {Outcome.PRESENT, Outcome.FOUND}, new int[] {8, 8}));
  }

  @Test
  void rejectsSeeingAnAlwaysAbsentKeyPresent() {
    assertNotNull(check(null, false, 0, ops(Op.FIND), new int[] {0}, new byte[] {Outcome.FOUND}, new int[] {0}));
    assertNotNull(check(null, false, 0, ops(Op.INSERT_OR_ASSIGN), new int[] {4}, new byte[] {Outcome.ASSIGNED},
        new int[] {4}));
  }

  @Test
  void rejectsMissingAnAlwaysPresentKey() {
    assertNotNull(check(9, true, 9, ops(Op.FIND), new int[] {0}, new byte[] {Outcome.NOT_FOUND}, new int[] {0}));
  }

  @Test
  void rejectsOutcomesAnOpCannotHave() {
    assertNotNull(check(null, true, 1, ops(Op.INSERT), new int[] {1}, new byte[] {Outcome.ASSIGNED},
        new int[] {1}));
    assertNotNull(check(null, false, 0, ops(Op.ERASE), new int[] {1}, new byte[] {Outcome.NONE},
        new int[] {1}));
  }

  @Test
  void rejectsAFinalValueFromBeforeAfterAnAssign() {
    byte[] ops = ops(Op.INSERT_OR_ASSIGN);
    assertNotNull(check(5, true, 5, ops, new int[] {6}, new byte[] {Outcome.ASSIGNED}, new int[] {6}));
    assertNull(check(5, true, 6, ops, new int[] {6}, new byte[] {Outcome.ASSIGNED}, new int[] {6}));
  }

  @Test
  void rejectsAMissedFindThatChangedItsValue() {
    assertNotNull(check(null, false, 0, ops(Op.FIND), new int[] {3}, new byte[] {Outcome.NOT_FOUND},
        new int[] {4}));
  }

  @Test
  void rejectsALostAssign() {
    // Absent before; the assign must follow the insert that created the key, so only its value can stay.
    byte[] ioa2 = ops(Op.INSERT_OR_ASSIGN, Op.INSERT_OR_ASSIGN);
    byte[] insIoa = ops(Op.INSERT, Op.INSERT_OR_ASSIGN);
    byte[] out = {Outcome.INSERTED, Outcome.ASSIGNED};
    int[] in = {1, 2};
    Mismatch m = check(null, true, 1, ioa2, in, out, in);
    assertNotNull(m);
    assertTrue(m.problem().contains("lost assign"), m.problem());
    assertNotNull(check(null, true, 1, insIoa, in, out, in));
    assertNotNull(check(null, true, 2, ops(Op.INSERT_OR_ASSIGN, Op.INSERT), in,
        new byte[] {Outcome.ASSIGNED, Outcome.INSERTED}, in));
    assertNull(check(null, true, 2, ioa2, in, out, in));
    // With an erase in between the assign can belong to the first present stretch.
    byte[] withErase = ops(Op.INSERT, Op.INSERT_OR_ASSIGN, Op.ERASE, Op.INSERT);
    assertNull(check(null, true, 3, withErase, new int[] {1, 2, 0, 3},
        new byte[] {Outcome.INSERTED, Outcome.ASSIGNED, Outcome.ERASED, Outcome.INSERTED}, new int[] {1, 2, 0, 3}));
    // Present before and no insert: an assign's value must stay.
    assertNotNull(check(5, true, 5, ops(Op.INSERT_OR_ASSIGN, Op.FIND), new int[] {6, 0},
        new byte[] {Outcome.ASSIGNED, Outcome.FOUND}, new int[] {6, 6}));
  }
}
