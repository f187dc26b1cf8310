package org.wixlib.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.wixlib.cli.Cli;
import org.wixlib.cli.report.Json;

/** Negative keys, signed output, and errors that name the command, the option and the file the user wrote. */
class ShellMessagesTest {
  @TempDir Path dir;

  @Test
  void negativeKeysAreKeysAndPrintSigned() {
    Cli r = Cli.run("-c", "create t --kind cpu; insert t -5=3; find t -5");
    assertEquals(0, r.code, r.toString());
    assertEquals("-5\t3\n", r.out);
    Cli more = Cli.run("-c", "create t --kind cpu; insert t -7=-1 -16=2 8=0; contains t -7 -16 8 -9; erase t -7");
    assertEquals(0, more.code, more.toString());
    assertEquals("-7\ttrue\n-16\ttrue\n8\ttrue\n-9\tfalse\n", more.out);
    assertTrue(more.err.contains("t: 1 erased, 0 absent"), more.err);
  }

  @Test
  void anUnknownOptionIsStillAUsageError() {
    Cli r = Cli.run("-c", "create t --kind cpu; insert t --bogus 1=2");
    assertEquals(2, r.code, r.toString());
    assertTrue(r.err.contains("Unknown option: '--bogus'"), r.err);
    assertEquals(2, Cli.run("-c", "create t --kind cpu; find t -x").code);
  }

  @Test
  void errorsNameTheCommandOfTheLine() {
    Cli r = Cli.run("-c", "create t --kind cpu; insert t 1=1; find missing 1; stats t");
    assertEquals(1, r.code, r.toString());
    assertTrue(r.err.contains("wixlib: -c, command 3 (find missing 1): unknown table 'missing'"), r.err);
    assertTrue(r.err.contains("stopped at -c, command 3 (find missing 1)"), r.err);
    assertFalse(r.err.contains("line 1"), "a one-line -c has no line numbers: " + r.err);
    Cli lines = Cli.run("-c", "create t --kind cpu\nfind nope 1");
    assertTrue(lines.err.contains("wixlib: -c line 2: unknown table 'nope'"), lines.err);
  }

  @Test
  void nativeFailuresNameTheirStatusOnce() {
    Cli r = Cli.run("-c", "create t --kind cpu; resize t 2^50");
    assertEquals(1, r.code, r.toString());
    assertTrue(r.err.contains("INVALID_ARGUMENT: "), r.err);
    assertFalse(r.err.contains("INVALID_ARGUMENT: INVALID_ARGUMENT"), r.err);
  }

  @Test
  void badOptionValuesNameTheOption() {
    Cli r = Cli.run("-c", "create u --kind cpu --max-load 1.5");
    assertEquals(2, r.code, r.toString());
    assertTrue(r.err.contains("--max-load must be in [0.05, 1.0], got 1.5"), r.err);
    assertFalse(r.err.contains("maxLoadFactor"), r.err);
  }

  @Test
  void capacityIsCountedInKeysLikeCreate() {
    Cli r = Cli.run("-c", "create t --kind cpu --capacity 1000 --max-load 0.5; stats t --format json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> s = (Map<String, Object>) Json.read(r.out);
    long capacity = ((Number) s.get("capacity")).longValue();
    long slots = ((Number) s.get("slots")).longValue();
    assertTrue(capacity >= 1000, "room for at least the keys asked for: " + s);
    assertEquals((long) Math.floor(0.5 * slots), capacity, s.toString());
    assertEquals(0.5, ((Number) s.get("max_load_factor")).doubleValue());
    assertTrue(r.err.contains("t: cpu table, room for " + capacity + " keys (" + slots + " slots"), r.err);
  }

  @Test
  void aFailedSaveNamesThePathGiven() {
    Path target = dir.resolve("no-such-dir").resolve("t.wxs");
    Cli r = Cli.run("-c", "create t --kind cpu; insert t 1=1; save t " + target);
    assertEquals(1, r.code, r.toString());
    assertTrue(r.err.contains(target + ": no such directory"), r.err);
    assertFalse(r.err.contains(".tmp"), "never the hidden temporary file: " + r.err);
  }
}
