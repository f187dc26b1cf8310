package org.wixlib.cli.shell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.wixlib.HashTable;
import org.wixlib.Pairs;
import org.wixlib.TableKind;
import org.wixlib.cli.Cli;
import org.wixlib.cli.Texts;

/** `wixlib run SCRIPT` and `wixlib -c`: stop at the first failure with its line, --keep-going, exit codes. */
class ScriptTest {
  @TempDir Path dir;

  Path script(String... lines) throws IOException {
    Path p = dir.resolve("s.wx");
    Files.write(p, List.of(lines));
    return p;
  }

  @Test
  void scriptRunsEveryCommand() throws IOException {
    Path snap = dir.resolve("a.wxs");
    Path keys = dir.resolve("keys.csv");
    Files.writeString(keys, "1\n2\n9\n");
    Path out = dir.resolve("out.tsv");
    Path s = script(
        "# a comment line",
        "create a --kind cpu --capacity 100; insert a 1=10 2=20",
        "upsert a 2=21 3=30   # trailing comment",
        "find a --from " + keys + " --to " + out,
        "contains a 3",
        "erase a 3",
        "resize a 1000",
        "stats a",
        "save a " + snap + "; drop a",
        "load " + snap + " as b",
        "tables --format csv",
        "bench b -n 100 --reps 1",
        "help find",
        "",
        "find b 1 2");
    Cli r = Cli.run("run", s.toString());
    assertEquals(0, r.code, r.toString());
    assertEquals("key\tvalue\n1\t10\n2\t21\n9\t\n", Files.readString(out));
    assertTrue(r.out.contains("3\ttrue\n"), r.out);
    assertTrue(r.out.contains("name,kind,key_bits,size,capacity,slots,load_factor,bytes\nb,cpu,32,2,"), r.out);
    assertTrue(r.out.endsWith("1\t10\n2\t21\n"), r.out);
    assertTrue(r.err.contains("a: 1 erased, 0 absent; size 2"), r.err);
  }

  @Test
  void firstFailureStopsTheScriptWithItsLineNumber() throws IOException {
    Path later = dir.resolve("later.wxs");
    Path s = script("create a --kind cpu", "insert a 1=1", "find missing 1", "save a " + later);
    Cli r = Cli.run("run", s.toString());
    assertEquals(1, r.code, r.toString());
    assertTrue(r.err.contains("wixlib: " + s + " line 3: unknown table 'missing' (tables: a)"), r.err);
    assertTrue(r.err.contains("stopped at " + s + " line 3"), r.err);
    assertFalse(Files.exists(later), "the line after the failure must not run");

    Cli k = Cli.run("run", "--keep-going", s.toString());
    assertEquals(1, k.code, k.toString());
    assertTrue(Files.exists(later), "--keep-going runs the rest");
    assertTrue(k.err.contains("1 command failed"), k.err);
  }

  @Test
  void usageErrorInAScriptIsExitCodeTwo() throws IOException {
    Cli r = Cli.run("run", script("create a --kind cpu", "resize a").toString());
    assertEquals(2, r.code, r.toString());
    assertTrue(r.err.contains("line 2: Missing required parameter: 'CAPACITY'"), r.err);
    Cli m = Cli.run("run", dir.resolve("nope.wx").toString());
    assertEquals(1, m.code, m.toString());
    assertTrue(m.err.contains("nope.wx: no such file"), m.err);
  }

  @Test
  void scriptErrorsWithKeepGoing() throws IOException {
    Path bad = dir.resolve("bad.tsv");
    Files.writeString(bad, "1\n2\nx\n");
    Path corrupt = dir.resolve("c.wxs");
    Cli saved = Cli.run("-c", "create a --kind cpu; insert a 1=1; save a " + corrupt);
    assertEquals(0, saved.code, saved.toString());
    byte[] b = Files.readAllBytes(corrupt);
    b[b.length - 10] ^= 4;
    Files.write(corrupt, b);
    Path s = script(
        "create a --kind cpu; insert a 5=5 6=6",
        "insert a --from " + bad,
        "load " + corrupt + " as b",
        "resize a 1",
        "drop nope",
        "tables --format csv");
    Cli r = Cli.run("run", "--keep-going", s.toString());
    assertEquals(1, r.code, r.toString());
    assertTrue(r.err.contains(s + " line 2: " + bad + ": line 3: 'x' is not a 32-bit key"), r.err);
    assertTrue(r.err.contains(s + " line 3: " + corrupt + ": corrupt: checksum mismatch"), r.err);
    assertTrue(r.err.contains(s + " line 4: a holds 2 keys; cannot resize it to 1"), r.err);
    assertTrue(r.err.contains(s + " line 5: unknown table 'nope'"), r.err);
    assertTrue(r.err.contains("4 commands failed"), r.err);
    assertTrue(r.out.contains("\na,cpu,32,2,"), "nothing of the bad file, no table b: " + r.out);
    assertFalse(r.out.contains("\nb,"), r.out);
  }

  @Test
  void fullTableFailsTheCommand() {
    Cli r = Cli.run("-c", "create t --kind cpu --capacity 10 --grow never --max-load 1; insert t --random 1000");
    assertEquals(1, r.code, r.toString());
    assertTrue(r.err.contains("not stored (table full)") && r.err.contains("keys did not fit"), r.err);
  }

