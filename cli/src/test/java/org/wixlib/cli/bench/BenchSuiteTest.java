package org.wixlib.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.wixlib.cli.Cli;
import org.wixlib.cli.CliTest;
import org.wixlib.cli.report.Chart;
import org.wixlib.cli.report.Json;

/** {@code wixlib bench --suite}: argument handling, the rows of every suite, formats, charts and --out. */
class BenchSuiteTest {
  /** A small but complete run: every suite, cpu kind and the Java baselines. */
  static final String[] SMALL = {"bench", "--suite", "all", "--kind", "cpu", "--keys", "2^12", "--mixed-ops",
    "1000,3000", "--key-ranges", "100,5000", "--load-factors", "0.5,0.9", "--reps", "2", "--warmup", "0",
    "--threads", "2"};

  static String[] with(String[] base, String... more) {
    List<String> a = new ArrayList<>(List.of(base));
    a.addAll(List.of(more));
    return a.toArray(new String[0]);
  }

  @Test
  void usageErrorsExitTwo() {
    String[][] cases = {
      {"bench", "--suite", "bogus"},
      {"bench", "--suite", "static", "--chart", "x.gif"},
      {"bench", "--suite", "load", "--load-factors", "1.2"},
      {"bench", "--suite", "dynamic", "--key-range", "100"},
      {"bench", "--suite", "dynamic", "--mixed-ops", "0"},
      {"bench", "--suite", "dynamic", "--key-ranges", "1"},
      {"bench", "--suite", "static", "--reps", "0"},
      {"bench", "--suite", "static", "--keys", "2^31"},
      {"bench", "--suite", "static", "--max-cpu-keys", "lots"},
      {"bench", "compare", "only-one.json"},
    };
    for (String[] args : cases) {
      Cli r = Cli.run(args);
      assertEquals(2, r.code, String.join(" ", args) + "\n" + r);
      assertTrue(r.out.isEmpty(), "no data on stdout for a usage error: " + r);
    }
    assertTrue(Cli.run("bench", "--suite", "bogus").err.contains("expected static, dynamic, load, baseline or all"));
  }

  @Test
  void suitesParseInPaperOrder() {
    assertEquals(List.of(Suite.STATIC, Suite.BASELINE), SuiteBench.parseSuites(List.of("baseline", "STATIC")));
    assertEquals(List.of(Suite.values()), SuiteBench.parseSuites(List.of("load", "all")));
    assertEquals(List.of(1L << 16, 1L << 17, 1L << 18), SuiteRunner.staticSizes(1L << 18));
    assertEquals(List.of(1L << 16, 100_000L), SuiteRunner.staticSizes(100_000));
    assertEquals(List.of(4096L), SuiteRunner.staticSizes(4096));
  }

  @Test
  void everySuiteRunsOnCpuWithChartsAndOutDir(@TempDir Path dir) throws IOException {
    Path out = dir.resolve("res");
    boolean charts = Chart.drawable();
    String[] args = with(SMALL, "--format", "json", "--out", out.toString());
    Cli r = Cli.run(charts ? with(args, "--chart", dir.resolve("plot.svg").toString()) : args);
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertEquals("bench --suite", o.get("command"));
    assertEquals(List.of("static", "dynamic", "load", "baseline"), o.get("suites"));
    assertEquals(1, o.get("seed"));
    assertNotNull(o.get("cpu_cap"));
    assertTrue(((String) o.get("summary_cpu_over_fastutil")).contains("20/20/60"), r.out);
    List<?> rows = (List<?>) o.get("results");
    Set<String> seen = new HashSet<>();
    for (Object x : rows) {
      @SuppressWarnings("unchecked")
      Map<String, Object> row = (Map<String, Object>) x;
      String suite = (String) row.get("suite");
      String kind = (String) row.get("kind");
      seen.add(suite + " " + kind + " " + row.get("op"));
      assertTrue(((Number) row.get("mops")).doubleValue() > 0, row.toString());
      assertTrue(((Number) row.get("mops_min")).doubleValue() <= ((Number) row.get("mops")).doubleValue(), row.toString());
      assertTrue(((Number) row.get("mops_max")).doubleValue() >= ((Number) row.get("mops")).doubleValue(), row.toString());
      assertEquals(null, row.get("kernel_mops"), "no kernel time for the host: " + row);
      if (suite.equals("dynamic")) {
        assertNotNull(row.get("mix"));
        assertNotNull(row.get("key_range"));
      }
    }
    // static: 4096 keys is below 2^16, so the one size is 4096; 4 ops.
    assertTrue(seen.contains("static cpu find_absent"), seen.toString());
    // dynamic: 2 mixes x 2 op counts x 2 key ranges.
    assertEquals(8, rows.stream().filter(x -> "dynamic".equals(((Map<?, ?>) x).get("suite"))).count());
    // load: 2 load factors x 4 ops + growth and the same inserts presized.
    assertEquals(10, rows.stream().filter(x -> "load".equals(((Map<?, ?>) x).get("suite"))).count());
    assertTrue(seen.contains("load cpu grow_insert"), seen.toString());
    assertTrue(seen.contains("load cpu insert_presized"), seen.toString());
    String growNote = rows.stream().map(x -> (Map<?, ?>) x).filter(x -> "grow_insert".equals(x.get("op")))
        .map(x -> (String) x.get("note")).findFirst().orElseThrow();
    assertTrue(growNote.matches(".*grew [1-9][0-9]*x.*; resizing took -?[0-9]+ % of the time"), growNote);
    for (String t : List.of("cpu", "java-hashmap", "java-chm", "fastutil")) {
      for (String op : List.of("insert", "find_present", "find_absent", "erase", "mixed_20/20/60",
          "mixed_40/40/20")) {
        assertTrue(seen.contains("baseline " + t + " " + op), "missing baseline " + t + " " + op + ": " + seen);
      }
    }

    for (String f : List.of("bench.json", "bench.csv", "bench.txt", "index.html")) {
      assertTrue(Files.size(out.resolve(f)) > 100, f);
    }
    assertEquals(r.out.strip(), Files.readString(out.resolve("bench.json")).strip());
    assertTrue(r.err.contains("done"), "progress bar on stderr: " + r.err);
    if (!charts) {
      assertTrue(r.err.contains("no charts: this Java runtime lacks the java.desktop module"), r.err);
      return;
    }
    for (String f : List.of("bench-static.svg", "bench-dynamic.svg", "bench-load.svg", "bench-baseline.svg",
        "bench-load.png")) {
      assertTrue(Files.size(out.resolve(f)) > 100, f);
    }
    String html = Files.readString(out.resolve("index.html"));
    assertTrue(html.contains("<img src=\"bench-load.svg\""), html);
    for (String s : List.of("static", "dynamic", "load", "baseline")) {
      String svg = Files.readString(dir.resolve("plot-" + s + ".svg"));
      wellFormedSvg(svg);
      assertTrue(svg.contains(">" + s + ": "), "the suite's title: " + s);
      assertTrue(svg.contains("<path"), "XChart's plots (text as outlines too): " + s);
    }
  }

