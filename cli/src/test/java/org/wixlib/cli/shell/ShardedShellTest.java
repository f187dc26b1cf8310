package org.wixlib.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.wixlib.cli.Cli;
import org.wixlib.cli.report.Json;

/** The shell's create and load with --shards, and stats of a sharded table. */
class ShardedShellTest {
  @TempDir Path dir;

  @Test
  void shardedTablesThroughTheShell() {
    Path snap = dir.resolve("s.wxs");
    String session = String.join("\n",
        "create s --kind cpu --shards 3 --capacity 2^10",
        "insert s --random 3000 --seed 4",
        "insert s 7=70 8=80",
        "find s 7 8 9",
        "stats s --format json",
        "save s " + snap,
        "load " + snap + " as back",
        "load " + snap + " as two --shards 2",
        "create bad --kind cpu --shards 0",
        "exit");
    Cli r = ShellDriver.shell(session + "\n");
    assertTrue(r.err.contains("3 shards in host memory"), r.err);
    assertTrue(r.out.contains("7\t70\n8\t80\n9\t-\n"), r.out);
    int at = r.out.indexOf("{");
    @SuppressWarnings("unchecked")
    Map<String, Object> stats = (Map<String, Object>) Json.read(r.out.substring(at, r.out.indexOf("}", at) + 1));
    assertEquals(3, stats.get("shards"));
    List<?> each = (List<?>) stats.get("shard_sizes");
    assertEquals(3, each.size(), stats.toString());
    long sum = 0;
    for (Object e : each) {
      sum += Long.parseLong(((String) e).replaceFirst("^\\d+: (\\d+) keys.*", "$1"));
    }
    assertEquals(((Number) stats.get("size")).longValue(), sum, "the shards' keys add up to the table's");
    assertTrue(r.err.contains("back: 3002 pairs loaded from " + snap + " into a cpu table of 3 shards"), r.err);
    assertTrue(r.err.contains("two: 3002 pairs loaded from " + snap + " into a cpu table of 2 shards"), r.err);
    assertTrue(r.err.contains("--shards must be in [1, 256], got 0"), r.err);
  }
}
