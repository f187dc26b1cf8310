package org.wixlib.cli.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.wixlib.cli.Texts;
import org.wixlib.cli.report.Report;

/**
 * The ratios a reader looks for, computed from the rows of a suite run: each GPU kind over cpu on the
 * same streams (per mix and on the bulk ops; geometric mean over the matching rows), the kernel-only
 * over end-to-end throughput of each GPU kind (what the Java/FFM path and PCIe cost), and the cpu kind
 * over each Java baseline.
 */
public final class Summary {
  private Summary() {}

  /** Summary fields (name → text) from rows with {@link SuiteRunner#COLUMNS}. */
  static Map<String, Object> of(Report r) {
    List<String> cols = r.columns();
    int suite = cols.indexOf("suite");
    int kind = cols.indexOf("kind");
    int op = cols.indexOf("op");
    int mops = cols.indexOf("mops");
    int kmops = cols.indexOf("kernel_mops");
    Map<String, Object> out = new LinkedHashMap<>();
    List<String> kinds = new ArrayList<>();
    for (List<Object> row : r.rows()) {
      String k = (String) row.get(kind);
      if (!kinds.contains(k)) {
        kinds.add(k);
      }
    }
    for (String g : kinds) {
      List<Double> e2eOverKernel = new ArrayList<>();
      for (List<Object> row : r.rows()) {
        if (g.equals(row.get(kind)) && num(row.get(mops)) != null && num(row.get(kmops)) != null) {
          e2eOverKernel.add(num(row.get(kmops)) / num(row.get(mops)));
        }
      }
      if (!e2eOverKernel.isEmpty()) {
        Collections.sort(e2eOverKernel);
        out.put(g + "_kernel_over_end_to_end", "median " + Texts.fixed2(e2eOverKernel.get(e2eOverKernel.size() / 2))
            + " (min " + Texts.fixed2(e2eOverKernel.get(0)) + ", max "
            + Texts.fixed2(e2eOverKernel.get(e2eOverKernel.size() - 1)) + ") over " + e2eOverKernel.size() + " rows");
      }
    }
    for (String g : kinds) {
      for (String base : kinds) {
        boolean gpuVsCpu = (g.equals("glht") || g.equals("hive")) && base.equals("cpu");
        boolean cpuVsJava = g.equals("cpu") && List.of(JavaMap.NAMES).contains(base);
        if (!gpuVsCpu && !cpuVsJava) {
          continue;
        }
        Map<String, List<double[]>> groups = new LinkedHashMap<>();
        for (List<Object> a : r.rows()) {
          if (!g.equals(a.get(kind)) || num(a.get(mops)) == null) {
            continue;
          }
          for (List<Object> b : r.rows()) {
            if (base.equals(b.get(kind)) && sameStream(cols, a, b) && num(b.get(mops)) != null) {
              String o = (String) a.get(op);
              String group = o.startsWith("mixed_") ? o.substring(6) : "bulk " + a.get(suite);
              Double k = num(a.get(kmops));
              groups.computeIfAbsent(group, x -> new ArrayList<>()).add(new double[] {
                num(a.get(mops)) / num(b.get(mops)), k == null ? Double.NaN : k / num(b.get(mops))});
            }
          }
        }
        if (groups.isEmpty()) {
          continue;
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, List<double[]>> e : groups.entrySet()) {
          double ge = geomean(e.getValue(), 0);
          double gk = geomean(e.getValue(), 1);
          parts.add(e.getKey() + ": " + Texts.fixed2(ge) + "x" + (Double.isNaN(gk) ? "" : " (kernel "
              + Texts.fixed2(gk) + "x)") + " [" + e.getValue().size() + " rows]");
        }
        out.put(g + "_over_" + base, String.join("; ", parts));
      }
    }
    return out;
  }

  /** Same suite, op, n, load factor, mix and key range. */
  private static boolean sameStream(List<String> cols, List<Object> a, List<Object> b) {
    for (String c : List.of("suite", "op", "n", "load_factor", "mix", "key_range")) {
      int i = cols.indexOf(c);
      if (!Objects.equals(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static Double num(Object v) {
    return v instanceof Number n && Double.isFinite(n.doubleValue()) && n.doubleValue() > 0 ? n.doubleValue() : null;
  }

  /** Geometric mean of column i over the rows (NaN entries skipped; NaN when none is left). */
  public static double geomean(List<double[]> v, int i) {
    double s = 0;
    int n = 0;
    for (double[] x : v) {
      if (!Double.isNaN(x[i])) {
        s += Math.log(x[i]);
        n++;
      }
    }
    return n == 0 ? Double.NaN : Math.exp(s / n);
  }
}
