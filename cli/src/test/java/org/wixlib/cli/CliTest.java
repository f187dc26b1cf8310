package org.wixlib.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;
import org.wixlib.cli.report.Json;
import picocli.CommandLine;

/** The CLI end to end, in-process, on the CPU kind (runs on every machine). */
public class CliTest {
  @Test
  void helpOnEveryCommandExitsZero() {
    List<List<String>> commands = new ArrayList<>();
    commands.add(List.of());
    for (String name : Main.commandLine().getSubcommands().keySet()) {
      commands.add(List.of(name));
    }
    assertTrue(commands.size() >= 4, commands.toString());
    for (List<String> c : commands) {
      List<String> args = new ArrayList<>(c);
      args.add("--help");
      Cli r = Cli.run(args.toArray(String[]::new));
      assertEquals(0, r.code, args + "\n" + r);
      assertTrue(r.out.contains("Usage: wixlib"), r.toString());
    }
    assertEquals(0, Cli.run("help", "bench").code);
  }

  @Test
  void helpTeachesWithDefaultsAndExamples() {
    Cli r = Cli.run("bench", "--help");
    assertTrue(r.out.contains("--keys=N"), r.out);
    assertTrue(r.out.contains("Default: 2^24 when a GPU"), r.out);
    assertTrue(r.out.contains("--suite=NAME"), r.out);
    assertTrue(r.out.contains("Examples:"), r.out);
    assertTrue(r.out.contains("kernel_mops"), r.out);
    assertTrue(r.out.contains("--memory=PATH") && r.out.contains("pct_of_bound"), r.out);
    assertTrue(Cli.run("verify", "--help").out.contains("wixlib verify --kind cpu --ops 10M"));
    assertTrue(Cli.run("verify", "--help").out.contains("--key-bits 64"));
  }

  @Test
  void helpTextsHaveNoStrayFormatCharacters() {
    // picocli formats command descriptions and footers with String.format: a lone '%' breaks the text
    // (only %% and %n are meant). Option descriptions are not formatted that way.
    List<CommandLine> all = new ArrayList<>();
    all.add(Main.commandLine());
    all.addAll(Main.commandLine().getSubcommands().values());
    for (CommandLine cl : all) {
      var spec = cl.getCommandSpec();
      List<String> texts = new ArrayList<>();
      texts.addAll(List.of(spec.usageMessage().description()));
      texts.addAll(List.of(spec.usageMessage().footer()));
      for (String t : texts) {
        assertFalse(t.replace("%%", "").replace("%n", "").contains("%"), spec.qualifiedName() + ": " + t);
      }
    }
  }

  @Test
  void versionNamesEveryPart() {
    Cli r = Cli.run("--version");
    assertEquals(0, r.code, r.toString());
    assertTrue(r.out.contains("wixlib CLI"), r.out);
    assertTrue(r.out.contains("libwixlib " + Wixlib.nativeVersion()), r.out);
    assertTrue(r.out.contains("CUDA runtime"), r.out);
    assertEquals(0, Cli.run("info", "--version").code);
  }

  @Test
  void usageErrorsExitTwo() {
    String[][] cases = {
      {},
      {"frobnicate"},
      {"info", "--no-such-option"},
      {"bench", "--keys", "many"},
      {"bench", "--kind", "cuckoo"},
      {"verify", "--kind", "quadratic"},
      {"verify", "--kind", "cpu,glht"},
      {"bench", "--load-factor", "1.5"},
      {"bench", "--load-factor", "0.01"},
      {"bench", "--threads", "-1"},
      {"bench", "--device", "-1"},
      {"bench", "--reps", "0"},
      {"bench", "--mix", "50,60,10"},
      {"bench", "--key-range", "100"},
      {"verify", "--ops", "0"},
      {"verify", "--format", "xml"},
      {"verify", "--kind", "cpu", "--batch", "1000", "--key-range", "10"},
      {"verify", "--zipf", "-1"},
      {"verify", "--resize-every", "-2"},
      {"verify", "--kind", "cpu", "--key-bits", "48"},
      {"verify", "--kind", "cpu", "--check-threads", "-1"},
      {"bench", "--key-bits", "48"},
      {"bench", "--key-bits", "64", "--mix", "20,20,60"},
      {"bench", "--key-bits", "64", "--suite", "static"},
      {"bench", "--memory", "gpu"},
      {"bench", "--memory", "pinned", "--suite", "static"},
    };
    for (String[] args : cases) {
      Cli r = Cli.run(args);
      assertEquals(2, r.code, String.join(" ", args) + "\n" + r);
      assertTrue(r.err.startsWith("wixlib: ") || r.err.contains("Usage:"), r.toString());
      assertTrue(r.out.isEmpty(), "no data on stdout for a usage error: " + r);
    }
    assertTrue(Cli.run("bench", "--kind", "cuckoo").err.contains("expected cpu, glht or hive"));
    // Limits the library owns come with the library's message.
    assertTrue(Cli.run("bench", "--load-factor", "0.01").err.contains("--load-factor must be in [0.05"));
  }

