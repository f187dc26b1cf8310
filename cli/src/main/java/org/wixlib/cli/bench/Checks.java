package org.wixlib.cli.bench;

import org.wixlib.Op;
import org.wixlib.Outcome;
import org.wixlib.cli.CheckFailedException;

/** Result checks of the benchmarks (never timed): a wrong result fails the run with exit code 1. */
final class Checks {
  private Checks() {}

  static void size(String name, long size, long expected, String op) {
    if (size != expected) {
      throw new CheckFailedException(name + " " + op + ": table size is " + size + ", expected " + expected);
    }
  }

  static void values(String name, int[] keys, int[] got, int[] expected, String op) {
    for (int i = 0; i < keys.length; i++) {
      if (got[i] != expected[i]) {
        throw new CheckFailedException(name + " " + op + ": key " + keys[i] + " gave value " + got[i]
            + ", expected " + expected[i]);
      }
    }
  }

  /** 64-bit keys: got[i] must be expected[i], or the sign-extended NOT_FOUND for every key when expected is null. */
  static void values(String name, long[] keys, long[] got, long[] expected, String op) {
    for (int i = 0; i < keys.length; i++) {
      long want = expected == null ? BenchData.NOT_FOUND : expected[i];
      if (got[i] != want) {
        throw new CheckFailedException(name + " " + op + ": key " + Long.toUnsignedString(keys[i])
            + " gave value " + got[i] + ", expected " + want);
      }
    }
  }

  static void absent(String name, int[] keys, int[] got, String op) {
    for (int i = 0; i < keys.length; i++) {
      if (got[i] != BenchData.NOT_FOUND) {
        throw new CheckFailedException(name + " " + op + ": absent key " + keys[i] + " gave value " + got[i]);
      }
    }
  }

  /** Every outcome must be {@code expected} (e.g. INSERTED for an insert of distinct new keys). */
  static void allOutcomes(String name, byte[] outcomes, byte expected, String op) {
    for (int i = 0; i < outcomes.length; i++) {
      if (outcomes[i] != expected) {
        throw new CheckFailedException(name + " " + op + ": element " + i + " has outcome " + Outcome.name(outcomes[i])
            + ", expected " + Outcome.name(expected));
      }
    }
  }

  /** Each element's outcome must be one its op can produce (no NONE, FULL or INVALID_KEY). */
  static void outcomes(String name, byte[] ops, int[] keys, byte[] outcomes, String op) {
    for (int i = 0; i < ops.length; i++) {
      byte o = outcomes[i];
      boolean ok = switch (ops[i]) {
        case Op.INSERT -> o == Outcome.INSERTED || o == Outcome.PRESENT;
        case Op.ERASE -> o == Outcome.ERASED || o == Outcome.NOT_FOUND;
        case Op.FIND -> o == Outcome.FOUND || o == Outcome.NOT_FOUND;
        default -> false;
      };
      if (!ok) {
        throw new CheckFailedException(name + " " + op + ": element " + i + " (" + Op.name(ops[i]) + " key "
            + keys[i] + ") has outcome " + Outcome.name(o));
      }
    }
  }
}
