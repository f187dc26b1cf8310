package org.wixlib.cli.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.wixlib.cli.Cli;
import org.wixlib.cli.report.Json;

/** wixlib join --baseline duckdb on TPC-H SF 0.01 (DuckDB from the test class path), and the jar lookup. */
class DuckDbBaselineTest {
  @Test
  void duckdbCountsEqualTheJoinsOnEveryCore() {
    assumeTrue(onClassPath(DuckDbDriver.DRIVER_CLASS), "DuckDB's JDBC jar is not on the class path (the GPU"
        + " machine has it with WITH_DUCKDB=1 scripts/device-prepare.sh): skipped");
    Cli r = Cli.run("join", "--sf", "0.01", "--kind", "cpu", "--reps", "2", "--warmup", "1", "--threads", "2",
        "--baseline", "duckdb", "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertTrue(((String) o.get("baseline")).startsWith("duckdb v1."), String.valueOf(o.get("baseline")));
    assertTrue(((String) o.get("baseline")).contains("2 threads"), String.valueOf(o.get("baseline")));
    assertTrue(((Number) o.get("duckdb_load_s")).doubleValue() >= 0, r.out);
    List<?> rows = (List<?>) o.get("results");
    assertEquals(3 * JoinQuery.values().length, rows.size(), r.out);
    Map<String, Long> reference = new HashMap<>();
    Map<String, Double> duckMs = new HashMap<>();
    for (Object x : rows) {
      @SuppressWarnings("unchecked")
      Map<String, Object> row = (Map<String, Object>) x;
      String q = (String) row.get("query");
      long matches = ((Number) row.get("matches")).longValue();
      switch ((String) row.get("kind")) {
        case "java-hashmap" -> reference.put(q, matches);
        case "duckdb" -> {
          assertEquals(reference.get(q), matches, "DuckDB's count of " + q);
          assertEquals("ok", row.get("check"), row.toString());
          assertNull(row.get("build_ms"), "DuckDB builds and probes in one query: " + row);
          duckMs.put(q, ((Number) row.get("total_ms")).doubleValue());
          assertTrue(duckMs.get(q) > 0, row.toString());
        }
        case "cpu" -> {
          assertEquals(reference.get(q), matches, row.toString());
          double total = ((Number) row.get("total_ms")).doubleValue();
          assertEquals(((Number) row.get("build_ms")).doubleValue() + ((Number) row.get("probe_ms")).doubleValue(),
              total, 0.02 * total + 0.01, row.toString());
          double speedup = ((Number) row.get("duckdb_speedup")).doubleValue();
          assertEquals(duckMs.get(q) / total, speedup, 0.05 * speedup + 0.01, row.toString());
        }
        default -> throw new AssertionError("unexpected row " + row);
      }
    }
    assertTrue(((Number) o.get("speedup_vs_duckdb_cpu")).doubleValue() > 0, r.out);
    assertFalse(o.containsKey("speedup_bound_vs_duckdb_cpu"), "no link, no bound: " + r.out);
    assertTrue(((Number) o.get("speedup_vs_duckdb_java_hashmap")).doubleValue() > 0, r.out);
  }

  private static boolean onClassPath(String name) {
    try {
      Class.forName(name, false, DuckDbBaselineTest.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  @Test
  void sqlCountsWhatTheJoinDelivers() {
    assertEquals("SELECT count(*) FROM orders JOIN lineitem ON l_orderkey = o_orderkey",
        DuckDbJoin.sql(JoinQuery.ORDERS_LINEITEM));
    assertTrue(DuckDbJoin.sql(JoinQuery.Q4_SEMI).contains("WHERE EXISTS"));
    assertTrue(DuckDbJoin.sql(JoinQuery.Q22_ANTI).contains("WHERE NOT EXISTS"));
  }

  @Test
  void missingJarExitsThreeSayingWhereItGoes(@TempDir Path dir) {
    Path none = dir.resolve("duckdb_jdbc-none.jar");
    Cli r = Cli.run("join", "--sf", "0.01", "--kind", "cpu", "--baseline", "duckdb", "--duckdb-jar", none.toString());
    assertEquals(3, r.code, r.toString());
    assertTrue(r.err.contains("no such file") && r.err.contains("org.duckdb:duckdb_jdbc:" + DuckDbDriver.version()),
        r.err);
    assertTrue(r.err.contains("--duckdb-jar PATH"), r.err);
    assertTrue(r.out.isEmpty(), "nothing on stdout: " + r.out);
  }

  @Test
  void usageErrors() {
    Cli r = Cli.run("join", "--sf", "0.01", "--kind", "cpu", "--baseline", "sqlite");
    assertEquals(2, r.code, r.toString());
    assertTrue(r.err.contains("expected duckdb"), r.err);
    Cli j = Cli.run("join", "--sf", "0.01", "--kind", "cpu", "--duckdb-jar", "x.jar");
    assertEquals(2, j.code, j.toString());
  }

  @Test
  void jarIsFoundBesideTheCliOrInItsLib(@TempDir Path dir) throws IOException {
    Path cli = Files.createFile(dir.resolve("wixlib-cli.jar"));
    assertNull(DuckDbDriver.findBeside(cli));
    Path lib = Files.createDirectories(dir.resolve("lib"));
    Path older = Files.createFile(lib.resolve("duckdb_jdbc-1.4.3.0.jar"));
    assertEquals(older, DuckDbDriver.findBeside(cli));
    Path newer = Files.createFile(dir.resolve("duckdb_jdbc-1.4.4.0-linux_amd64.jar"));
    assertEquals(newer, DuckDbDriver.findBeside(cli), "the newest name wins");
    Files.createFile(lib.resolve("other.jar"));
    assertEquals(newer, DuckDbDriver.findBeside(cli));
  }
}
