package org.wixlib.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.wixlib.cli.Cli;
import org.wixlib.cli.HeapTooSmallException;

/** A benchmark larger than the heap ends with one clear sentence and exit 1, before it allocates. */
class HeapCheckTest {
  @Test
  void keysBeyondTheHeapEndWithAClearError() {
    long n = 1L << 30; // inside --keys' range
    assumeTrue(BenchCommand.heapBytes(n, 32, 0, 0, false) > Runtime.getRuntime().maxMemory(),
        "this JVM's heap holds 2^30 keys: nothing to refuse");
    long before = System.nanoTime();
    Cli r = Cli.run("bench", "--kind", "cpu", "--keys", "2^30");
    assertEquals(1, r.code, r.toString());
    assertTrue(r.err.contains("wixlib: --keys 2^30 (1073741824) needs about 34.0 GiB of Java heap"), r.err);
    assertTrue(r.err.contains("-Xmx"), r.err);
    assertFalse(r.err.contains("OutOfMemoryError") || r.err.contains("\tat "), "no stack trace: " + r.err);
    assertFalse(r.err.contains("run with -v"), r.err);
    assertTrue(r.out.isEmpty(), r.out);
    assertTrue(System.nanoTime() - before < 20_000_000_000L, "refused before generating keys");
  }

  @Test
  void theNeedCountsEveryArray() {
    assertEquals(34L << 20, BenchCommand.heapBytes(1 << 20, 32, 0, 0, false));
    assertEquals(78L << 20, BenchCommand.heapBytes(1 << 20, 64, 0, 0, false));
    assertEquals((34L + 2 * 9 + 11) * 1000 + 2 * 4 * 500, BenchCommand.heapBytes(1000, 32, 2, 1000, false));
    HeapTooSmallException e = assertThrows(HeapTooSmallException.class,
        () -> HeapTooSmallException.check(Runtime.getRuntime().maxMemory(), "a run", "Ask for less"));
    assertTrue(e.getMessage().startsWith("a run needs about ") && e.getMessage().contains("Ask for less, or raise"),
        e.getMessage());
    HeapTooSmallException.check(1 << 20, "a small run", ""); // fits: no exception
  }
}
