package org.wixlib.cli.shell;

import java.util.Locale;
import org.wixlib.cli.ProgressBar;

/**
 * Runs a bulk operation in chunks so that Ctrl-C can cancel it between chunks and a person at a
 * terminal sees a progress bar (redrawn in place on stderr; nothing is drawn for scripts and pipes).
 */
final class Chunks {
  static final int SIZE = 1 << 20;
  private static final int WIDTH = 30;

  interface Step {
    /** Processes elements [from, to). */
    void run(int from, int to);
  }

  private Chunks() {}

  static void run(Session s, String what, int n, Step step) {
    long start = System.nanoTime();
    boolean bar = s.interactive && n > SIZE;
    try {
      for (int from = 0; from < n; from += SIZE) {
        s.checkCancelled(what + " (" + from + " of " + n + " applied, the rest not)");
        int to = (int) Math.min(n, (long) from + SIZE);
        step.run(from, to);
        if (bar) {
          draw(s, what, to, n, start);
        }
      }
    } finally {
      if (bar) {
        s.err.print("\r" + " ".repeat(WIDTH + 60) + "\r"); // the bar goes; messages start on a clean line
        s.err.flush();
      }
    }
  }

  private static void draw(Session s, String what, long done, long n, long start) {
    int filled = (int) (WIDTH * done / n);
    double secs = (System.nanoTime() - start) / 1e9;
    s.err.print(String.format(Locale.ROOT, "\r[%s%s] %3d%% %s  %s", "#".repeat(filled), ".".repeat(WIDTH - filled),
        100 * done / n, ProgressBar.time(secs), what));
    s.err.flush();
  }
}
