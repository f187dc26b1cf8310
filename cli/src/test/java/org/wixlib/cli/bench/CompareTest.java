package org.wixlib.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.wixlib.cli.Cli;
import org.wixlib.cli.CliTest;
import org.wixlib.cli.report.Json;
import org.wixlib.cli.report.Json;
import org.wixlib.cli.report.Report;

/** {@code wixlib bench compare}: rows matched on their identity, ratios B/A, rows only on one side. */
class CompareTest {
  static Map<String, Object> row(String suite, String kind, String op, long n, Double mops, Double kernel) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("suite", suite);
    m.put("kind", kind);
    m.put("op", op);
    m.put("n", n);
    m.put("mops", mops);
    m.put("mops_min", mops);
    m.put("kernel_mops", kernel);
    m.put("note", "load 0.8");
    return m;
  }

  @Test
  void ratiosPerRowAndGeomean() {
    List<Map<String, Object>> a = List.of(row("static", "glht", "insert", 1024, 100.0, 400.0),
        row("static", "glht", "find_present", 1024, 200.0, 800.0), row("static", "cpu", "insert", 1024, 10.0, null));
    List<Map<String, Object>> b = List.of(row("static", "glht", "find_present", 1024, 50.0, 800.0),
        row("static", "glht", "insert", 1024, 400.0, 800.0), row("static", "hive", "insert", 1024, 300.0, null));
    Report r = CompareCommand.compare(a, b);
    assertEquals(List.of("suite", "kind", "op", "n", "a_mops", "b_mops", "ratio", "a_kernel_mops",
        "b_kernel_mops", "kernel_ratio", "note"), r.columns());
    assertEquals(4, r.rows().size());
    List<Object> insert = r.rows().get(0);
    assertEquals("insert", insert.get(2));
    assertEquals(1024L, insert.get(3));
    assertEquals(4.0, (Double) insert.get(6), 1e-12);
    assertEquals(2.0, (Double) insert.get(9), 1e-12);
    assertEquals(0.25, (Double) r.rows().get(1).get(6), 1e-12);
    assertEquals(1.0, (Double) r.rows().get(1).get(9), 1e-12);
    assertEquals("only in A", r.rows().get(2).get(10));
    assertEquals(null, r.rows().get(2).get(6));
    assertEquals("only in B", r.rows().get(3).get(10));
    assertEquals(1.0, (Double) r.fields().get("geomean_ratio"), 1e-12); // sqrt(4 * 0.25)
    assertEquals(Math.sqrt(2.0), (Double) r.fields().get("geomean_kernel_ratio"), 1e-12);
    assertEquals(2, r.fields().get("rows_matched"));
    assertEquals(1, r.fields().get("rows_only_in_a"));
    assertEquals(1, r.fields().get("rows_only_in_b"));
  }

  @Test
  void compareTwoRealRuns(@TempDir Path dir) throws IOException {
    String[] args = {"bench", "--suite", "static", "--kind", "cpu", "--keys", "2^12", "--reps", "1", "--warmup",
      "0", "--format", "json"};
    Cli a = Cli.run(args);
    assertEquals(0, a.code, a.toString());
    Path fa = dir.resolve("a.json");
    Path fb = dir.resolve("b.json");
    Files.writeString(fa, a.out);
    // B: the same run with every throughput doubled.
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(a.out);
    for (Object x : (List<?>) o.get("results")) {
      @SuppressWarnings("unchecked")
      Map<String, Object> row = (Map<String, Object>) x;
      row.put("mops", (Double) row.get("mops") * 2);
    }
    Files.writeString(fb, Json.write(o));
    Cli c = Cli.run("bench", "compare", fa.toString(), fb.toString(), "--format", "csv");
    assertEquals(0, c.code, c.toString());
    List<String[]> rows = CliTest.csvRows(c.out);
    assertEquals("ratio", rows.get(0)[rows.get(0).length - 5]);
    assertEquals(5, rows.size(), c.out);
    for (String[] row : rows.subList(1, rows.size())) {
      assertEquals(2.0, Double.parseDouble(row[row.length - 5]), 1e-3, String.join(",", row));
    }
    assertTrue(c.err.contains("geomean_ratio: 2.00"), c.err);

    Cli t = Cli.run("bench", "compare", fa.toString(), fb.toString());
    assertEquals(0, t.code, t.toString());
    assertTrue(t.out.contains("rows matched:"), t.out);

    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\"command\": \"info\"}");
    Cli e = Cli.run("bench", "compare", fa.toString(), bad.toString());
    assertEquals(2, e.code, e.toString());
    assertTrue(e.err.contains("no \"results\" list"), e.err);
    assertEquals(2, Cli.run("bench", "compare", fa.toString(), dir.resolve("missing.json").toString()).code);
    Files.writeString(bad, "{not json");
    assertEquals(2, Cli.run("bench", "compare", bad.toString(), fa.toString()).code);
  }
}
