package org.wixlib.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportWriterTest {
  private static Report sample() {
    Report r = new Report("results", "kind", "op", "mops", "note");
    r.field("command", "bench");
    r.field("keys", 1024);
    r.field("load_factor", 0.8);
    r.field("kinds", List.of("cpu", "glht"));
    r.field("quote", "a \"b\", c\\d\n");
    r.row("cpu", "insert", 12.345, null);
    r.row("glht", "-", null, "unavailable: no GPU, sorry");
    return r;
  }

  private static String write(Report r, Format f) {
    StringWriter w = new StringWriter();
    ReportWriter.write(r, f, new PrintWriter(w));
    return w.toString();
  }

  /** {stdout, metadata} of a write with a metadata stream. */
  private static String[] writeWithMeta(Report r, Format f) {
    StringWriter w = new StringWriter();
    StringWriter m = new StringWriter();
    ReportWriter.write(r, f, new PrintWriter(w), new PrintWriter(m));
    return new String[] {w.toString(), m.toString()};
  }

  @Test
  void jsonParsesAndKeepsTypes() {
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(write(sample(), Format.JSON));
    assertEquals("bench", o.get("command"));
    assertEquals(1024, o.get("keys"));
    assertEquals(0.8, o.get("load_factor"));
    assertEquals(List.of("cpu", "glht"), o.get("kinds"));
    assertEquals("a \"b\", c\\d\n", o.get("quote"));
    List<?> rows = (List<?>) o.get("results");
    assertEquals(2, rows.size());
    Map<?, ?> first = (Map<?, ?>) rows.get(0);
    assertEquals(12.345, first.get("mops"));
    assertTrue(first.containsKey("note"));
    assertEquals(null, first.get("note"));
  }

  @Test
  void csvIsAHeaderLineThenRectangularRowsWithTheFieldsElsewhere() {
    String[] w = writeWithMeta(sample(), Format.CSV);
    String csv = w[0];
    assertEquals("kind,op,mops,note\ncpu,insert,12.3450,\nglht,-,,\"unavailable: no GPU, sorry\"\n", csv);
    assertEquals("command: bench\nkeys: 1024\nload_factor: 0.80\nkinds: cpu, glht\nquote: a \"b\", c\\d \n", w[1]);
    assertEquals(csv, write(sample(), Format.CSV), "without a metadata stream the fields are dropped");
  }

  @Test
  void tableAlignsColumnsAndShowsDashes() {
    String t = write(sample(), Format.TABLE);
    assertTrue(t.startsWith("command:     bench\n"), t);
    assertTrue(t.contains("load factor: 0.80\n"), t);
    assertTrue(t.contains("kinds:       cpu, glht\n"), t);
    String[] lines = t.split("\n");
    int head = -1;
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].startsWith("kind")) {
        head = i;
      }
    }
    assertTrue(head > 0, t);
    // The numeric column is right-aligned under its header.
    int end = lines[head].indexOf("mops") + 4;
    assertEquals("12.35", lines[head + 1].substring(end - 5, end));
    assertEquals("-", lines[head + 2].substring(end - 1, end));
  }

  @Test
  void tableLeavesOutColumnsEmptyInEveryRowButCsvKeepsThem() {
    Report r = new Report("results", "kind", "kernel_mops", "mops");
    r.row("cpu", null, 1.5);
    r.row("cpu", null, 2.5);
    String t = write(r, Format.TABLE);
    assertTrue(!t.contains("kernel"), t);
    assertTrue(t.contains("kind  mops\ncpu   1.50\n"), t);
    assertTrue(write(r, Format.CSV).startsWith("kind,kernel_mops,mops\ncpu,,1.5000\n"));
  }

  @Test
  void reportWithoutRowsPrintsOnlyFields() {
    Report r = new Report("checks").field("result", "PASS").field("mismatches", 0);
    assertEquals("result:     PASS\nmismatches: 0\n", write(r, Format.TABLE));
    assertEquals("field,value\nresult,PASS\nmismatches,0\n", write(r, Format.CSV));
    assertEquals(Map.of("result", "PASS", "mismatches", 0), Json.read(write(r, Format.JSON)));
  }
}
