package org.wixlib.cli.report;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints a {@link Report} as an aligned table, plain CSV (RFC 4180: a header line, then rows; no
 * comment lines) or one JSON object.
 */
public final class ReportWriter {
  private ReportWriter() {}

  /** As {@link #write(Report, Format, PrintWriter, PrintWriter)} with the CSV header fields left out. */
  public static void write(Report report, Format format, PrintWriter out) {
    write(report, format, out, null);
  }

  /**
   * Writes the report to out. CSV has no place for the header fields of a report with rows: they go
   * to meta as "key: value" lines (stderr in the CLI; null drops them; JSON and the table keep them).
   * A report of fields only is CSV of two columns, field and value.
   */
  public static void write(Report report, Format format, PrintWriter out, PrintWriter meta) {
    switch (format) {
      case TABLE -> table(report, out);
      case CSV -> csv(report, out, meta);
      case JSON -> out.println(Json.write(jsonObject(report)));
    }
    out.flush();
    if (meta != null) {
      meta.flush();
    }
  }

  // ---- table ---------------------------------------------------------------------------------

  private static void table(Report r, PrintWriter out) {
    int width = 0;
    for (String k : r.fields().keySet()) {
      width = Math.max(width, label(k).length());
    }
    for (Map.Entry<String, Object> e : r.fields().entrySet()) {
      out.printf("%-" + (width + 1) + "s %s%n", label(e.getKey()) + ":", text(e.getValue(), "-"));
    }
    if (r.columns().isEmpty()) {
      return;
    }
    if (!r.fields().isEmpty()) {
      out.println();
    }
    if (r.rows().isEmpty()) {
      out.println("(no " + label(r.rowsName()) + ")");
      return;
    }
    // Columns empty in every row (e.g. kernel-only columns of a CPU run) are left out of the table.
    List<Integer> shown = new ArrayList<>();
    for (int c = 0; c < r.columns().size(); c++) {
      for (List<Object> row : r.rows()) {
        if (row.get(c) != null) {
          shown.add(c);
          break;
        }
      }
    }
    int n = shown.size();
    List<String[]> cells = new ArrayList<>();
    String[] head = new String[n];
    for (int c = 0; c < n; c++) {
      head[c] = label(r.columns().get(shown.get(c)));
    }
    cells.add(head);
    boolean[] numeric = new boolean[n];
    for (int c = 0; c < n; c++) {
      numeric[c] = true;
    }
    for (List<Object> row : r.rows()) {
      String[] line = new String[n];
      for (int c = 0; c < n; c++) {
        Object v = row.get(shown.get(c));
        line[c] = text(v, "-");
        if (v != null && !(v instanceof Number)) {
          numeric[c] = false;
        }
      }
      cells.add(line);
    }
    int[] w = new int[n];
    for (String[] line : cells) {
      for (int c = 0; c < n; c++) {
        w[c] = Math.max(w[c], line[c].length());
      }
    }
    for (String[] line : cells) {
      StringBuilder sb = new StringBuilder();
      for (int c = 0; c < n; c++) {
        if (c > 0) {
          sb.append("  ");
        }
        String fmt = numeric[c] ? "%" + w[c] + "s" : "%-" + w[c] + "s";
        sb.append(String.format(Locale.ROOT, fmt, line[c]));
      }
      out.println(sb.toString().stripTrailing());
    }
  }

  private static String label(String key) {
    return key.replace('_', ' ');
  }

  /** A value as text: doubles with 2 decimals, lists comma-joined, null as the given dash. */
  public static String text(Object v, String none) {
    if (v == null) {
      return none;
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      return Double.isFinite(d) ? String.format(Locale.ROOT, "%.2f", d) : none;
    }
    if (v instanceof List<?> list) {
      List<String> parts = new ArrayList<>();
      for (Object o : list) {
        parts.add(text(o, none));
      }
      return parts.isEmpty() ? "none" : String.join(", ", parts);
    }
    return v.toString();
  }

  // ---- CSV -----------------------------------------------------------------------------------

  private static void csv(Report r, PrintWriter out, PrintWriter meta) {
    if (r.columns().isEmpty()) {
      out.println(csvLine(List.of("field", "value")));
      for (Map.Entry<String, Object> e : r.fields().entrySet()) {
        out.println(csvLine(List.of(e.getKey(), csvValue(e.getValue()))));
      }
      return;
    }
    for (Map.Entry<String, Object> e : meta == null ? Map.<String, Object>of().entrySet() : r.fields().entrySet()) {
      meta.println(e.getKey() + ": " + text(e.getValue(), "").replace('\n', ' '));
    }
    out.println(csvLine(new ArrayList<>(r.columns())));
    for (List<Object> row : r.rows()) {
      List<Object> cells = new ArrayList<>();
      for (Object v : row) {
        cells.add(csvValue(v));
      }
      out.println(csvLine(cells));
    }
  }

  private static String csvValue(Object v) {
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      return Double.isFinite(d) ? String.format(Locale.ROOT, "%.4f", d) : "";
    }
    return text(v, "");
  }

  private static String csvLine(List<?> cells) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      String s = cells.get(i) == null ? "" : cells.get(i).toString();
      if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0) {
        s = '"' + s.replace("\"", "\"\"") + '"';
      }
      sb.append(s);
    }
    return sb.toString();
  }

  // ---- JSON ----------------------------------------------------------------------------------

  private static Map<String, Object> jsonObject(Report r) {
    Map<String, Object> o = new java.util.LinkedHashMap<>(r.fields());
    if (!r.columns().isEmpty()) {
      List<Object> rows = new ArrayList<>();
      for (List<Object> row : r.rows()) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (int c = 0; c < r.columns().size(); c++) {
          m.put(r.columns().get(c), row.get(c));
        }
        rows.add(m);
      }
      o.put(r.rowsName(), rows);
    }
    return o;
  }
}
