package org.wixlib.cli;

import java.util.Locale;

/**
 * A progress bar for long runs, one line per step on stderr ("[#####.....]  12/40  0:31  static cpu
 * n=2^20"), so it reads well both on a terminal and in a log file; the elapsed time and an estimate of
 * what is left (from the steps done so far) come with it.
 */
public final class ProgressBar {
  private static final int WIDTH = 24;
  private final Progress out;
  private final int total;
  private final long start = System.nanoTime();
  private int done;

  public ProgressBar(Progress out, int total) {
    this.out = out;
    this.total = Math.max(1, total);
  }

  /** Announces the next step. */
  public void step(String what) {
    out.progress(line(done, what));
    done++;
  }

  /** Announces the end. */
  public void done() {
    out.progress(line(total, "done"));
  }

  String line(int finished, String what) {
    int filled = (int) ((long) WIDTH * finished / total);
    double elapsed = (System.nanoTime() - start) / 1e9;
    String left = finished > 0 && finished < total ? " ~" + time(elapsed / finished * (total - finished)) + " left"
        : "";
    return String.format(Locale.ROOT, "[%s%s] %3d/%d %s%s  %s", "#".repeat(filled), ".".repeat(WIDTH - filled),
        finished, total, time(elapsed), left, what);
  }

  public static String time(double seconds) {
    long s = Math.round(seconds);
    return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }
}
