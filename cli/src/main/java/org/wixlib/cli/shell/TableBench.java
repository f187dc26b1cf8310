package org.wixlib.cli.shell;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.wixlib.HashTable;
import org.wixlib.cli.CountConverter;
import org.wixlib.cli.Texts;
import org.wixlib.cli.report.Format;
import org.wixlib.cli.report.Report;
import org.wixlib.cli.report.ReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bench T}: end-to-end throughput of one session table as it is now: find and contains of keys
 * it holds, find of random keys, and insert then erase of N new keys (so the table ends as it began).
 */
@Command(name = "bench", description = "Times find/contains/insert/erase on a table of this session; the table's "
    + "contents are the same afterwards (to stdout).",
    footer = {"Example:", "  bench t -n 1M --reps 5"})
final class TableBench extends SessionCommand {
  @Parameters(index = "0", paramLabel = "TABLE")
  String name;

  @Option(names = {"-n", "--keys"}, paramLabel = "N", converter = CountConverter.class, defaultValue = "1M",
      description = "Keys per operation (default: ${DEFAULT-VALUE}).")
  long keys;

  @Option(names = "--reps", paramLabel = "R", defaultValue = "3", description = "Timed repetitions; the median is shown (default: ${DEFAULT-VALUE}).")
  int reps;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Seed of the keys (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table", description = "table, csv or json.")
  Format format;

  @Override
  void execute() {
    if (keys < 1 || keys > 1 << 28 || reps < 1) {
      throw new ShellError("need 1 <= -n <= 2^28 and --reps >= 1");
    }
    HashTable t = table(name);
    KeyBits width = KeyBits.of(t);
    int n = (int) keys;
    SplittableRandom r = new SplittableRandom(seed);
    long[] present = TableColumns.keys(t);
    Report rep = new Report("results", "op", "n", "median_ms", "mops_per_s");
    rep.field("table", name);
    rep.field("kind", Texts.kindName(t.kind()));
    rep.field("key_bits", width.bits);
    rep.field("size", present.length);
    rep.field("reps", reps);
    // The calls of the table's width, on arrays made before the timing.
    if (present.length > 0) {
      long[] hit = new long[n];
      for (int i = 0; i < n; i++) {
        hit[i] = present[r.nextInt(present.length)];
      }
      Object k = TableColumns.column(t, hit);
      row(rep, "find_present", n, () -> TableColumns.find(t, k, -1));
      row(rep, "contains_present", n, () -> TableColumns.contains(t, k));
    }
    long[] random = KeySource.random(n, r.nextLong(), width).keys();
    Object randomKeys = TableColumns.column(t, random);
    row(rep, "find_random", n, () -> TableColumns.find(t, randomKeys, -1));
    // Keys the table does not hold, so insert adds every one and erase removes them again.
    boolean[] in = TableColumns.contains(t, random);
    long[] fresh = new long[n];
    int m = 0;
    for (int i = 0; i < n; i++) {
      if (!in[i]) {
        fresh[m++] = random[i];
      }
    }
    long[] newKeys = Arrays.stream(Arrays.copyOf(fresh, m)).distinct().toArray();
    Object added = TableColumns.column(t, newKeys);
    double[] insertMs = new double[reps];
    double[] eraseMs = new double[reps];
    for (int i = 0; i < reps; i++) {
      session.checkCancelled("bench " + name);
      long t0 = System.nanoTime();
      TableColumns.insert(t, added, added, null, false);  // the keys as their own values
      long t1 = System.nanoTime();
      TableColumns.erase(t, added, null);
      long t2 = System.nanoTime();
      insertMs[i] = (t1 - t0) / 1e6;
      eraseMs[i] = (t2 - t1) / 1e6;
    }
    add(rep, "insert_new", newKeys.length, insertMs);
    add(rep, "erase_new", newKeys.length, eraseMs);
    ReportWriter.write(rep, format, session.out, session.meta());
  }

  private void row(Report rep, String op, int n, Runnable call) {
    double[] ms = new double[reps];
    for (int i = 0; i < reps; i++) {
      session.checkCancelled("bench " + name);
      long t0 = System.nanoTime();
      call.run();
      ms[i] = (System.nanoTime() - t0) / 1e6;
    }
    add(rep, op, n, ms);
  }

  private static void add(Report rep, String op, int n, double[] ms) {
    double[] s = ms.clone();
    Arrays.sort(s);
    double med = s[s.length / 2];
    rep.row(op, n, Math.round(med * 1000) / 1000.0, med > 0 ? Math.round(n / med / 1e3 * 100) / 100.0 : null);
  }
}
