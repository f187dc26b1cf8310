package org.wixlib.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.wixlib.cli.Cli;
import org.wixlib.cli.report.Json;

/** `wixlib shell` driven through standard input: every command, and the errors a person makes. */
class ShellTest {
  @TempDir Path dir;

  Path file(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  Path ints(String name, int width, long... numbers) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(numbers.length * width).order(ByteOrder.LITTLE_ENDIAN);
    for (long n : numbers) {
      if (width == 4) {
        b.putInt((int) n);
      } else {
        b.putLong(n);
      }
    }
    Path p = dir.resolve(name);
    Files.write(p, b.array());
    return p;
  }

  @Test
  void everyCommandThroughStandardInput() throws IOException {
    Path csv = file("pairs.csv", "key,value\n100,1\n101,2\n0x66,3\n");
    Path tsv = file("keys.tsv", "200\n201\n\n# a comment\n4294967293\n");
    Path i32 = ints("k.i32", 4, 300, 301);
    Path i64kv = ints("p.i64kv", 8, 400, -5, 4294967293L, 7);
    Path snap = dir.resolve("snap.wxs");
    Path found = dir.resolve("found.csv");
    String session = String.join("\n",
        "create t --kind cpu --capacity 2^10 --max-load 0.9",
        "insert t 1=10 2=20 3=30",
        "insert t --from " + csv,
        "insert t --from " + tsv,
        "insert t --from " + i32,
        "insert t --from " + i64kv,
        "upsert t 1=11 5=50",
        "find t 1 2 5 6 102 200 4294967293",
        "contains t 3 4",
        "erase t 3 4",
        "find t --from " + csv + " --to " + found,
        "stats t --format json",
        "tables --format csv",
        "resize t 2^14",
        "save t " + snap,
        "load " + snap + " as u",
        "load " + snap,
        "find u 400",
        "insert t --random 5000 --seed 3",
        "bench t -n 1000 --reps 1 --format csv",
        "drop u",
        "tables",
        "help",
        "help insert",
        "exit");
    Cli r = ShellDriver.shell(session + "\ncreate never_reached\n");
    assertEquals(0, r.code, r.toString());
    assertTrue(r.out.contains("1\t11\n2\t20\n5\t50\n6\t-\n102\t3\n200\t0\n-3\t0\n"), r.toString()); // keys print signed
    assertTrue(r.out.contains("3\ttrue\n4\tfalse\n"), r.toString());
    assertEquals("key,value\n100,1\n101,2\n102,3\n", Files.readString(found));
    assertTrue(r.err.contains("t: 3 inserted, 0 already present; size 3"), r.err);
    assertTrue(r.err.contains("t: 1 inserted, 1 assigned; size 13"), r.err);
    assertTrue(r.err.contains("t: 1 erased, 1 absent; size 12"), r.err);
    assertTrue(r.err.contains("u: 12 pairs loaded"), r.err);
    assertTrue(r.err.contains("snap: 12 pairs loaded"), "load without 'as' names the table after the file: " + r.err);
    assertTrue(r.out.contains("400\t-5"), r.out);
    // stats --format json: one object with the figures
    int at = r.out.indexOf("{");
    @SuppressWarnings("unchecked")
    Map<String, Object> stats = (Map<String, Object>) Json.read(r.out.substring(at, r.out.indexOf("}", at) + 1));
    assertEquals(12, stats.get("size"));
    assertEquals("cpu", stats.get("kind"));
    assertTrue(((Number) stats.get("capacity")).doubleValue() >= 10, stats.toString());
    assertTrue(stats.containsKey("displacements") && stats.containsKey("resizes"), stats.toString());
    assertTrue(r.out.contains("name,kind,key_bits,size,capacity,slots,load_factor,bytes\nt,cpu,32,12,"), r.out);
    assertTrue(r.out.contains("op,n,median_ms,mops_per_s\nfind_present,1000,"), r.out);
    assertTrue(r.out.contains("erase_new,"), r.out);
    assertTrue(r.out.contains("Commands:") && r.out.contains("upsert") && r.out.contains("--skip-bad"), r.out);
    assertFalse(r.err.contains("never_reached"), "exit ends the session");
    assertEquals(Snapshot(12), Files.size(snap));
    assertFalse(r.err.contains("wixlib:"), "no command failed: " + r.err);
  }

