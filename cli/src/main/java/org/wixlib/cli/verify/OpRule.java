package org.wixlib.cli.verify;

import org.wixlib.Op;
import org.wixlib.Outcome;

/**
 * What one op does to one key when it runs alone: its outcome and the key's state afterwards. The
 * distinct-key phase takes both its expectations and its oracle updates from here.
 */
final class OpRule {
  private OpRule() {}

  /** The outcome of op on a key that is present or not. */
  static byte outcome(byte op, boolean present) {
    return switch (op) {
      case Op.INSERT -> present ? Outcome.PRESENT : Outcome.INSERTED;
      case Op.INSERT_OR_ASSIGN -> present ? Outcome.ASSIGNED : Outcome.INSERTED;
      case Op.ERASE -> present ? Outcome.ERASED : Outcome.NOT_FOUND;
      default -> present ? Outcome.FOUND : Outcome.NOT_FOUND;
    };
  }

  /** Whether the key is present after op. */
  static boolean presentAfter(byte op, boolean present) {
    return op == Op.INSERT || op == Op.INSERT_OR_ASSIGN || (op != Op.ERASE && present);
  }

  /** Whether op writes its value (the key then holds it afterwards). */
  static boolean writes(byte op, boolean present) {
    return op == Op.INSERT_OR_ASSIGN || (op == Op.INSERT && !present);
  }

  /** The key's value after op with value in (meaningful when {@link #presentAfter}). */
  static long valueAfter(byte op, boolean present, long value, long in) {
    return writes(op, present) ? in : value;
  }

  /** The value a find leaves in its slot: the key's value when present, else the value passed in. */
  static long foundValue(boolean present, long value, long in) {
    return present ? value : in;
  }
}
