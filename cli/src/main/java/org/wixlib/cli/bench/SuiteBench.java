package org.wixlib.cli.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;
import org.wixlib.cli.ExitCodes;
import org.wixlib.cli.Progress;
import org.wixlib.cli.Texts;
import org.wixlib.cli.VersionProvider;
import org.wixlib.cli.report.Chart;
import org.wixlib.cli.report.ChartWriter;
import org.wixlib.cli.report.Format;
import org.wixlib.cli.report.Report;
import org.wixlib.cli.report.ReportWriter;
import picocli.CommandLine.ParameterException;

/**
 * {@code wixlib bench --suite ...}: checks the options, works out the sizes and caps, runs the suites,
 * prints the report with its summary ratios, and writes the charts (and with --out the whole set of
 * files).
 */
final class SuiteBench {
  private final BenchCommand cmd;
  private final SuiteOptions o;

  SuiteBench(BenchCommand cmd) {
    this.cmd = cmd;
    this.o = cmd.suite;
  }

  private ParameterException usage(String msg) {
    return new ParameterException(cmd.spec.commandLine(), msg);
  }

  /** The suites named, in the order static, dynamic, load, baseline; "all" = every suite. */
  static List<Suite> parseSuites(List<String> names) {
    java.util.EnumSet<Suite> set = java.util.EnumSet.noneOf(Suite.class);
    for (String n : names) {
      if (n.trim().equalsIgnoreCase("all")) {
        set.addAll(List.of(Suite.values()));
      } else {
        set.add(Suite.parse(n));
      }
    }
    return new ArrayList<>(set);
  }

