package org.wixlib.cli.shell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.wixlib.cli.Cli;

/** Result files of find/contains --to, text parsing corners, and cancelling a chunked command. */
class ShellFilesTest {
  @TempDir Path dir;

  static int[] ints(byte[] b, int width) {
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int[] out = new int[b.length / width];
    for (int i = 0; i < out.length; i++) {
      out[i] = width == 4 ? bb.getInt() : (int) bb.getLong();
    }
    return out;
  }

  @Test
  void resultFilesInEveryFormat() throws IOException {
    Path keys = dir.resolve("k.txt");
    Files.writeString(keys, "id value\n1 100\n2 200\n3 300\n");
    try (ShellDriver.Direct d = new ShellDriver.Direct()) {
      d.ok("create t --kind cpu; insert t 1=10 3=-30");
      d.ok("find t --from " + keys + " --to " + dir.resolve("v.i32") + " --not-found 7");
      d.ok("find t --from " + keys + " --to " + dir.resolve("v.i64"));
      d.ok("find t --from " + keys + " --to " + dir.resolve("v.i32kv"));
      d.ok("contains t --from " + keys + " --to " + dir.resolve("c.csv"));
      d.ok("contains t 1 2 --to " + dir.resolve("c.bin"));
      d.ok("find t 3 --to " + dir.resolve("out.data") + " --to-format tsv");
      assertArrayEquals(new int[] {10, 7, -30}, ints(Files.readAllBytes(dir.resolve("v.i32")), 4));
      assertArrayEquals(new int[] {10, -1, -30}, ints(Files.readAllBytes(dir.resolve("v.i64")), 8));
      assertArrayEquals(new int[] {1, 10, 3, -30}, ints(Files.readAllBytes(dir.resolve("v.i32kv")), 4));
      assertEquals("key,present\n1,true\n2,false\n3,true\n", Files.readString(dir.resolve("c.csv")));
      assertArrayEquals(new int[] {1, 0}, ints(Files.readAllBytes(dir.resolve("c.bin")), 4));
      assertEquals("key\tvalue\n3\t-30\n", Files.readString(dir.resolve("out.data")));
      assertTrue(d.err.toString().contains("t: 2 of 3 found, written to"), d.err.toString());
      // the i32kv file reads back as pairs
      d.ok("create u --kind cpu; insert u --from " + dir.resolve("v.i32kv") + "; find u 1 3");
      assertTrue(d.out.toString().endsWith("1\t10\n3\t-30\n"), d.out.toString());
    }
  }

  @Test
  void unknownExtensionNeedsFormat() throws IOException {
    Path f = dir.resolve("keys.dat");
    Files.writeString(f, "1\n");
    Cli r = Cli.run("-c", "create t --kind cpu; insert t --from " + f);
    assertEquals(1, r.code, r.toString());
    assertTrue(r.err.contains("cannot tell the format from the extension; give --format"), r.err);
    Cli ok = Cli.run("-c", "create t --kind cpu; insert t --from " + f + " --format tsv; find t 1");
    assertEquals(0, ok.code, ok.toString());
    assertEquals("1\t0\n", ok.out);
  }

  @Test
  void ctrlCCancelsBetweenChunks() {
    try (Session s = new Session(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false)) {
      int[] calls = {0};
      ShellError e = assertThrows(ShellError.class, () -> Chunks.run(s, "insert t", 3 * Chunks.SIZE, (from, to) -> {
        calls[0]++;
        s.requestCancel(); // as the SIGINT handler does while the first chunk runs
      }));
      assertEquals(1, calls[0], "no chunk after the cancel");
      assertEquals("cancelled: insert t (" + Chunks.SIZE + " of " + 3 * Chunks.SIZE + " applied, the rest not)",
          e.getMessage());
      Chunks.run(s, "again", 10, (from, to) -> calls[0]++); // the flag was consumed
      assertEquals(2, calls[0]);
    }
  }
}
