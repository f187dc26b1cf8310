package org.wixlib.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.wixlib.Wixlib;
import org.wixlib.cli.report.Json;

/** --shards and --devices on bench, verify, join and the shell, on the CPU kind (every machine). */
class ShardingCliTest {
  static final List<String> SHARDED_COLUMNS = List.of("kind", "path", "shards", "devices", "op", "n", "mops",
      "mops_min", "mops_max", "bound", "pct_of_bound", "scaling", "note");

  @Test
  void benchRunsShardedTablesWithTheirColumns() {
    Cli r = Cli.run("bench", "--kind", "cpu", "--shards", "3", "--keys", "2^14", "--reps", "1", "--warmup", "0",
        "--format", "csv");
    assertEquals(0, r.code, r.toString());
    List<String[]> rows = CliTest.csvRows(r.out);
    assertEquals(SHARDED_COLUMNS, List.of(rows.get(0)));
    assertEquals(5, rows.size(), "four bulk ops: " + r.out);
    for (String[] row : rows.subList(1, rows.size())) {
      assertEquals(SHARDED_COLUMNS.size(), row.length);
      assertEquals("3", row[2], "shards");
      assertEquals("host", row[3], "devices");
      assertTrue(Double.parseDouble(row[6]) > 0, "mops " + row[6]);
      assertEquals("", row[11], "no scaling without several devices");
    }
    assertTrue(r.err.contains("layout: cpu: 3 shards in host memory"), r.err);
  }

  @Test
  void benchJsonCarriesTheScalingColumn() {
    Cli r = Cli.run("bench", "--kind", "cpu", "--shards", "2", "--keys", "2^12", "--reps", "1", "--warmup", "0",
        "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    @SuppressWarnings("unchecked")
    Map<String, Object> first = (Map<String, Object>) ((List<?>) o.get("results")).get(0);
    assertTrue(first.containsKey("scaling") && first.get("scaling") == null, first.toString());
    assertEquals(2, first.get("shards"));
  }

  @Test
  void benchWithoutShardsKeepsItsColumns() {
    Cli r = Cli.run("bench", "--kind", "cpu", "--keys", "2^12", "--reps", "1", "--warmup", "0", "--format", "csv");
    assertEquals(0, r.code, r.toString());
    assertEquals(List.of("kind", "path", "op", "n", "mops", "mops_min", "mops_max", "bound", "pct_of_bound", "note"),
        List.of(CliTest.csvRows(r.out).get(0)));
  }

  @Test
  void verifyPassesOnAShardedTable() {
    Cli r = Cli.run("verify", "--kind", "cpu", "--shards", "4", "--ops", "2^17", "--batch", "2^12",
        "--hot-fraction", "0.3", "--resize-every", "8", "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertEquals("PASS", o.get("result"));
    assertEquals(0, o.get("mismatches"));
    assertEquals("4 shards in host memory", o.get("layout"));
  }

  @Test
  void verifyPassesOnShardedWideKeys() {
    Cli r = Cli.run("verify", "--kind", "cpu", "--shards", "3", "--key-bits", "64", "--ops", "2^16", "--batch",
        "2^11", "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertEquals("PASS", o.get("result"));
  }

  @Test
  void badShardCountsAreUsageErrors() {
    for (String bad : new String[] {"0", "257", "-1"}) {
      Cli r = Cli.run("bench", "--kind", "cpu", "--shards", bad, "--keys", "2^10");
      assertEquals(ExitCodes.USAGE, r.code, r.toString());
      assertTrue(r.err.contains("--shards must be in [1, 256], got " + bad), r.err);
    }
    Cli v = Cli.run("verify", "--kind", "cpu", "--devices", "0,0");
    assertEquals(ExitCodes.USAGE, v.code, v.toString());
    assertTrue(v.err.contains("--devices must be distinct"), v.err);
  }

  @Test
  void devicesWithoutAGpuSayWhy() {
    Assumptions.assumeTrue(Wixlib.devices().isEmpty(), "this machine has a GPU: skipped");
    for (String[] args : new String[][] {
      {"bench", "--devices", "0,1", "--keys", "2^10"},
      {"verify", "--kind", "cpu", "--devices", "0"},
      {"bench", "--kind", "glht", "--devices", "0,1"},
    }) {
      Cli r = Cli.run(args);
      assertEquals(ExitCodes.UNAVAILABLE, r.code, r.toString());
      assertTrue(r.err.contains("--devices places shards on GPUs, but none can be used here"), r.err);
    }
  }

  @Test
  void devicesWithOnlyTheCpuKindAreAUsageError() {
    Assumptions.assumeFalse(Wixlib.devices().isEmpty(), "no GPU here: the missing GPU is the error (see above)");
    Cli r = Cli.run("verify", "--kind", "cpu", "--devices", "0");
    assertEquals(ExitCodes.USAGE, r.code, r.toString());
    assertTrue(r.err.contains("the cpu kind keeps its shards in host memory"), r.err);
  }

  @Test
  void helpTeachesSharding() {
    for (String command : new String[] {"bench", "verify", "join"}) {
      String help = Cli.run(command, "--help").out.replaceAll("\\s+", " ");
      assertTrue(help.contains("--shards=N") && help.contains("--devices=D,D"), command + ": " + help);
      assertTrue(help.contains("outgrows one GPU"), command + ": " + help);
    }
    String bench = Cli.run("bench", "--help").out.replaceAll("\\s+", " ");
    assertTrue(bench.contains("scaling = mops on all devices / mops on the first alone"), bench);
    assertTrue(bench.contains("wixlib bench --kind glht,hive --devices 0,1"), bench);
    assertTrue(Cli.run("verify", "--help").out.contains("wixlib verify --kind cpu --shards 4"));
  }

  @Test
  void suiteRefusesSharding() {
    Cli r = Cli.run("bench", "--suite", "baseline", "--shards", "2");
    assertEquals(ExitCodes.USAGE, r.code, r.toString());
    assertTrue(r.err.contains("--shards and --devices apply to the plain benchmark"), r.err);
  }

  @Test
  void joinOnShardedTablesMatchesTheHashMapJoin() {
    Cli r = Cli.run("join", "--sf", "0.01", "--kind", "cpu", "--shards", "3", "--reps", "1", "--warmup", "0",
        "--query", "orders_lineitem,q4_semi", "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertEquals(List.of("cpu: 3 shards in host memory"), o.get("layout"));
    for (Object row : (List<?>) o.get("results")) {
      @SuppressWarnings("unchecked")
      Map<String, Object> m = (Map<String, Object>) row;
      assertEquals("cpu".equals(m.get("kind")) ? "ok" : "reference", m.get("check"), m.toString());
    }
  }
}
