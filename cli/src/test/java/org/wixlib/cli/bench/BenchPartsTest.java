package org.wixlib.cli.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.wixlib.Op;
import org.wixlib.Outcome;
import org.wixlib.cli.Progress;
import org.wixlib.cli.ProgressBar;
import org.wixlib.cli.report.Chart;
import org.wixlib.cli.report.Report;
import org.wixlib.cli.report.ChartWriter;

/** The pieces of the suites: Java baselines, summary ratios, chart axes and SVG, the progress bar. */
class BenchPartsTest {
  @Test
  void javaBaselinesMatchAnOracle() {
    for (String name : JavaMap.NAMES) {
      SplittableRandom rnd = new SplittableRandom(5);
      int n = 20_000;
      byte[] ops = new byte[n];
      int[] keys = new int[n];
      int[] values = new int[n];
      for (int i = 0; i < n; i++) {
        int p = rnd.nextInt(3);
        ops[i] = p == 0 ? Op.INSERT : p == 1 ? Op.ERASE : Op.FIND;
        keys[i] = rnd.nextInt(500);
        values[i] = rnd.nextInt();
      }
      // One thread, so the batch runs in order and the oracle's outcomes are the expected ones.
      try (JavaMap m = JavaMap.create(name, 1000, 1)) {
        Map<Integer, Integer> oracle = new HashMap<>();
        int[] prefill = {1, 2, 3};
        m.insert(prefill, prefill);
        for (int k : prefill) {
          oracle.put(k, k);
        }
        int[] got = values.clone();
        byte[] outcomes = new byte[n];
        m.batch(ops, keys, got, outcomes);
        for (int i = 0; i < n; i++) {
          byte want;
          if (ops[i] == Op.INSERT) {
            want = oracle.putIfAbsent(keys[i], values[i]) == null ? Outcome.INSERTED : Outcome.PRESENT;
          } else if (ops[i] == Op.ERASE) {
            want = oracle.remove(keys[i]) != null ? Outcome.ERASED : Outcome.NOT_FOUND;
          } else {
            Integer v = oracle.get(keys[i]);
            want = v == null ? Outcome.NOT_FOUND : Outcome.FOUND;
            if (v != null) {
              assertEquals(v.intValue(), got[i], name + " find value at " + i);
            }
          }
          assertEquals(want, outcomes[i], name + " outcome at " + i);
        }
        assertEquals(oracle.size(), m.size(), name);
        int[] ks = oracle.keySet().stream().mapToInt(Integer::intValue).toArray();
        int[] out = new int[ks.length];
        m.find(ks, out, BenchData.NOT_FOUND);
        for (int i = 0; i < ks.length; i++) {
          assertEquals(oracle.get(ks[i]).intValue(), out[i], name);
        }
        m.erase(ks);
        assertEquals(0, m.size(), name);
        m.find(ks, out, BenchData.NOT_FOUND);
        for (int v : out) {
          assertEquals(BenchData.NOT_FOUND, v, name);
        }
      }
    }
    assertThrows(IllegalArgumentException.class, () -> JavaMap.create("treemap", 1, 1));
  }

  @Test
  void javaMapRunnerChecksAndMeasures() {
    BenchRunner.Params p = new BenchRunner.Params(5000, 0.8, 2, 1, 2, 0);
    BenchData d = new BenchData(3, 5000);
    for (String name : JavaMap.NAMES) {
      List<BenchRunner.Result> rows = new JavaMapRunner(name, p, Progress.SILENT).bulk(d);
      assertEquals(4, rows.size());
      for (BenchRunner.Result r : rows) {
        assertEquals(2, r.endToEnd().count(), name + " " + r.op());
        assertEquals(null, r.kernel());
      }
      BenchData.Mixed m = new BenchData.Mixed(3, new Mix(40, 40, 20), 5000, 300);
      BenchRunner.Result r = new JavaMapRunner(name, p, Progress.SILENT).mixed(m);
      assertEquals("mixed_40/40/20", r.op());
      assertTrue(r.endToEnd().median() > 0);
    }
  }

  @Test
  void splitCoversTheArray() {
    int[] a = new int[10];
    for (int i = 0; i < a.length; i++) {
      a[i] = i;
    }
    int[][] parts = BenchRunner.split(a, 3);
    assertEquals(3, parts.length);
    assertArrayEquals(new int[] {0, 1, 2}, parts[0]);
    assertArrayEquals(new int[] {6, 7, 8, 9}, parts[2]);
    assertEquals(2, BenchRunner.split(new int[] {1, 2}, 8).length);
  }

  @Test
  void summaryRatios() {
    Report r = new Report("results", SuiteRunner.COLUMNS);
    r.row("dynamic", "cpu", "mixed_20/20/60", 100000L, null, "20/20/60", 100L, 10.0, 9.0, 11.0, null, null, null, null);
    r.row("dynamic", "cpu", "mixed_20/20/60", 100000L, null, "20/20/60", 1000L, 20.0, 9.0, 21.0, null, null, null,
        null);
    r.row("dynamic", "glht", "mixed_20/20/60", 100000L, null, "20/20/60", 100L, 40.0, 9.0, 41.0, 400.0, 1.0, 1.0,
        null);
    r.row("dynamic", "glht", "mixed_20/20/60", 100000L, null, "20/20/60", 1000L, 160.0, 9.0, 161.0, 640.0, 1.0, 1.0,
        null);
    // A glht row without a cpu row of the same stream does not count.
    r.row("dynamic", "glht", "mixed_20/20/60", 1L << 24, null, "20/20/60", 1000L, 999.0, 9.0, 999.0, null, null,
        null, null);
    Map<String, Object> s = Summary.of(r);
    // geomean(4, 8) = 5.66; kernel geomean(40, 32) = 35.78
    assertEquals("20/20/60: 5.66x (kernel 35.78x) [2 rows]", s.get("glht_over_cpu"));
    // kernel / end-to-end: 10 and 4 → median of the sorted pair's upper = 10
    assertTrue(((String) s.get("glht_kernel_over_end_to_end")).contains("min 4.00, max 10.00"), s.toString());
    assertFalse(s.containsKey("cpu_over_glht"));
  }