  @Test
  void csvAndTableFormatsAndOneChart(@TempDir Path dir) throws IOException {
    String[] args = {"bench", "--suite", "static", "--kind", "cpu", "--keys", "2^12", "--reps", "1", "--warmup",
      "0", "--threads", "1"};
    Path chart = dir.resolve("static.svg");
    boolean charts = Chart.drawable();
    Cli csv = Cli.run(charts ? with(args, "--format", "csv", "--chart", chart.toString()) : with(args, "--format", "csv"));
    assertEquals(0, csv.code, csv.toString());
    List<String[]> rows = CliTest.csvRows(csv.out);
    assertEquals(List.of(SuiteRunner.COLUMNS), List.of(rows.get(0)));
    assertEquals(5, rows.size(), csv.out);
    assertEquals("static", rows.get(1)[0]);
    assertEquals("4096", rows.get(1)[3]);
    assertTrue(csv.err.contains("\nsuites: static\n"), csv.err);
    if (charts) {
      wellFormedSvg(Files.readString(chart));
    }

    Cli table = Cli.run(args);
    assertEquals(0, table.code, table.toString());
    assertTrue(table.out.startsWith("command:"), table.out);
    assertTrue(table.out.contains("find_absent"), table.out);
    assertFalse(table.out.contains("kernel mops"), "empty kernel columns are left out of the table: " + table.out);
    assertFalse(table.out.contains("  done"), "progress stays off stdout: " + table.out);
  }

  @Test
  void cpuCapSkipsAndCapsLargeSizes() {
    Cli r = Cli.run("bench", "--suite", "static,dynamic", "--kind", "cpu", "--keys", "2^17", "--max-cpu-keys",
        "2^16", "--mixed-ops", "2^17", "--key-ranges", "100", "--mix", "20,20,60", "--reps", "1", "--warmup", "0",
        "--format", "csv");
    assertEquals(0, r.code, r.toString());
    List<String[]> rows = CliTest.csvRows(r.out);
    for (String[] row : rows.subList(1, rows.size())) {
      assertEquals("65536", row[3], "capped at --max-cpu-keys: " + String.join(",", row));
      if (row[0].equals("dynamic")) {
        assertTrue(row[13].contains("capped from 2^17"), row[13]);
      }
    }
    assertTrue(r.err.contains("\ncpu_cap: cpu kind and Java baselines run at most 2^16"), r.err);
  }

  @Test
  void pngChartWhereJavaDesktopIsPresent(@TempDir Path dir) throws IOException {
    Path png = dir.resolve("static.png");
    Cli r = Cli.run("bench", "--suite", "static", "--kind", "cpu", "--keys", "2^12", "--reps", "1", "--warmup", "0",
        "--chart", png.toString());
    if (!Chart.drawable()) {
      // A runtime without java.desktop (the GPU machine's jlinked one): a clear usage error, no rows.
      assertEquals(2, r.code, r.toString());
      assertTrue(r.err.contains("java.desktop"), r.err);
      return;
    }
    assertEquals(0, r.code, r.toString());
    png(png);
  }

  /** A PNG file of some size. */
  static void png(Path file) throws IOException {
    byte[] b = Files.readAllBytes(file);
    assertTrue(b.length > 1000, "PNG size " + b.length);
    byte[] sig = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    for (int i = 0; i < sig.length; i++) {
      assertEquals(sig[i], b[i], "PNG signature byte " + i);
    }
  }

  /** SVG text that parses as XML with an svg root and some drawing in it. */
  static void wellFormedSvg(String svg) {
    try {
      var f = javax.xml.parsers.DocumentBuilderFactory.newInstance();
      f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
      var root = f.newDocumentBuilder().parse(new java.io.ByteArrayInputStream(
          svg.getBytes(java.nio.charset.StandardCharsets.UTF_8))).getDocumentElement();
      assertEquals("svg", root.getNodeName(), "root element");
      assertTrue(root.getElementsByTagName("*").getLength() >= 2, "has content");
    } catch (javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException | IOException e) {
      throw new AssertionError("not well-formed SVG: " + e.getMessage(), e);
    }
  }
}