  static long Snapshot(long n) {
    return org.wixlib.Snapshot.fileSize(n);
  }

  @Test
  void errorsAreReportedWithLineNumbersAndTheSessionGoesOn() throws IOException {
    Path bad = file("bad.csv", "1,10\n2,20\nthree,30\n4,40\n");
    Path cols = file("cols.csv", "1,10\n2\n");
    Path reserved = file("reserved.tsv", "5\n4294967295\n");
    Path odd = dir.resolve("odd.i32");
    Files.write(odd, new byte[] {1, 0, 0, 0, 2, 0});
    Path big = ints("big.i64", 8, 7, 1L << 40);
    Path snap = dir.resolve("s.wxs");
    Path corrupt = dir.resolve("corrupt.wxs");
    Path truncated = dir.resolve("truncated.wxs");
    Path foreign = file("foreign.wxs", "this is not a snapshot at all, just text...........................");
    String script = String.join("\n",
        "create t --kind cpu",                    // 1
        "insert t 1=1 2=2",                       // 2
        "find nope 1",                            // 3 unknown table
        "insert t --from " + bad,                 // 4 bad line 3, nothing applied
        "insert t --from " + bad + " --skip-bad", // 5 applies 1, 2 (present), 4
        "insert t --from " + cols,                // 6 column count
        "insert t --from " + reserved,            // 7 reserved key
        "insert t --from " + odd,                 // 8 partial record
        "insert t --from " + big,                 // 9 does not fit
        "insert t --from " + dir.resolve("missing.csv"), // 10 no such file
        "resize t 1",                             // 11 below size
        "save t " + snap,                         // 12
        "load " + corrupt + " as c",              // 13 corrupt snapshot
        "load " + truncated + " as c",            // 14 truncated
        "load " + foreign + " as c",              // 15 foreign
        "load " + snap + " as t",                 // 16 name taken
        "create t",                               // 17 name taken
        "bogus 1 2",                              // 18 unknown command
        "create x --kind nosuch",                 // 19 bad option value
        "upsert t 7",                             // 20 upsert without values
        "find t 'unterminated",                   // 21 bad quoting
        "tables",                                 // 22
        "stats t");                               // 23
    // corrupt/truncated copies of a good snapshot, made before the shell runs
    try (ShellDriver.Direct d = new ShellDriver.Direct()) {
      d.ok("create g --kind cpu; insert g 1=1 2=2 3=3; save g " + snap);
    }
    byte[] good = Files.readAllBytes(snap);
    byte[] c = good.clone();
    c[60] ^= 1;
    Files.write(corrupt, c);
    Files.write(truncated, java.util.Arrays.copyOf(good, good.length - 5));
    Cli r = ShellDriver.shell(script + "\n");
    assertEquals(1, r.code, "the first failure's code: " + r);
    String e = r.err;
    assertTrue(e.contains("line 3: unknown table 'nope' (tables: t)"), e);
    assertTrue(e.contains("line 4: " + bad + ": line 3: 'three' is not a 32-bit key; nothing from the file was applied"), e);
    assertTrue(e.contains("skipped 1 bad line of " + bad + " (first: line 3:"), e);
    assertTrue(e.contains("t: 1 inserted, 2 already present; size 3"), "4 added, 1 and 2 present: " + e);
    assertTrue(e.contains("line 6: " + cols + ": line 2: 1 column where the file has 2"), e);
    assertTrue(e.contains("line 7: " + reserved + ": line 2: key 4294967295 is reserved"), e);
    assertTrue(e.contains("line 8: " + odd + ": 6 bytes is not a whole number of 4-byte i32 records"), e);
    assertTrue(e.contains("line 9: " + big + ": record 2: key 1099511627776 does not fit 32 bits"), e);
    assertTrue(e.contains("line 10: " + dir.resolve("missing.csv") + ": no such file"), e);
    assertTrue(e.contains("line 11: t holds 3 keys; cannot resize it to 1"), e);
    assertTrue(e.contains("line 13: " + corrupt + ": corrupt: checksum mismatch"), e);
    assertTrue(e.contains("line 14: " + truncated + ": truncated"), e);
    assertTrue(e.contains("line 15: " + foreign + ": not a wixlib snapshot"), e);
    assertTrue(e.contains("line 16: table 't' exists already"), e);
    assertTrue(e.contains("line 17: table 't' exists already"), e);
    assertTrue(e.contains("line 18: unknown command 'bogus'"), e);
    assertTrue(e.contains("line 19: Invalid value for option '--kind'"), e);
    assertTrue(e.contains("line 20: upsert needs values"), e);
    assertTrue(e.contains("line 21: unterminated ' quote"), e);
    assertTrue(r.out.contains("t     cpu         32     3"), "the failed loads left t alone and added no table: " + r.out);
    assertFalse(r.out.contains("\nc "), r.out);
    assertTrue(e.contains("wixlib: 17 commands failed"), e);
  }

