package org.wixlib.cli.verify;

import java.util.ArrayList;
import java.util.List;
import org.wixlib.Op;
import org.wixlib.Outcome;

/** The first offending key of a verify run: what was expected, and the key's ops with their outcomes. */
final class Mismatch {
  private final String phase;
  private final long batch;
  private final long key;
  private final int keyBits;
  private final String problem;
  private final List<String> lines = new ArrayList<>();

  /** keyBits: the run's width (a 32-bit key is an int sign-extended). */
  Mismatch(String phase, long batch, long key, int keyBits, String problem) {
    this.phase = phase;
    this.batch = batch;
    this.key = key;
    this.keyBits = keyBits;
    this.problem = problem;
  }

  /** Adds {@code "element i: OP value v -> OUTCOME value w"}. */
  Mismatch op(int element, byte op, long valueIn, byte outcome, long valueOut) {
    StringBuilder sb = new StringBuilder("  element " + element + ": " + Op.name(op));
    if (op == Op.INSERT || op == Op.INSERT_OR_ASSIGN) {
      sb.append(" value ").append(valueIn);
    }
    sb.append(" -> ").append(Outcome.name(outcome));
    if (op == Op.FIND) {
      sb.append(" value ").append(valueOut);
    }
    lines.add(sb.toString());
    return this;
  }

  Mismatch line(String text) {
    lines.add("  " + text);
    return this;
  }

  long key() {
    return key;
  }

  String problem() {
    return problem;
  }

  List<String> describe() {
    List<String> out = new ArrayList<>();
    String hex = keyBits == 64 ? Long.toHexString(key) : Integer.toHexString((int) key);
    out.add("MISMATCH in " + phase + " batch " + batch + ", key " + key + " (0x" + hex + "): " + problem);
    int shown = 0;
    for (String l : lines) {
      if (shown++ == 64) {
        out.add("  ... " + (lines.size() - 64) + " more");
        break;
      }
      out.add(l);
    }
    return out;
  }
}