  @Test
  void unavailableGpuKindExitsThree() {
    assumeFalse(Wixlib.isAvailable(TableKind.GLHT), "a GPU is usable here; this checks the no-GPU path");
    Cli v = Cli.run("verify", "--kind", "glht", "--ops", "1000");
    assertEquals(3, v.code, v.toString());
    assertTrue(v.err.contains("glht"), v.err);
    assertFalse(v.err.contains("at org."), "no stack trace without -v: " + v.err);

    Cli b = Cli.run("bench", "--kind", "cpu,hive", "--keys", "1000", "--reps", "1", "--warmup", "0",
        "--format", "csv");
    assertEquals(3, b.code, b.toString());
    List<String[]> rows = csvRows(b.out);
    assertTrue(rows.stream().anyMatch(r -> r[0].equals("cpu") && r[2].equals("insert")), b.out);
    assertTrue(rows.stream().anyMatch(r -> r[0].equals("hive") && r[9].startsWith("unavailable")), b.out);
  }

  @Test
  void infoInEveryFormat() {
    Cli t = Cli.run("info");
    assertEquals(0, t.code, t.toString());
    assertTrue(t.out.contains("native version:"), t.out);
    assertTrue(t.out.contains("kinds available:") && t.out.contains("cpu"), t.out);

    Cli j = Cli.run("info", "--format", "json");
    assertEquals(0, j.code, j.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(j.out);
    assertEquals(Wixlib.nativeVersion(), o.get("native_version"));
    assertTrue(((List<?>) o.get("kinds_available")).contains("cpu"));
    assertEquals(((Number) o.get("device_count")).intValue(), ((List<?>) o.get("devices")).size());

    Cli c = Cli.run("info", "--format", "CSV");
    assertEquals(0, c.code, c.toString());
    assertTrue(c.err.contains("native_version: " + Wixlib.nativeVersion()), c.err);
    assertEquals(List.of("ordinal", "name", "memory_total_mib", "memory_free_mib", "compute_capability",
        "multiprocessors"), List.of(csvRows(c.out).get(0)));
  }

  @Test
  void benchWideKeysOnCpu() {
    Cli r = Cli.run("bench", "--kind", "cpu", "--key-bits", "64", "--keys", "2^12", "--reps", "1", "--warmup", "0",
        "--threads", "2", "--format", "csv");
    assertEquals(0, r.code, r.toString());
    assertTrue(r.err.contains("\nkey_bits: 64\n"), r.err);
    assertTrue(r.err.contains("\nbytes_per_op: insert 16 B in + 1 B out, find 8 B in + 8 B out, erase 8 B in + 1 B out\n"),
        r.err);
    List<String> ops = new ArrayList<>();
    for (String[] row : csvRows(r.out).subList(1, 5)) {
      assertEquals("cpu", row[0]);
      assertEquals("heap", row[1]);
      ops.add(row[2]);
      assertTrue(Double.parseDouble(row[4]) > 0, row[4]);
    }
    assertEquals(List.of("insert", "find_present", "find_absent", "erase"), ops);
    assertTrue(r.err.contains("cpu (64-bit)"), r.err);
  }

  @Test
  void benchWithoutAKindSaysPlainlyWhenItMeasuredTheCpuTable() {
    boolean gpu = Wixlib.isAvailable(org.wixlib.TableKind.GLHT);
    Cli r = Cli.run("bench", "--keys", "2^12", "--reps", "1", "--warmup", "0");
    assertEquals(0, r.code, r.toString());
    assertEquals(!gpu, r.err.contains("no GPU found: measured the CPU table ("), r.err);
    assertFalse(Cli.run("bench", "--kind", "cpu", "--keys", "2^12", "--reps", "1", "--warmup", "0").err
        .contains("no GPU found"), "asking for the CPU table is no fallback");
    if (!gpu) {
      assertTrue(r.out.contains("\ncpu "), r.out);
      assertFalse(Cli.run("bench", "--keys", "2^12", "--reps", "1", "--warmup", "0", "--quiet").err
          .contains("no GPU found"), "--quiet keeps stderr empty");
    }
  }

  @Test
  void benchCpuProducesRowsInEveryFormat() {
    String[] base = {"bench", "--kind", "cpu", "--keys", "2^12", "--reps", "2", "--warmup", "0",
        "--mix", "20,20,60", "--key-range", "1000", "--threads", "2"};
    Cli csv = run(base, "--format", "csv");
    assertEquals(0, csv.code, csv.toString());
    assertTrue(csv.err.contains("\nkeys: 4096\n"), csv.err);
    assertTrue(csv.err.contains("\nseed: 1\n"), csv.err);
    assertFalse(csv.out.contains("#"), "plain CSV: no comment lines: " + csv.out);
    List<String[]> rows = csvRows(csv.out);
    assertEquals(List.of("kind", "path", "op", "n", "mops", "mops_min", "mops_max", "bound", "pct_of_bound", "note"),
        List.of(rows.get(0)));
    List<String> ops = new ArrayList<>();
    for (String[] r : rows.subList(1, rows.size())) {
      assertEquals(10, r.length);
      assertEquals("cpu", r[0]);
      assertEquals("heap", r[1]);
      ops.add(r[2]);
      assertTrue(Double.parseDouble(r[4]) > 0, r[4]);
      assertTrue(Double.parseDouble(r[5]) <= Double.parseDouble(r[4]));
      assertTrue(Double.parseDouble(r[6]) >= Double.parseDouble(r[4]));
      assertEquals("", r[7], "no bound for cpu");
      assertEquals("", r[8], "no share of a bound for cpu");
    }
    assertTrue(csv.err.contains("\nlink: not measured"), csv.err);
    assertTrue(csv.err.contains("\nmemory: heap = int[]/long[] arrays"), csv.err);
    assertEquals(List.of("insert", "find_present", "find_absent", "erase", "mixed_20/20/60"), ops);
    assertTrue(csv.err.contains("rep 2/2"), "progress on stderr: " + csv.err);

    Cli json = run(base, "--format", "json");
    assertEquals(0, json.code, json.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(json.out);
    assertEquals("bench", o.get("command"));
    assertEquals(List.of("cpu"), o.get("kinds"));
    assertEquals(5, ((List<?>) o.get("results")).size());
    @SuppressWarnings("unchecked")
    Map<String, Object> first = (Map<String, Object>) ((List<?>) o.get("results")).get(0);
    assertTrue(first.containsKey("bound") && first.get("bound") == null, first.toString());
    assertTrue(first.containsKey("pct_of_bound") && first.get("pct_of_bound") == null, first.toString());

    Cli table = run(base);
    assertEquals(0, table.code, table.toString());
    assertTrue(table.out.startsWith("command:"), "header block first: " + table.out);
    assertTrue(table.out.contains("find_absent"), table.out);
    assertFalse(table.out.contains("rep 1/2"), "progress stays off stdout");
  }

  @Test
  void benchEveryHostMemoryPathOnCpu() {
    Cli r = Cli.run("bench", "--kind", "cpu", "--keys", "2^12", "--reps", "1", "--warmup", "0", "--threads", "2",
        "--memory", "all", "--mix", "20,20,60", "--format", "csv");
    assertEquals(0, r.code, r.toString());
    List<String> seen = new ArrayList<>();
    for (String[] row : csvRows(r.out).subList(1, csvRows(r.out).size())) {
      seen.add(row[1] + " " + row[2]);
      assertTrue(Double.parseDouble(row[4]) > 0, String.join(",", row));
    }
    List<String> want = new ArrayList<>();
    for (String path : List.of("heap", "native", "pinned")) {
      for (String op : List.of("insert", "find_present", "find_absent", "erase", "mixed_20/20/60")) {
        want.add(path + " " + op);
      }
    }
    assertEquals(want, seen, "device is a GPU kind's path only: " + r.out);
    assertTrue(r.err.contains("cpu pinned bulk rep 1/1"), r.err);

    Cli d = Cli.run("bench", "--kind", "cpu", "--keys", "2^10", "--reps", "1", "--warmup", "0", "--memory", "device",
        "--format", "csv");
    assertEquals(0, d.code, d.toString());
    List<String[]> rows = csvRows(d.out);
    assertEquals(2, rows.size(), d.out);
    assertEquals("no device path: cpu tables live in host memory", rows.get(1)[9]);
  }

  @Test
  void verifyCpuPasses() {
    Cli r = Cli.run("verify", "--kind", "cpu", "--ops", "200000", "--batch", "5000", "--seed", "9",
        "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertEquals("PASS", o.get("result"));
    assertEquals(0, o.get("mismatches"));
    assertEquals(200000, o.get("ops_checked"));
    assertEquals(40, o.get("batches"));
    assertTrue(((Number) o.get("table_resizes")).doubleValue() > 0, "starting at 1024 keys the table must grow");
  }

  @Test
  void verifyCpuZipfWithInterleavedResizes() {
    Cli r = Cli.run("verify", "--kind", "cpu", "--ops", "300000", "--batch", "5000", "--seed", "4",
        "--hot-fraction", "0.5", "--zipf", "0.99", "--resize-every", "4", "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertEquals("PASS", o.get("result"));
    assertEquals(300000, o.get("ops_checked"));
    assertEquals(30, o.get("zipf_batches"), "half the ops in Zipf batches");
    assertEquals(15, o.get("explicit_resizes"), "every 4th of 60 batches");
    assertTrue(((Number) o.get("hottest_key_share")).doubleValue() > 0.02, "the hottest key gets a real share: " + o);
  }

  @Test
  void verifyCpu64BitKeys() {
    Cli r = Cli.run("verify", "--kind", "cpu", "--key-bits", "64", "--ops", "200000", "--batch", "5000", "--seed", "8",
        "--hot-fraction", "0.5", "--zipf", "0.99", "--resize-every", "4", "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertEquals("PASS", o.get("result"));
    assertEquals(64, o.get("key_bits"));
    assertEquals(200000, o.get("ops_checked"));
    assertEquals(20, o.get("zipf_batches"));
    Cli csv = Cli.run("verify", "--kind", "cpu", "--key-bits", "64", "--ops", "3000", "--batch", "1000", "--hot-keys", "5",
        "--hot-fraction", "0.5", "--check-threads", "1", "--format", "csv");
    assertEquals(0, csv.code, csv.toString());
    assertTrue(csv.out.contains("\nkey_bits,64\n") && csv.out.contains("\nresult,PASS"), csv.out);
    Cli table = Cli.run("verify", "--kind", "cpu", "--ops", "3000", "--batch", "1000");
    assertTrue(table.out.contains("key bits:") && table.out.contains("32"), table.out);
  }

  @Test
  void verifyCpuOddSizesAndHotKeysOnly() {
    Cli r = Cli.run("verify", "--kind", "cpu", "--ops", "10007", "--batch", "333", "--hot-keys", "3",
        "--hot-fraction", "1", "--capacity", "0");
    assertEquals(0, r.code, r.toString());
    assertTrue(r.out.contains("result:") && r.out.contains("PASS"), r.out);
    Cli one = Cli.run("verify", "--kind", "cpu", "--ops", "1", "--format", "csv");
    assertEquals(0, one.code, one.toString());
    assertTrue(one.out.startsWith("field,value\n") && one.out.contains("\nresult,PASS\n"), one.out);
  }

  @Test
  void exitCodeMapping() {
    assertEquals(3, ExitCodes.of(new org.wixlib.NoDeviceException("x")));
    assertEquals(3, ExitCodes.of(new org.wixlib.NativeLibraryException("x")));
    assertEquals(3, ExitCodes.of(new KindUnavailableException("x")));
    assertEquals(1, ExitCodes.of(new org.wixlib.TableFullException("x")));
    assertEquals(1, ExitCodes.of(new IllegalStateException("x")));
    assertEquals(CommandLine.ExitCode.USAGE, ExitCodes.USAGE);
  }

  private static Cli run(String[] base, String... more) {
    List<String> a = new ArrayList<>(List.of(base));
    a.addAll(List.of(more));
    return Cli.run(a.toArray(String[]::new));
  }

  /** CSV rows, the header first (no quoted commas in these outputs except notes). */
  public static List<String[]> csvRows(String csv) {
    List<String[]> rows = new ArrayList<>();
    for (String line : csv.split("\n")) {
      if (!line.isEmpty()) {
        rows.add(splitCsv(line));
      }
    }
    return rows;
  }

  private static String[] splitCsv(String line) {
    List<String> cells = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cur.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cur.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        cells.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    cells.add(cur.toString());
    return cells.toArray(String[]::new);
  }
}
