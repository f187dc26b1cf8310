package org.wixlib.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** --quiet: the data on stdout as without it, nothing on stderr but errors. */
class QuietTest {
  @Test
  void benchAndVerifyPrintNoProgress() {
    String[][] runs = {
      {"bench", "--kind", "cpu", "--keys", "2^12", "--reps", "1", "--warmup", "0", "--quiet"},
      {"verify", "--kind", "cpu", "--ops", "20000", "--quiet"},
    };
    for (String[] args : runs) {
      Cli r = Cli.run(args);
      assertEquals(0, r.code, r.toString());
      assertEquals("", r.err, String.join(" ", args));
      assertTrue(!r.out.isEmpty(), "the data still comes: " + r);
      assertTrue(!Cli.run(java.util.Arrays.copyOf(args, args.length - 1)).err.isEmpty(), "without --quiet there is progress");
    }
  }

  @Test
  void sessionCommandsPrintNoMessagesButErrors() {
    Cli r = Cli.run("--quiet", "-c", "create t --kind cpu; insert t 1=10; find t 1");
    assertEquals(0, r.code, r.toString());
    assertEquals("1\t10\n", r.out);
    assertEquals("", r.err);
    Cli failed = Cli.run("--quiet", "-c", "create t --kind cpu; find nope 1");
    assertEquals(1, failed.code);
    assertTrue(failed.err.contains("unknown table 'nope'"), "errors still show: " + failed.err);
  }
}