  Integer call() {
    List<Suite> suites;
    try {
      suites = parseSuites(o.names);
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
    int reps = cmd.repsOption != null ? cmd.repsOption : 3;
    cmd.requireReps(reps);
    if (cmd.keyRange != null) {
      throw usage("--key-range is for the plain benchmark; with --suite give --key-ranges");
    }
    Long keys = cmd.keysOption;
    if (keys != null) {
      cmd.requireIn("--keys", keys, 1, BenchCommand.MAX_KEYS);
    }
    cmd.requireIn("--max-cpu-keys", o.maxCpuKeys, 1, BenchCommand.MAX_KEYS);
    List<Long> mixedOps = o.mixedOps.isEmpty() ? List.of(100_000L, keys != null ? keys : 1L << 24) : o.mixedOps;
    List<Long> ranges = o.keyRanges.isEmpty() ? List.of(100L, 1000L, 10_000L, 100_000L) : o.keyRanges;
    List<Double> lfs = o.loadFactors.isEmpty() ? List.of(0.5, 0.6, 0.7, 0.8, 0.9, 0.95) : o.loadFactors;
    List<Mix> mixes = cmd.mixes.isEmpty() ? List.of(new Mix(20, 20, 60), new Mix(40, 40, 20)) : cmd.mixes;
    for (long n : mixedOps) {
      cmd.requireIn("--mixed-ops", n, 1, BenchCommand.MAX_KEYS);
    }
    for (long r : ranges) {
      cmd.requireIn("--key-ranges", r, 2, 1L << 31);
    }
    for (double f : lfs) {
      cmd.table.check("--load-factors", b -> b.maxLoadFactor(f));
    }
    if (o.chart != null && Chart.fileFormat(o.chart) == null) {
      throw usage("--chart writes FILE.svg or FILE.png (got " + o.chart + ")");
    }
    if (o.chart != null && !Chart.drawable()) {
      throw usage("--chart needs the java.desktop module, which this Java runtime lacks");
    }

    // Kinds: those asked for, else every kind usable here.
    List<TableKind> asked = cmd.kinds.asked.isEmpty() ? new ArrayList<>(List.of(TableKind.values()))
        : cmd.kinds.kinds();
    Map<TableKind, String> unavailable = new LinkedHashMap<>();
    List<TableKind> kinds = new ArrayList<>();
    for (TableKind k : asked) {
      String why = cmd.table.unavailableReason(k);
      if (why == null) {
        kinds.add(k);
      } else if (!cmd.kinds.asked.isEmpty()) {
        unavailable.put(k, why);
        cmd.output.progress("bench " + Texts.kindName(k) + ": unavailable: " + why);
      }
    }

    cmd.noteCpuFallback();
    long heapCap = Runtime.getRuntime().maxMemory() / 48;
    long gpuCap = heapCap;
    if (kinds.stream().anyMatch(TableKind::isGpu)) {
      Wixlib.DeviceInfo d = Wixlib.devices().get(cmd.table.device);
      gpuCap = Math.min(gpuCap, d.freeBytes() / 64);
    }
    gpuCap = Long.highestOneBit(Math.max(1024, Math.min(gpuCap, 1L << 30)));
    long cpuCap = Math.min(o.maxCpuKeys, Math.max(1024, heapCap));
    long staticMax = keys != null ? keys : 1L << 26;
    long loadKeys = keys != null ? keys : 1L << 24;
    long baselineKeys = keys != null ? keys : 1L << 22;

    SuiteRunner.Config c = new SuiteRunner.Config(suites, kinds, cmd.table.seed, reps, cmd.warmup, cmd.threads,
        cmd.table.device, staticMax, cpuCap, gpuCap, mixedOps, ranges, mixes, lfs, loadKeys, baselineKeys);
    Report r = new Report("results", SuiteRunner.COLUMNS);
    header(r, c, asked);
    if (!unavailable.isEmpty()) {
      r.field("kinds_unavailable", Texts.kindNames(unavailable.keySet()));
    }
    for (Map.Entry<TableKind, String> e : unavailable.entrySet()) {
      r.row("-", Texts.kindName(e.getKey()), "-", null, null, null, null, null, null, null, null, null, null,
          "unavailable: " + e.getValue());
    }
    long t0 = System.nanoTime();
    SuiteRunner runner = new SuiteRunner(c, r, cmd.output);
    runner.run();
    r.field("elapsed_s", Math.round((System.nanoTime() - t0) / 1e8) / 10.0);
    if (!runner.failures().isEmpty()) {
      r.field("failures", new ArrayList<Object>(runner.failures()));
    }
    for (Map.Entry<String, Object> e : Summary.of(r).entrySet()) {
      r.field("summary_" + e.getKey(), e.getValue());
    }

    cmd.output.write(r);
    Map<Suite, Chart> charts = runner.charts();
    if (o.chart != null) {
      for (Map.Entry<Suite, Chart> e : charts.entrySet()) {
        Path file = charts.size() == 1 ? o.chart : withSuffix(o.chart, "-" + e.getKey().label());
        ChartWriter.write(e.getValue(), file);
        cmd.output.progress("bench: chart " + file);
      }
    }
    if (o.out != null) {
      writeAll(o.out, r, charts, cmd.output);
      cmd.output.progress("bench: results in " + o.out.toAbsolutePath() + " (index.html, bench.json"
          + (Chart.drawable() ? ", charts)" : ")"));
    }
    if (!runner.failures().isEmpty()) {
      cmd.output.progress("wixlib: " + runner.failures().size() + " measurement(s) failed (rows marked FAILED): "
          + String.join("; ", runner.failures()));
      return ExitCodes.ERROR;
    }
    return unavailable.isEmpty() ? ExitCodes.OK : ExitCodes.UNAVAILABLE;
  }

  private void header(Report r, SuiteRunner.Config c, List<TableKind> asked) {
    cmd.header(r, asked, 0, 0, List.of(MemoryPath.HEAP));
    Map<String, Object> plain = new LinkedHashMap<>(r.fields());
    plain.keySet().removeAll(List.of("keys", "max_load_factor", "unit", "mixes", "key_range", "memory",
        "bytes_per_op"));
    r.fieldsReplace(plain);
    List<String> suites = new ArrayList<>();
    for (Suite s : c.suites()) {
      suites.add(s.label());
    }
    r.field("command", "bench --suite");
    r.field("suites", suites);
    r.field("kinds", Texts.kindNames(c.kinds()));
    if (c.suites().contains(Suite.BASELINE)) {
      r.field("baselines", List.of(JavaMap.HASHMAP + " (java.util.HashMap, 1 thread)", JavaMap.CONCURRENT
          + " (ConcurrentHashMap, " + (c.threads() == 0 ? Runtime.getRuntime().availableProcessors() : c.threads())
          + " threads)", JavaMap.FASTUTIL + " (Int2IntOpenHashMap " + fastutilVersion() + ", 1 thread)"));
    }
    r.field("reps", c.reps());
    r.field("warmup", c.warmup());
    boolean dyn = c.suites().contains(Suite.DYNAMIC);
    boolean load = c.suites().contains(Suite.LOAD);
    boolean baseline = c.suites().contains(Suite.BASELINE);
    if (c.suites().contains(Suite.STATIC)) {
      List<Long> sizes = SuiteRunner.staticSizes(c.staticMax());
      r.field("static_sizes", (sizes.size() == 1 ? Texts.count(sizes.get(0)) : Texts.count(sizes.get(0)) + " … "
          + Texts.count(sizes.get(sizes.size() - 1)) + " (every power of two)") + " at load " + SuiteRunner.STATIC_LOAD
          + " (kinds that round slot counts up end below it: see the note column)");
    }
    r.field("cpu_cap", "cpu kind and Java baselines run at most " + Texts.count(c.maxCpuKeys())
        + " keys or ops (--max-cpu-keys): larger static sizes skipped, larger mixed batches capped");
    if (c.kinds().stream().anyMatch(TableKind::isGpu)) {
      r.field("gpu_cap", "GPU kinds run at most " + Texts.count(c.maxGpuKeys())
          + " keys or ops (device memory and Java heap)");
    }
    if (dyn || baseline) {
      List<String> mixes = new ArrayList<>();
      for (Mix m : c.mixes()) {
        mixes.add(m.toString());
      }
      r.field("mixes", mixes);
    }
    if (dyn) {
      List<String> ops = new ArrayList<>();
      for (long n : c.mixedOps()) {
        ops.add(Texts.count(n));
      }
      r.field("mixed_ops", ops);
      r.field("key_ranges", new ArrayList<Object>(c.keyRanges()));
    }
    if (load) {
      r.field("load_factors", new ArrayList<Object>(c.loadFactors()));
      r.field("load_keys", Texts.count(c.loadKeys()) + " at the highest load factor (table size fixed across"
          + " load factors; growth: " + SuiteRunner.GROWTH_CALLS + " calls from capacity max(1024, n/64), then the"
          + " same calls into a table made for n: resizing's share of the time)");
    }
    if (baseline) {
      r.field("baseline_keys", Texts.count(Math.min(c.baselineKeys(), c.maxCpuKeys())) + " keys; mixes on key range "
          + c.keyRanges().stream().mapToLong(Long::longValue).max().orElse(100_000));
    }
    r.field("timing", "mops = end-to-end M ops/s through Java (int[] in, results out, every copy incl. PCIe),"
        + " median of reps with min and max; kernel_mops = device time only (CUDA events, device-resident"
        + " inputs via DeviceBuffer)");
  }

  static String fastutilVersion() {
    String v = VersionProvider.buildProperty("fastutil.version");
    return v == null ? "(version unknown)" : v;
  }

  static Path withSuffix(Path file, String suffix) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String n = dot > 0 ? name.substring(0, dot) + suffix + name.substring(dot) : name + suffix;
    return file.resolveSibling(n);
  }

