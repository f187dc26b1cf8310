package org.wixlib.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.wixlib.TableKind;
import org.wixlib.cli.report.Json;

/** The CLI on the GPU kinds: skipped visibly without a GPU, failing then when WIXLIB_REQUIRE_GPU=1. */
class GpuCliTest {
  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void verifyPasses(TableKind kind) {
    Cli.assumeKind(kind);
    Cli r = Cli.run("verify", "--kind", Texts.kindName(kind), "--ops", "2^20", "--batch", "2^15",
        "--seed", "3", "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertEquals("PASS", o.get("result"));
    assertEquals(0, o.get("mismatches"));
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void verifyZipfWithInterleavedResizes(TableKind kind) {
    Cli.assumeKind(kind);
    Cli r = Cli.run("verify", "--kind", Texts.kindName(kind), "--ops", "2^21", "--batch", "2^16", "--seed", "5",
        "--hot-fraction", "0.5", "--zipf", "0.99", "--resize-every", "4", "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertEquals("PASS", o.get("result"));
    assertEquals(16, o.get("zipf_batches"));
    assertEquals(8, o.get("explicit_resizes"));
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void verify64BitKeysWithZipfAndResizes(TableKind kind) {
    Cli.assumeKind(kind);
    Cli r = Cli.run("verify", "--kind", Texts.kindName(kind), "--key-bits", "64", "--ops", "2^21", "--batch", "2^16",
        "--seed", "6", "--hot-fraction", "0.5", "--zipf", "0.99", "--resize-every", "4", "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertEquals("PASS", o.get("result"));
    assertEquals(64, o.get("key_bits"));
    assertEquals(16, o.get("zipf_batches"));
    assertEquals(8, o.get("explicit_resizes"));
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void joinRowsCarryTheLinkBound(TableKind kind) {
    Cli.assumeKind(kind);
    Cli r = Cli.run("join", "--sf", "0.01", "--kind", Texts.kindName(kind), "--memory", "heap,pinned", "--reps", "1",
        "--warmup", "1", "--java-reps", "1", "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertTrue(((Number) o.get("link_h2d_gbs")).doubleValue() > 0, r.out);
    int bounded = 0;
    for (Object x : (List<?>) o.get("results")) {
      @SuppressWarnings("unchecked")
      Map<String, Object> row = (Map<String, Object>) x;
      if (!Texts.kindName(kind).equals(row.get("kind"))) {
        continue;
      }
      double bound = ((Number) row.get("bound_ms")).doubleValue();
      double pct = ((Number) row.get("pct_of_bound")).doubleValue();
      double total = ((Number) row.get("total_ms")).doubleValue();
      assertTrue(bound > 0 && bound <= total, "no join beats the bytes it moves: " + row);
      assertEquals(100 * bound / total, pct, 0.02 * pct + 0.01, row.toString());
      bounded++;
    }
    assertEquals(2 * 6, bounded, r.out);
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void benchHasHeapAndDeviceRowsWithBounds(TableKind kind) {
    Cli.assumeKind(kind);
    Cli r = Cli.run("bench", "--kind", Texts.kindName(kind), "--keys", "2^18", "--reps", "2", "--warmup", "1",
        "--mix", "20,20,60", "--format", "csv");
    assertEquals(0, r.code, r.toString());
    List<String[]> rows = CliTest.csvRows(r.out);
    assertEquals(11, rows.size(), r.out);
    for (String[] row : rows.subList(1, rows.size())) {
      assertBounded(row);
    }
    assertEquals(List.of("heap", "device"), rows.subList(1, rows.size()).stream().map(x -> x[1]).distinct().toList());
    assertTrue(r.err.contains("\ngpu: "), "CSV's header fields go to stderr: " + r.err);
    assertLinkInHeader(r.err);
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void wideBenchOnEveryMemoryPath(TableKind kind) {
    Cli.assumeKind(kind);
    Cli r = Cli.run("bench", "--kind", Texts.kindName(kind), "--key-bits", "64", "--keys", "2^18", "--reps", "2",
        "--warmup", "1", "--memory", "all", "--format", "csv");
    assertEquals(0, r.code, r.toString());
    assertTrue(r.err.contains("\nkey_bits: 64"), r.err);
    List<String[]> rows = CliTest.csvRows(r.out);
    assertEquals(1 + 4 * 4, rows.size(), r.out);
    for (String[] row : rows.subList(1, rows.size())) {
      assertBounded(row);
    }
    assertEquals(List.of("heap", "native", "pinned", "device"),
        rows.subList(1, rows.size()).stream().map(x -> x[1]).distinct().toList());
    assertLinkInHeader(r.err);
  }

  /** A GPU row: a rate, a bound and its share; the device path is its own bound. */
  private static void assertBounded(String[] row) {
    String line = String.join(",", row);
    assertTrue(Double.parseDouble(row[4]) > 0, line);
    assertTrue(Double.parseDouble(row[7]) > 0, "bound of a GPU row: " + line);
    double pct = Double.parseDouble(row[8]);
    assertTrue(pct > 0, line);
    if (row[1].equals("device")) {
      assertEquals(100, pct, 1e-6, line);
    }
  }

  /** The measured link among CSV's header fields, which go to stderr as key: value lines. */
  private static void assertLinkInHeader(String err) {
    for (String f : List.of("link_h2d_gbs", "link_d2h_gbs", "link_both_gbs", "host_copy_gbs", "host_copy_join_gbs")) {
      String line = err.lines().filter(l -> l.startsWith(f + ": ")).findFirst().orElse(null);
      assertTrue(line != null, f + " in the header: " + err);
      assertTrue(Double.parseDouble(line.substring(f.length() + 2)) > 0, line);
    }
    assertTrue(err.contains("\nhost_copy_threads: ") && err.contains("\nhost_copy_join_threads: "), err);
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void everySuiteHasKernelColumnsAndRatios(TableKind kind) {
    Cli.assumeKind(kind);
    String name = Texts.kindName(kind);
    Cli r = Cli.run("bench", "--suite", "all", "--kind", name + ",cpu", "--keys", "2^16", "--mixed-ops", "2^14",
        "--key-ranges", "100,10000", "--load-factors", "0.5,0.9", "--reps", "1", "--warmup", "1", "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    // The suites run the same plan for every kind: the GPU kind has as many rows in each suite as the cpu
    // kind (whose counts BenchSuiteTest pins on any machine), each with a kernel-only time.
    Map<String, Integer> gpuRows = new TreeMap<>();
    Map<String, Integer> cpuRows = new TreeMap<>();
    for (Object x : (List<?>) o.get("results")) {
      Map<?, ?> row = (Map<?, ?>) x;
      assertTrue(((Number) row.get("mops")).doubleValue() > 0, row.toString());
      if (name.equals(row.get("kind"))) {
        gpuRows.merge((String) row.get("suite"), 1, Integer::sum);
        assertTrue(row.get("kernel_mops") instanceof Number k && k.doubleValue() > 0, "kernel-only time: " + row);
      } else if ("cpu".equals(row.get("kind"))) {
        cpuRows.merge((String) row.get("suite"), 1, Integer::sum);
      }
    }
    assertEquals(List.of("baseline", "dynamic", "load", "static"), List.copyOf(cpuRows.keySet()), r.out);
    assertEquals(cpuRows, gpuRows, "rows per suite of " + name + " and of cpu");
    assertTrue(o.get("summary_" + name + "_over_cpu") instanceof String, r.out);
    assertTrue(o.get("summary_" + name + "_kernel_over_end_to_end") instanceof String, r.out);
    assertTrue(((String) o.get("gpu_cap")).startsWith("GPU kinds run at most"), r.out);
  }
}
