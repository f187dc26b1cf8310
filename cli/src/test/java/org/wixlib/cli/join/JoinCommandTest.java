package org.wixlib.cli.join;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.wixlib.Join;
import org.wixlib.JoinPairs;
import org.wixlib.TableKind;
import org.wixlib.cli.Cli;
import org.wixlib.cli.Progress;
import org.wixlib.cli.report.Json;

/** wixlib join and the Join facade on TPC-H SF 0.01 (CPU kind), checked by a sort-merge join. */
class JoinCommandTest {
  static TpchColumns data;

  @BeforeAll
  static void generate() {
    data = TpchColumns.generate(0.01, 0, Progress.SILENT);
  }

  /** Pairs of a sort-merge join (independent of any hash table), packed probeRow << 32 | buildRow, sorted. */
  static long[] sortMerge(int[] build, int[] probe) {
    long[] b = new long[build.length], p = new long[probe.length];
    for (int i = 0; i < build.length; i++) {
      b[i] = ((long) build[i] << 32) | i;
    }
    for (int i = 0; i < probe.length; i++) {
      p[i] = ((long) probe[i] << 32) | i;
    }
    Arrays.sort(b);
    Arrays.sort(p);
    long[] out = new long[16];
    int n = 0;
    for (int i = 0, j = 0; i < p.length; i++) {
      long key = p[i] >>> 32;
      while (j < b.length && (b[j] >>> 32) < key) {
        j++;
      }
      for (int k = j; k < b.length && (b[k] >>> 32) == key; k++) {
        if (n == out.length) {
          out = Arrays.copyOf(out, n * 2);
        }
        out[n++] = ((p[i] & 0xFFFFFFFFL) << 32) | (b[k] & 0xFFFFFFFFL);
      }
    }
    out = Arrays.copyOf(out, n);
    Arrays.sort(out);
    return out;
  }

  @Test
  void tpchTablesHaveTheirSizes() {
    assertEquals(1500, data.customerCustkey().length);
    assertEquals(15000, data.ordersOrderkey().length);
    assertEquals(2000, data.partPartkey().length);
    assertEquals(60175, data.lineitemOrderkey().length); // dbgen's lineitem count at SF 0.01
  }

  @Test
  void joinFacadeMatchesSortMergeOnEveryQuery() {
    for (JoinQuery q : JoinQuery.values()) {
      int[] build = q.buildKeys(data), probe = q.probeKeys(data);
      long[] want = sortMerge(build, probe);
      try (Join j = Join.builder().kind(TableKind.CPU).build(q.build).build(build)) {
        if (q.result == JoinQuery.Result.PAIRS) {
          JoinPairs p = j.probe(probe);
          long[] got = new long[p.size()];
          for (int i = 0; i < got.length; i++) {
            got[i] = ((long) p.probeRows()[i] << 32) | (p.buildRows()[i] & 0xFFFFFFFFL);
          }
          Arrays.sort(got);
          assertArrayEquals(want, got, q.id);
        } else {
          int[] rows = q.result == JoinQuery.Result.SEMI ? j.semi(probe) : j.anti(probe);
          int[] expect = Arrays.stream(want).mapToInt(x -> (int) (x >>> 32)).distinct().sorted().toArray();
          if (q.result == JoinQuery.Result.ANTI) {
            boolean[] hit = new boolean[probe.length];
            for (int r : expect) {
              hit[r] = true;
            }
            expect = java.util.stream.IntStream.range(0, probe.length).filter(r -> !hit[r]).toArray();
          }
          assertArrayEquals(expect, rows, q.id);
        }
      }
    }
  }

  @Test
  void joinCommandChecksCountsOnSf001() {
    Cli r = Cli.run("join", "--sf", "0.01", "--kind", "cpu", "--reps", "1", "--warmup", "0", "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertEquals(0.01, ((Number) o.get("scale_factor")).doubleValue());
    assertTrue(((String) o.get("tpch_generator")).startsWith("io.trino.tpch 1."), o.get("tpch_generator").toString());
    List<?> rows = (List<?>) o.get("results");
    assertEquals(2 * JoinQuery.values().length, rows.size());
    for (Object x : rows) {
      @SuppressWarnings("unchecked")
      Map<String, Object> row = (Map<String, Object>) x;
      JoinQuery q = JoinQuery.parse((String) row.get("query"));
      long want = sortMerge(q.buildKeys(data), q.probeKeys(data)).length;
      if (q.result != JoinQuery.Result.PAIRS) {
        long semi = Arrays.stream(sortMerge(q.buildKeys(data), q.probeKeys(data))).map(v -> v >>> 32).distinct().count();
        want = q.result == JoinQuery.Result.SEMI ? semi : q.probeKeys(data).length - semi;
      }
      assertEquals(want, ((Number) row.get("matches")).longValue(), row.toString());
      assertEquals("cpu".equals(row.get("kind")) ? "ok" : "reference", row.get("check"), row.toString());
      if ("cpu".equals(row.get("kind"))) {
        assertTrue(((Number) row.get("probe_ms")).doubleValue() > 0 && ((Number) row.get("kernel_ms")).doubleValue() > 0, row.toString());
      }
      assertNull(row.get("bound_ms"), "the CPU kind moves nothing over a link: " + row);
    }
    assertTrue(o.containsKey("speedup_vs_java_cpu") && o.containsKey("prehash_cpu"), r.out);
    assertTrue(String.valueOf(o.get("link")).startsWith("not measured"), r.out);
  }

  @Test
  void offHeapMemoryRowsGiveTheSameResults() {
    Cli r = Cli.run("join", "--sf", "0.01", "--kind", "cpu", "--memory", "heap,native,pinned", "--reps", "1", "--warmup",
        "0", "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertEquals(List.of("heap", "native", "pinned"), o.get("memory"));
    List<?> rows = (List<?>) o.get("results");
    assertEquals(4 * JoinQuery.values().length, rows.size());
    Map<String, Object> heapMatches = new java.util.HashMap<>();
    int offHeap = 0;
    for (Object x : rows) {
      @SuppressWarnings("unchecked")
      Map<String, Object> row = (Map<String, Object>) x;
      if (!"cpu".equals(row.get("kind"))) {
        continue;
      }
      assertEquals("ok", row.get("check"), row.toString());
      if ("heap".equals(row.get("memory"))) {
        heapMatches.put((String) row.get("query"), row.get("matches"));
      } else {
        assertTrue(List.of("native", "pinned").contains(row.get("memory")), row.toString());
        assertEquals(heapMatches.get((String) row.get("query")), row.get("matches"), row.toString());
        offHeap++;
      }
    }
    assertEquals(2 * JoinQuery.values().length, offHeap);
    assertTrue(o.containsKey("speedup_vs_java_cpu_native") && o.containsKey("speedup_vs_java_cpu_pinned"), r.out);
  }

  @Test
  void unknownMemoryIsAUsageError() {
    Cli r = Cli.run("join", "--sf", "0.01", "--kind", "cpu", "--memory", "disk");
    assertEquals(2, r.code, r.toString());
    assertTrue(r.err.contains("unknown memory 'disk'"), r.err);
  }

  @Test
  void unknownQueryIsAUsageError() {
    Cli r = Cli.run("join", "--sf", "0.01", "--kind", "cpu", "--query", "q99");
    assertEquals(2, r.code, r.toString());
    assertTrue(r.err.contains("unknown query 'q99'"), r.err);
  }
}