  @Test
  void exitCodeOfExitCommand() throws IOException {
    Cli r = Cli.run("run", script("create a --kind cpu", "exit 4", "find nope 1").toString());
    assertEquals(4, r.code, r.toString());
  }

  @Test
  void dashC() {
    Cli r = Cli.run("-c", "create t --kind cpu; insert t 5=50 6=60; find t 5 6 7");
    assertEquals(0, r.code, r.toString());
    assertEquals("5\t50\n6\t60\n7\t-\n", r.out);
    Cli f = Cli.run("-c", "create t --kind cpu; drop t; stats t; tables");
    assertEquals(1, f.code, f.toString());
    assertTrue(f.err.contains("wixlib: -c, command 3 (stats t): unknown table 't' (no tables yet"), f.err);
    assertFalse(f.out.contains("name"), "tables must not run after the failure: " + f.out);
    Cli k = Cli.run("--keep-going", "-c", "create t --kind cpu; stats nope; tables --format csv");
    assertEquals(1, k.code, k.toString());
    assertTrue(k.out.startsWith("name,kind"), k.out);
  }

  @Test
  void lineSplitter() {
    assertEquals(List.of(List.of("a", "b c", "d"), List.of("e")), LineSplitter.split("a 'b c' d ; e # f; g"));
    assertEquals(List.of(List.of("x\"y", "p;q", "r s")), LineSplitter.split("x\\\"y \"p;q\" r\\ s"));
    assertEquals(List.of(), LineSplitter.split("   # only a comment"));
    assertEquals(List.of(List.of("a#b")), LineSplitter.split("a#b"));
    assertThrows(ShellError.class, () -> LineSplitter.split("a \"b"));
  }

  @Test
  void keyWordsAndNumbers() {
    KeyData d = KeySource.fromWords(List.of("0x10=-1", "4294967293=7", "-5=0xFF"), true, KeyBits.B32);
    assertArrayEquals(new long[] {16, -3, -5}, d.keys());
    assertArrayEquals(new long[] {-1, 7, 255}, d.values());
    assertThrows(ShellError.class, () -> KeySource.fromWords(List.of("1=1", "2"), true, KeyBits.B32));
    assertThrows(ShellError.class, () -> KeySource.fromWords(List.of("1=1"), false, KeyBits.B32));
    assertThrows(ShellError.class, () -> KeySource.fromWords(List.of("4294967296"), false, KeyBits.B32));
    assertThrows(ShellError.class, () -> KeySource.fromWords(List.of("0xFFFFFFFE"), false, KeyBits.B32));
  }

  @Test
  void wideKeyWordsAndNumbers() {
    KeyData d = KeySource.fromWords(List.of("4294967296=-1", "-5=0xFFFFFFFFFF", "18446744073709551613=9223372036854775807"),
        true, KeyBits.B64);
    assertArrayEquals(new long[] {1L << 32, -5, -3}, d.keys());
    assertArrayEquals(new long[] {-1, 0xFFFFFFFFFFL, Long.MAX_VALUE}, d.values());
    assertThrows(ShellError.class, () -> KeySource.fromWords(List.of("0xFFFFFFFFFFFFFFFE"), false, KeyBits.B64));
    assertThrows(ShellError.class, () -> KeySource.fromWords(List.of("-1"), false, KeyBits.B64));
    assertThrows(ShellError.class, () -> KeySource.fromWords(List.of("18446744073709551616"), false, KeyBits.B64));
    // -1 and -2 are reserved at 32 bits only as the whole key: 0xFFFFFFFF is an ordinary 64-bit key.
    assertArrayEquals(new long[] {0xFFFFFFFFL}, KeySource.fromWords(List.of("0xFFFFFFFF"), false, KeyBits.B64).keys());
  }

  /** The same 10^7 keys before and after save / load through the shell's commands. */
  void snapshotRoundTrip(TableKind kind) throws IOException {
    Path snap = dir.resolve("big.wxs");
    try (ShellDriver.Direct d = new ShellDriver.Direct()) {
      d.ok("create t --kind " + Texts.kindName(kind) + " --capacity 10M");
      d.ok("insert t --random 10M --seed 11");
      d.ok("save t " + snap);
      d.ok("load " + snap + " as u");
      HashTable t = d.session.table("t");
      HashTable u = d.session.table("u");
      assertEquals(kind, u.kind());
      assertTrue(t.size() > 9_900_000, "distinct random keys: " + t.size());
      assertEquals(t.size(), u.size());
      assertArrayEquals(sorted(t.retrieveAll()), sorted(u.retrieveAll()), "retrieve_all differs");
    }
  }

  static long[] sorted(Pairs p) {
    long[] a = new long[p.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = ((long) p.keys()[i] << 32) | (p.values()[i] & 0xFFFFFFFFL);
    }
    Arrays.sort(a);
    return a;
  }

  @Test
  void tenMillionKeySnapshotOnCpu() throws IOException {
    snapshotRoundTrip(TableKind.CPU);
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void tenMillionKeySnapshotOnGpu(TableKind kind) throws IOException {
    Cli.assumeKind(kind);
    snapshotRoundTrip(kind);
  }
}
