package org.wixlib.cli.shell;

/**
 * Keys (and values, or null) read from a file or made up; {@code skipped} bad lines were left out
 * (--skip-bad). Keys are 32-bit patterns; none is a reserved key.
 */
record KeyData(int[] keys, int[] values, long skipped) {
  int size() {
    return keys.length;
  }

  boolean hasValues() {
    return values != null;
  }
}