  @Test
  void chartsInBothFormats(@TempDir Path dir) throws IOException {
    Chart c = new Chart("t <&> \"q\"", "sub");
    Chart.Panel p = c.panel("insert", "keys", "M ops/s", Chart.Scale.LOG2, Chart.Scale.LINEAR);
    p.add("glht", false, 1 << 16, 100);
    p.add("glht", false, 1 << 18, 300);
    p.add("glht (kernel)", true, 1 << 16, 900);
    p.add("bad", false, 1 << 16, Double.NaN); // dropped
    Chart.Panel b = c.panel("bars", "", "M ops/s", Chart.Scale.LINEAR, Chart.Scale.LOG10);
    b.bar("cpu", false, "insert", 10);
    b.bar("fastutil", false, "insert", 30);
    b.bar("cpu", false, "find", 50);
    b.bar("zero", false, "find", 0); // not drawable on a log axis: dropped
    assertEquals(List.of("insert", "find"), b.categories);
    assertFalse(b.series.containsKey("zero"));
    assertFalse(p.series.containsKey("bad"));
    assertEquals("svg", Chart.fileFormat(Path.of("a/B.SVG")));
    assertEquals("png", Chart.fileFormat(Path.of("b.png")));
    assertEquals(null, Chart.fileFormat(Path.of("c.gif")));
    assumeTrue(Chart.drawable(), "no java.desktop in this runtime: no charts");

    ChartWriter.write(c, dir.resolve("c.svg"));
    String svg = Files.readString(dir.resolve("c.svg"));
    BenchSuiteTest.wellFormedSvg(svg);
    ChartWriter.write(c, dir.resolve("c.png"));
    BenchSuiteTest.png(dir.resolve("c.png"));
    ChartWriter.write(new Chart("empty", ""), dir.resolve("empty.svg"));
    BenchSuiteTest.wellFormedSvg(Files.readString(dir.resolve("empty.svg")));
  }

  @Test
  void progressBar() {
    StringBuilder sb = new StringBuilder();
    Progress p = new Progress() {
      @Override
      public void progress(String line) {
        sb.append(line).append('\n');
      }

      @Override
      public void detail(String line) {}
    };
    ProgressBar bar = new ProgressBar(p, 4);
    bar.step("a");
    bar.step("b");
    bar.done();
    String[] lines = sb.toString().split("\n");
    assertEquals(3, lines.length);
    assertTrue(lines[0].startsWith("[........................]   0/4"), lines[0]);
    assertTrue(lines[1].startsWith("[######..................]   1/4"), lines[1]);
    assertTrue(lines[1].endsWith(" b"), lines[1]);
    assertTrue(lines[2].startsWith("[########################]   4/4"), lines[2]);
    assertEquals("1:05", ProgressBar.time(65));
  }

  @Test
  void aFailingStepIsReportedAndTheOthersStillRun() {
    org.junit.jupiter.api.Assumptions.assumeFalse(org.wixlib.Wixlib.isAvailable(org.wixlib.TableKind.GLHT),
        "needs a kind that fails here: glht without a GPU");
    // The runner is handed glht directly (the command would report it unavailable instead).
    SuiteRunner.Config c = new SuiteRunner.Config(List.of(Suite.STATIC), List.of(org.wixlib.TableKind.GLHT,
        org.wixlib.TableKind.CPU), 1, 1, 0, 1, 0, 4096, 1 << 20, 1 << 20, List.of(1000L), List.of(100L),
        List.of(new Mix(20, 20, 60)), List.of(0.5), 4096, 4096);
    Report r = new Report("results", SuiteRunner.COLUMNS);
    SuiteRunner runner = new SuiteRunner(c, r, Progress.SILENT);
    runner.run();
    assertEquals(1, runner.failures().size(), runner.failures().toString());
    assertTrue(runner.failures().get(0).startsWith("static glht"), runner.failures().toString());
    assertEquals(5, r.rows().size(), "one FAILED row for glht, four cpu rows");
    assertEquals("glht", r.rows().get(0).get(1));
    assertTrue(((String) r.rows().get(0).get(13)).startsWith("FAILED: "), r.rows().get(0).toString());
    assertEquals("cpu", r.rows().get(1).get(1));
  }

  @Test
  void wideKeysAreDistinctNeverReservedAndWidenTheNarrowOnes() {
    BenchData d = new BenchData(7, 1 << 14, 64);
    java.util.Set<Long> seen = new java.util.HashSet<>();
    for (long[] a : new long[][] {d.keys64, d.absent64}) {
      for (long k : a) {
        assertTrue(k != -1L && k != -2L, "reserved key " + k);
        assertTrue(seen.add(k), "duplicate key " + k);
      }
    }
    for (long v : d.values64) {
      assertTrue(v != BenchData.NOT_FOUND);
    }
    assertEquals(d.keys[5], (int) (d.keys64[5] >>> 32), "the high half is the 32-bit key");
    assertEquals(d.keys.length, new BenchData(7, 1 << 14).keys.length);
  }
}
