package org.wixlib.cli;

import java.util.Locale;

/**
 * A run needs more Java heap than this JVM may use, found before anything large is allocated: exit
 * code 1 with one sentence saying how much, and how to lower the need or raise the heap.
 */
public final class HeapTooSmallException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public HeapTooSmallException(String message) {
    super(message);
  }

  /**
   * Throws when {@code bytes} of new arrays would not fit the heap's room (the max heap less what is
   * in use, with a tenth kept for the collector to work in); what = the work and its size
   * ("--keys 2^30"), lower = how to need less.
   */
  public static void check(long bytes, String what, String lower) {
    Runtime rt = Runtime.getRuntime();
    long room = (long) (0.9 * (rt.maxMemory() - (rt.totalMemory() - rt.freeMemory())));
    if (bytes > room) {
      throw new HeapTooSmallException(what + " needs about " + gib(bytes) + " of Java heap for its arrays; this JVM"
          + " has " + gib(room) + " free of " + gib(rt.maxMemory()) + " (-Xmx). " + lower + ", or raise the heap,"
          + " e.g. WIXLIB_JAVA_OPTS=-Xmx" + (long) Math.ceil(bytes / 0.8 / (1L << 30)) + "g bin/wixlib ...");
    }
  }

  static String gib(long bytes) {
    return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
  }
}
