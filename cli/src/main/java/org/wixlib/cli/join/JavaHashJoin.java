package org.wixlib.cli.join;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;

/**
 * The reference a Java engine would write: a java.util.HashMap hash join (HashSet for semi and anti
 * joins) over the same int[] columns, with the same outputs (pair or row arrays). Its counts and
 * checksums check wixlib's results; its times are the baseline of the speed-ups.
 */
final class JavaHashJoin {
  record Result(long matches, long checksum, double buildMillis, double probeMillis) {}

  private JavaHashJoin() {}

  static Result run(JoinQuery q, int[] build, int[] probe) {
    return switch (q.result) {
      case PAIRS -> q.build == org.wixlib.Join.Build.UNIQUE ? unique(build, probe) : multi(build, probe);
      case SEMI -> exists(build, probe, false);
      case ANTI -> exists(build, probe, true);
    };
  }

  private static Result unique(int[] build, int[] probe) {
    long t0 = System.nanoTime();
    HashMap<Integer, Integer> m = new HashMap<>(Math.max(16, (int) (build.length / 0.75f) + 1));
    for (int i = 0; i < build.length; i++) {
      if (m.put(build[i], i) != null) {
        throw new IllegalStateException("build key " + build[i] + " is not unique");
      }
    }
    long t1 = System.nanoTime();
    int[] pr = new int[probe.length], br = new int[probe.length];
    int c = 0;
    for (int i = 0; i < probe.length; i++) {
      Integer b = m.get(probe[i]);
      if (b != null) {
        pr[c] = i;
        br[c++] = b;
      }
    }
    long t2 = System.nanoTime();
    return new Result(c, JoinQuery.checksum(pr, br, c), (t1 - t0) / 1e6, (t2 - t1) / 1e6);
  }

  /** Non-unique build: {@code key -> int[] {count, row, row, ...}} grown by doubling. */
  private static Result multi(int[] build, int[] probe) {
    long t0 = System.nanoTime();
    HashMap<Integer, int[]> m = new HashMap<>();
    for (int i = 0; i < build.length; i++) {
      int[] rows = m.get(build[i]);
      if (rows == null) {
        m.put(build[i], new int[] {1, i, 0, 0});
      } else {
        if (rows[0] + 1 == rows.length) {
          rows = Arrays.copyOf(rows, rows.length * 2);
          m.put(build[i], rows);
        }
        rows[++rows[0]] = i;
      }
    }
    long t1 = System.nanoTime();
    int[] pr = new int[Math.max(16, probe.length)], br = new int[pr.length];
    int c = 0;
    for (int i = 0; i < probe.length; i++) {
      int[] rows = m.get(probe[i]);
      if (rows == null) {
        continue;
      }
      if (c + rows[0] > pr.length) {
        int cap = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(2L * pr.length, (long) c + rows[0]));
        pr = Arrays.copyOf(pr, cap);
        br = Arrays.copyOf(br, cap);
      }
      for (int j = 1; j <= rows[0]; j++) {
        pr[c] = i;
        br[c++] = rows[j];
      }
    }
    long t2 = System.nanoTime();
    return new Result(c, JoinQuery.checksum(pr, br, c), (t1 - t0) / 1e6, (t2 - t1) / 1e6);
  }

  private static Result exists(int[] build, int[] probe, boolean anti) {
    long t0 = System.nanoTime();
    HashSet<Integer> s = new HashSet<>();
    for (int k : build) {
      s.add(k);
    }
    long t1 = System.nanoTime();
    int[] rows = new int[probe.length];
    int c = 0;
    for (int i = 0; i < probe.length; i++) {
      if (s.contains(probe[i]) != anti) {
        rows[c++] = i;
      }
    }
    long t2 = System.nanoTime();
    return new Result(c, JoinQuery.checksum(rows, null, c), (t1 - t0) / 1e6, (t2 - t1) / 1e6);
  }
}
