package org.wixlib.cli.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.wixlib.TableKind;
import org.wixlib.cli.ExitCodes;
import org.wixlib.cli.Progress;
import org.wixlib.cli.ProgressBar;
import org.wixlib.cli.Texts;
import org.wixlib.cli.report.Chart;
import org.wixlib.cli.report.Report;

/**
 * Runs the suites of {@code wixlib bench --suite} over the targets (wixlib kinds, and the Java baselines
 * in the baseline suite), adding one report row per result and one chart point per measured value.
 * The cpu kind and the Java baselines are capped at {@code maxCpuKeys} keys or ops; GPU kinds at what
 * device memory and the Java heap hold.
 */
final class SuiteRunner {
  static final String[] COLUMNS = {"suite", "kind", "op", "n", "load_factor", "mix", "key_range", "mops",
    "mops_min", "mops_max", "kernel_mops", "kernel_mops_min", "kernel_mops_max", "note"};

  /** Everything a suite run needs. */
  record Config(List<Suite> suites, List<TableKind> kinds, long seed, int reps, int warmup, int threads,
      int device, long staticMax, long maxCpuKeys, long maxGpuKeys, List<Long> mixedOps, List<Long> keyRanges,
      List<Mix> mixes, List<Double> loadFactors, long loadKeys, long baselineKeys) {}

  /** The load factor of the GLHT paper's static benchmark. */
  static final double STATIC_LOAD = 0.8;
  /** Calls the growth benchmark inserts its keys in. */
  static final int GROWTH_CALLS = 8;

  private final Config c;
  private final Report report;
  private final Progress log;
  private final Map<Suite, Chart> charts = new LinkedHashMap<>();
  private final List<Step> steps = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();

  /** One unit of work: a suite's measurement of one target (one or more rows). */
  private record Step(String name, Suite suite, String target, Runnable body) {}

  /** Per-rep lines of the runners: only with -v, the progress bar is the default view. */
  private final Progress reps;

  SuiteRunner(Config c, Report report, Progress log) {
    this.c = c;
    this.report = report;
    this.log = log;
    this.reps = new Progress() {
      @Override
      public void progress(String line) {
        log.detail("  " + line);
      }

      @Override
      public void detail(String line) {
        log.detail("  " + line);
      }
    };
  }

  /** What failed (a wrong result or an error): each also has a row saying so; the other steps still ran. */
  List<String> failures() {
    return failures;
  }

  /** The charts drawn so far, one per suite that ran. */
  Map<Suite, Chart> charts() {
    return charts;
  }

  /** Sizes of the static suite: every power of two from 2^16 up to staticMax (or staticMax alone). */
  static List<Long> staticSizes(long max) {
    List<Long> s = new ArrayList<>();
    for (long n = 1L << 16; n <= max; n <<= 1) {
      s.add(n);
    }
    if (s.isEmpty() || s.get(s.size() - 1) != max) {
      s.add(max);
    }
    return s;
  }

  /** The most keys or ops a target runs with. */
  long cap(String target) {
    TableKind k = kindOf(target);
    return k != null && k.isGpu() ? c.maxGpuKeys() : c.maxCpuKeys();
  }

  private static TableKind kindOf(String target) {
    for (TableKind k : TableKind.values()) {
      if (Texts.kindName(k).equals(target)) {
        return k;
      }
    }
    return null;
  }

  void run() {
    for (Suite s : c.suites()) {
      switch (s) {
        case STATIC -> planStatic();
        case DYNAMIC -> planDynamic();
        case LOAD -> planLoad();
        case BASELINE -> planBaseline();
      }
    }
    ProgressBar bar = new ProgressBar(log, steps.size());
    for (Step st : steps) {
      bar.step(st.name());
      try {
        st.body().run();
      } catch (RuntimeException | OutOfMemoryError e) {
        // One failing measurement must not lose the others of a long run: report it and go on.
        String msg = st.name() + ": " + ExitCodes.message(e);
        failures.add(msg);
        log.progress("bench: FAILED " + msg);
        report.row(st.suite().label(), st.target(), "-", null, null, null, null, null, null, null, null, null, null,
            "FAILED: " + ExitCodes.message(e));
      }
    }
    bar.done();
  }

  private void step(String name, Suite suite, String target, Runnable r) {
    steps.add(new Step(name, suite, target, r));
  }

  private BenchRunner.Params params(int n, double lf, long capacity) {
    return new BenchRunner.Params(n, lf, c.reps(), c.warmup(), c.threads(), c.device(), capacity);
  }

  private List<String> kindNames() {
    return Texts.kindNames(c.kinds());
  }

  // ---- static (GLHT paper) -------------------------------------------------------------------------

