package org.wixlib.cli.shell;

/**
 * Keys (and values, or null) read from a file or made up, as the shell holds them ({@link KeyBits});
 * {@code skipped} bad lines were left out (--skip-bad). None is a reserved key.
 */
record KeyData(long[] keys, long[] values, long skipped) {
  int size() {
    return keys.length;
  }

  boolean hasValues() {
    return values != null;
  }
}