  private static void write(Path file, String text) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  private static String format(Report r, Format f) {
    StringWriter s = new StringWriter();
    ReportWriter.write(r, f, new PrintWriter(s));
    return s.toString();
  }

  /**
   * --out DIR: the report in every format, one SVG and one PNG chart per suite where the runtime can draw
   * (java.desktop), and an HTML page with all of them.
   */
  static void writeAll(Path dir, Report r, Map<Suite, Chart> charts, Progress log) {
    write(dir.resolve("bench.json"), format(r, Format.JSON));
    write(dir.resolve("bench.csv"), format(r, Format.CSV));
    String table = format(r, Format.TABLE);
    write(dir.resolve("bench.txt"), table);
    StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        + "<title>wixlib bench</title><style>body{font-family:sans-serif;margin:2em}pre{font-size:12px}"
        + "img{max-width:100%;border:1px solid #ddd;margin:1em 0}</style></head><body>\n<h1>wixlib bench</h1>\n");
    if (!charts.isEmpty() && !Chart.drawable()) {
      log.progress("bench: no charts: this Java runtime lacks the java.desktop module");
    }
    for (Map.Entry<Suite, Chart> e : charts.entrySet()) {
      String name = "bench-" + e.getKey().label();
      if (!Chart.drawable()) {
        continue;
      }
      try {
        ChartWriter.write(e.getValue(), dir.resolve(name + ".svg"));
        ChartWriter.write(e.getValue(), dir.resolve(name + ".png"));
      } catch (RuntimeException | LinkageError x) {
        // Headless AWT without fonts (e.g. no fontconfig): the results are there; say why the chart is not.
        log.progress("bench: no " + e.getKey().label() + " chart (" + x + ")");
        continue;
      }
      html.append("<h2>").append(e.getKey().label()).append("</h2>\n<img src=\"").append(name)
          .append(".svg\" alt=\"").append(e.getKey().label()).append(" chart\">\n");
    }
    html.append("<h2>results</h2>\n<pre>").append(escapeHtml(table)).append("</pre>\n</body></html>\n");
    write(dir.resolve("index.html"), html.toString());
  }

  private static String escapeHtml(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