  private void planStatic() {
    Chart chart = charts.computeIfAbsent(Suite.STATIC, s -> new Chart("static: bulk build and retrieve at load "
        + STATIC_LOAD, "GLHT paper's static benchmark; solid = end-to-end from Java, dashed = kernel only;"
            + " median, min to max"));
    for (long n : staticSizes(c.staticMax())) {
      for (TableKind kind : c.kinds()) {
        String name = Texts.kindName(kind);
        if (n > cap(name)) {
          continue; // reported once in the header (cpu cap, gpu cap)
        }
        step("static " + name + " n=" + Texts.count(n), Suite.STATIC, name, () -> {
          BenchData d = new BenchData(c.seed(), (int) n);
          BenchRunner r = new BenchRunner(kind, params((int) n, STATIC_LOAD, 0), reps);
          for (BenchRunner.Result res : r.bulk(d)) {
            add(Suite.STATIC, name, res, STATIC_LOAD, null, null, res.note());
            Chart.Panel p = chart.panel(res.op(), "keys (ops per call)", "M ops/s", Chart.Scale.LOG2,
                Chart.Scale.LINEAR);
            plot(p, name, res, n);
          }
        });
      }
    }
  }

  // ---- dynamic (GLHT paper) ------------------------------------------------------------------------

  private void planDynamic() {
    Chart chart = charts.computeIfAbsent(Suite.DYNAMIC, s -> new Chart("dynamic: mixed batches by key range",
        "GLHT paper's dynamic benchmark [insert, erase, find] %; solid = end-to-end, dashed = kernel only;"
            + " median, min to max"));
    for (Mix mix : c.mixes()) {
      for (long ops : c.mixedOps()) {
        for (long range : c.keyRanges()) {
          Map<Long, BenchData.Mixed> data = new LinkedHashMap<>();
          List<String> names = kindNames();
          for (int i = 0; i < names.size(); i++) {
            TableKind kind = c.kinds().get(i);
            String name = names.get(i);
            long n = Math.min(ops, cap(name));
            boolean last = i == names.size() - 1;
            step("dynamic " + name + " " + mix + " ops=" + Texts.count(n) + " range=" + range, Suite.DYNAMIC, name, () -> {
              BenchData.Mixed m = data.computeIfAbsent(n, x -> new BenchData.Mixed(c.seed(), mix, (int) (long) x, range));
              BenchRunner r = new BenchRunner(kind, params((int) n, STATIC_LOAD, 0), reps);
              BenchRunner.Result res = r.mixed(m);
              String note = n < ops ? "ops capped from " + Texts.count(ops) + " (--max-cpu-keys)" : "";
              add(Suite.DYNAMIC, name, res, null, mix.toString(), range, note);
              Chart.Panel p = chart.panel(mix + " %, " + Texts.count(ops) + " ops", "key range", "M ops/s",
                  Chart.Scale.LOG10, Chart.Scale.LINEAR);
              plot(p, name, res, range);
              if (last) {
                data.clear();
              }
            });
          }
        }
      }
    }
  }

  // ---- load factors and growth (Hive paper) --------------------------------------------------------

  private void planLoad() {
    Chart chart = charts.computeIfAbsent(Suite.LOAD, s -> new Chart("load: throughput by load factor",
        "Hive paper's benchmark: a fixed table filled to each load factor; solid = end-to-end, dashed = kernel;"
            + " median, min to max"));
    double maxLf = c.loadFactors().stream().mapToDouble(Double::doubleValue).max().orElse(0.95);
    for (TableKind kind : c.kinds()) {
      String name = Texts.kindName(kind);
      long target = Math.min(c.loadKeys(), cap(name));
      // The table: capacity N at the highest load factor; N halves until maxLf * slots fits the cap.
      long[] sized = new long[2];
      step("load " + name + " sizing", Suite.LOAD, name, () -> {
        long n = target;
        BenchRunner probe = new BenchRunner(kind, params(1, maxLf, n), reps);
        long slots = probe.slots(n);
        while (n > 1024 && (long) Math.floor(maxLf * slots) > target) {
          n /= 2;
          probe = new BenchRunner(kind, params(1, maxLf, n), reps);
          slots = probe.slots(n);
        }
        sized[0] = n;
        sized[1] = slots;
      });
      for (double lf : c.loadFactors()) {
        step("load " + name + " load factor " + lf, Suite.LOAD, name, () -> {
          int n = (int) Math.max(1, Math.floor(lf * sized[1]));
          BenchData d = new BenchData(c.seed(), n);
          BenchRunner r = new BenchRunner(kind, params(n, maxLf, sized[0]), reps);
          for (BenchRunner.Result res : r.bulk(d)) {
            add(Suite.LOAD, name, res, lf, null, null, res.note().isEmpty() ? "" : res.note() + " (max load "
                + maxLf + ")");
            Chart.Panel p = chart.panel(res.op(), "load factor", "M ops/s", Chart.Scale.LINEAR, Chart.Scale.LINEAR);
            plot(p, name, res, lf);
          }
        });
      }
      step("load " + name + " growth", Suite.LOAD, name, () -> {
        int n = (int) target;
        BenchData d = new BenchData(c.seed(), n);
        long initial = Math.max(1024, n / 64);
        BenchRunner r = new BenchRunner(kind, params(n, STATIC_LOAD, 0), reps);
        Chart.Panel p = chart.panel("grow_insert (from a small table, resizes included) vs presized", "",
            "M ops/s", Chart.Scale.LINEAR, Chart.Scale.LINEAR);
        for (BenchRunner.Result res : r.growth(d, GROWTH_CALLS, initial)) {
          add(Suite.LOAD, name, res, STATIC_LOAD, null, null, res.note());
          String bar = res.op().equals("grow_insert") ? name : name + " presized";
          Throughput e = res.endToEnd();
          p.bar(bar, false, "n = " + Texts.count(n), e.median() == null ? 0 : e.median(), e.min(), e.max());
          if (res.kernel() != null && res.kernel().median() != null) {
            Throughput k = res.kernel();
            p.bar(bar + " (kernel)", true, "n = " + Texts.count(n), k.median(), k.min(), k.max());
          }
        }
      });
    }
  }

