package org.wixlib.cli.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.wixlib.cli.ExitCodes;
import org.wixlib.cli.OutputOptions;
import org.wixlib.cli.VersionProvider;
import org.wixlib.cli.report.Json;
import org.wixlib.cli.report.Report;
import org.wixlib.cli.report.ReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code wixlib bench compare A.json B.json}: B over A per row, so a change can be judged. */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Compares two results of 'wixlib bench --format json' (or bench.json of --out): rows are matched on"
          + " every column that is not a measurement (suite, kind, op, n, load factor, mix, key range), and"
          + " each matched row shows A's and B's throughput and the ratio B/A (> 1: B is faster).",
      "The header gives the geometric mean of the ratios; rows found in only one file are listed too."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  wixlib bench --suite all --format json > before.json",
      "  wixlib bench --suite all --format json > after.json",
      "  wixlib bench compare before.json after.json --format csv"
    })
final class CompareCommand implements Callable<Integer> {
  /** Columns holding measurements or remarks: never part of a row's identity. */
  static final Set<String> MEASURES = Set.of("mops", "mops_min", "mops_max", "kernel_mops", "kernel_mops_min",
      "kernel_mops_max", "bound", "pct_of_bound", "scaling", "note");

  @Spec CommandSpec spec;
  @Mixin OutputOptions output;

  @Parameters(index = "0", paramLabel = "A.json", description = "The baseline result.")
  Path a;

  @Parameters(index = "1", paramLabel = "B.json", description = "The result to judge against A.")
  Path b;

  @Override
  public Integer call() {
    List<Map<String, Object>> ra = rows(a);
    List<Map<String, Object>> rb = rows(b);
    Report r = compare(ra, rb);
    r.fieldsReplace(withFiles(r.fields()));
    output.write(r);
    return ExitCodes.OK;
  }

  private Map<String, Object> withFiles(Map<String, Object> f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("command", "bench compare");
    m.put("a", a.toString());
    m.put("b", b.toString());
    m.putAll(f);
    return m;
  }

  private List<Map<String, Object>> rows(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ParameterException(spec.commandLine(), "cannot read " + file + ": " + e.getMessage());
    }
    Object o;
    try {
      o = Json.read(text);
    } catch (RuntimeException e) {
      throw new ParameterException(spec.commandLine(), file + " is not JSON: " + e.getMessage());
    }
    if (!(o instanceof Map<?, ?> m) || !(m.get("results") instanceof List<?> list)) {
      throw new ParameterException(spec.commandLine(), file + " has no \"results\" list: give the output of"
          + " 'wixlib bench --format json'");
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (Object row : list) {
      if (row instanceof Map<?, ?> rm) {
        Map<String, Object> copy = new LinkedHashMap<>();
        rm.forEach((k, v) -> copy.put(String.valueOf(k), v));
        out.add(copy);
      }
    }
    return out;
  }

  /** The comparison report of two row lists (B over A). */
  static Report compare(List<Map<String, Object>> a, List<Map<String, Object>> b) {
    List<String> keyCols = new ArrayList<>();
    for (List<Map<String, Object>> side : List.of(a, b)) {
      for (Map<String, Object> row : side) {
        for (String k : row.keySet()) {
          if (!MEASURES.contains(k) && !keyCols.contains(k)) {
            keyCols.add(k);
          }
        }
      }
    }
    List<String> cols = new ArrayList<>(keyCols);
    cols.addAll(List.of("a_mops", "b_mops", "ratio", "a_kernel_mops", "b_kernel_mops", "kernel_ratio", "note"));
    Report r = new Report("rows", cols.toArray(new String[0]));
    Map<String, Map<String, Object>> byKey = new LinkedHashMap<>();
    for (Map<String, Object> row : b) {
      byKey.putIfAbsent(key(keyCols, row), row);
    }
    List<Double> ratios = new ArrayList<>();
    List<Double> kernelRatios = new ArrayList<>();
    int matched = 0;
    for (Map<String, Object> ra : a) {
      Map<String, Object> rb = byKey.remove(key(keyCols, ra));
      Double ratio = rb == null ? null : ratio(ra.get("mops"), rb.get("mops"));
      Double kr = rb == null ? null : ratio(ra.get("kernel_mops"), rb.get("kernel_mops"));
      if (rb != null) {
        matched++;
      }
      if (ratio != null) {
        ratios.add(ratio);
      }
      if (kr != null) {
        kernelRatios.add(kr);
      }
      r.row(rowValues(keyCols, ra, ra.get("mops"), rb == null ? null : rb.get("mops"), ratio,
          ra.get("kernel_mops"), rb == null ? null : rb.get("kernel_mops"), kr, rb == null ? "only in A" : null));
    }
    for (Map<String, Object> rb : byKey.values()) {
      r.row(rowValues(keyCols, rb, null, rb.get("mops"), null, null, rb.get("kernel_mops"), null, "only in B"));
    }
    r.field("rows_matched", matched);
    r.field("rows_only_in_a", a.size() - matched);
    r.field("rows_only_in_b", byKey.size());
    r.field("geomean_ratio", geomean(ratios));
    r.field("geomean_kernel_ratio", geomean(kernelRatios));
    r.field("ratio", "B/A of M ops/s: above 1 = B faster");
    return r;
  }

  private static Object[] rowValues(List<String> keyCols, Map<String, Object> row, Object... tail) {
    Object[] v = new Object[keyCols.size() + tail.length];
    for (int i = 0; i < keyCols.size(); i++) {
      v[i] = row.get(keyCols.get(i));
    }
    for (int i = 0; i < tail.length; i++) {
      v[keyCols.size() + i] = tail[i];
    }
    return v;
  }

  private static String key(List<String> keyCols, Map<String, Object> row) {
    StringBuilder sb = new StringBuilder();
    for (String k : keyCols) {
      sb.append(ReportWriter.text(row.get(k), "")).append('\u0001');
    }
    return sb.toString();
  }

  static Double ratio(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y && x.doubleValue() > 0 && y.doubleValue() > 0) {
      return y.doubleValue() / x.doubleValue();
    }
    return null;
  }

  private static Double geomean(List<Double> v) {
    if (v.isEmpty()) {
      return null;
    }
    double s = 0;
    for (double x : v) {
      s += Math.log(x);
    }
    return Math.exp(s / v.size());
  }
}