  @Test
  void sixtyFourBitKeysThroughEveryCommand() throws IOException {
    Path pairs = ints("p.i64kv", 8, 1L << 40, -7, -5, 1L << 33, 0xFFFFFFFFL, 9);
    Path keys32 = ints("k.i32", 4, -3, 12);
    Path out = dir.resolve("found.i64kv");
    Path csv = dir.resolve("found.csv");
    Path snap = dir.resolve("w.wxs");
    String session = String.join("\n",
        "create w --kind cpu --key-bits 64",
        "insert w 4294967296=5 -5=-7 18446744073709551613=0xFFFFFFFFFF",
        "insert w --from " + pairs,
        "insert w --from " + keys32,
        "upsert w -5=11",
        "find w 4294967296 -5 -3 1099511627776 0xFFFFFFFF 3",
        "contains w 4294967296 4",
        "find w 1099511627776 0xFFFFFFFF 77 --to " + out,
        "find w 4294967296 77 --to " + csv,
        "erase w 12 13",
        "stats w --format json",
        "save w " + snap,
        "load " + snap + " as v",
        "find v -3 -5",
        "insert w --random 1000 --seed 5",
        "bench w -n 500 --reps 1 --format csv",
        "find w 0xFFFFFFFFFFFFFFFF");
    Cli r = ShellDriver.shell(session + "\n");
    assertEquals(1, r.code, "only the reserved key fails: " + r);
    assertTrue(r.out.contains("4294967296\t5\n-5\t11\n-3\t1099511627775\n1099511627776\t-7\n4294967295\t9\n3\t-\n"),
        r.toString());
    assertTrue(r.out.contains("4294967296\ttrue\n4\tfalse\n"), r.out);
    // i64kv: the pairs of the keys found, 64 bits each
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(32, b.capacity());
    assertEquals(1L << 40, b.getLong());
    assertEquals(-7, b.getLong());
    assertEquals(0xFFFFFFFFL, b.getLong());
    assertEquals(9, b.getLong());
    assertEquals("key,value\n4294967296,5\n77,\n", Files.readString(csv));
    assertTrue(r.err.contains("w: 1 erased, 1 absent; size 5"), r.err);
    assertTrue(r.out.contains("\"key_bits\": 64"), r.out);
    assertTrue(r.out.contains("-3\t1099511627775\n-5\t11\n"), "the loaded copy: " + r.out);
    assertTrue(r.out.contains("find_present,500,") && r.out.contains("erase_new,"), r.out);
    assertTrue(r.err.contains("key 0xFFFFFFFFFFFFFFFF is reserved (0xFFFFFFFFFFFFFFFF and 0xFFFFFFFFFFFFFFFE)"), r.err);
    assertTrue(r.err.contains("line 17: key 0xFFFFFFFFFFFFFFFF is reserved"), r.err);
  }

  @Test
  void int32FilesAreFor32BitTables() {
    Path out = dir.resolve("v.i32");
    Cli r = ShellDriver.shell("create w --kind cpu --key-bits 64\ninsert w 1=2\nfind w 1 --to " + out + "\n");
    assertEquals(1, r.code, r.toString());
    assertTrue(r.err.contains("i32 holds 32-bit numbers, the table's are 64-bit; write i64 or i64kv"), r.err);
  }

  @Test
  void unusableKindIsExitCodeThree() {
    org.junit.jupiter.api.Assumptions.assumeFalse(org.wixlib.Wixlib.isAvailable(org.wixlib.TableKind.HIVE),
        "hive is usable here");
    Cli r = ShellDriver.shell("create h --kind hive\n");
    assertEquals(3, r.code, r.toString());
    assertTrue(r.err.contains("kind hive is not available here"), r.err);
  }
}