  // ---- baseline: what a Java user would pick instead -----------------------------------------------

  private void planBaseline() {
    Chart chart = charts.computeIfAbsent(Suite.BASELINE, s -> new Chart("baseline: the same streams on Java maps",
        "HashMap, ConcurrentHashMap (all cores), fastutil vs wixlib; pale = kernel only; median, min to max"));
    long n = Math.min(c.baselineKeys(), c.maxCpuKeys());
    long range = c.keyRanges().stream().mapToLong(Long::longValue).max().orElse(100_000);
    List<String> targets = new ArrayList<>(kindNames());
    targets.addAll(List.of(JavaMap.NAMES));
    Object[] data = new Object[1];
    for (int i = 0; i < targets.size(); i++) {
      String name = targets.get(i);
      TableKind kind = kindOf(name);
      step("baseline " + name + " n=" + Texts.count(n), Suite.BASELINE, name, () -> {
        if (data[0] == null) {
          List<BenchData.Mixed> mixed = new ArrayList<>();
          for (Mix mix : c.mixes()) {
            mixed.add(new BenchData.Mixed(c.seed(), mix, (int) n, range));
          }
          data[0] = new Object[] {new BenchData(c.seed(), (int) n), mixed};
        }
        Object[] d = (Object[]) data[0];
        @SuppressWarnings("unchecked")
        List<BenchData.Mixed> mixed = (List<BenchData.Mixed>) d[1];
        BenchRunner.Params prm = params((int) n, STATIC_LOAD, 0);
        List<BenchRunner.Result> results = new ArrayList<>();
        if (kind != null) {
          BenchRunner r = new BenchRunner(kind, prm, reps);
          results.addAll(r.bulk((BenchData) d[0]));
          for (BenchData.Mixed m : mixed) {
            results.add(r.mixed(m));
          }
        } else {
          JavaMapRunner r = new JavaMapRunner(name, prm, reps);
          results.addAll(r.bulk((BenchData) d[0]));
          for (BenchData.Mixed m : mixed) {
            results.add(r.mixed(m));
          }
        }
        Chart.Panel p = chart.panel("n = " + Texts.count(n) + ", mixes on key range " + range, "", "M ops/s (log)",
            Chart.Scale.LINEAR, Chart.Scale.LOG10);
        for (BenchRunner.Result res : results) {
          boolean mixedRow = res.op().startsWith("mixed_");
          add(Suite.BASELINE, name, res, mixedRow ? null : STATIC_LOAD,
              mixedRow ? res.op().substring("mixed_".length()) : null, mixedRow ? range : null, res.note());
          String cat = res.op().replace("mixed_", "");
          Throughput e = res.endToEnd();
          if (e.median() != null) {
            p.bar(name, false, cat, e.median(), e.min(), e.max());
          }
          Throughput k = res.kernel();
          if (k != null && k.median() != null) {
            p.bar(name + " (kernel)", true, cat, k.median(), k.min(), k.max());
          }
        }
      });
    }
  }

  // ---- rows and points ------------------------------------------------------------------------------

  private void add(Suite suite, String kind, BenchRunner.Result res, Double lf, String mix, Long range,
      String note) {
    Throughput e = res.endToEnd();
    Throughput k = res.kernel();
    report.row(suite.label(), kind, res.op(), res.n(), lf, mix, range, e.median(), e.min(), e.max(),
        k == null ? null : k.median(), k == null ? null : k.min(), k == null ? null : k.max(),
        note == null || note.isEmpty() ? null : note);
  }

  /** The medians as points, each with its reps' min and max as an error bar. */
  private static void plot(Chart.Panel p, String name, BenchRunner.Result res, double x) {
    Throughput e = res.endToEnd();
    if (e.median() != null) {
      p.add(name, false, x, e.median(), e.min(), e.max());
    }
    Throughput k = res.kernel();
    if (k != null && k.median() != null) {
      p.add(name + " (kernel)", true, x, k.median(), k.min(), k.max());
    }
  }
}
