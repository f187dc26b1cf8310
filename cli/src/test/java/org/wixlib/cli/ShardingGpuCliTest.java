package org.wixlib.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;
import org.wixlib.cli.report.Json;

/** --shards and --devices on the GPU kinds: skipped visibly without a GPU (or without two, for --devices). */
class ShardingGpuCliTest {
  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void verifyPassesOnThreeShardsOfOneDevice(TableKind kind) {
    Cli.assumeKind(kind);
    Cli r = Cli.run("verify", "--kind", Texts.kindName(kind), "--shards", "3", "--ops", "2^20", "--batch", "2^15",
        "--hot-fraction", "0.3", "--resize-every", "4", "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertEquals("PASS", o.get("result"));
    assertEquals("3 shards on device 0", o.get("layout"));
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void verifyPassesOverTwoDevices(TableKind kind) {
    Cli.assumeKind(kind);
    Assumptions.assumeTrue(Wixlib.devices().size() >= 2, "needs two GPUs: skipped");
    Cli r = Cli.run("verify", "--kind", Texts.kindName(kind), "--devices", "0,1", "--ops", "2^20", "--batch", "2^15",
        "--format", "json");
    assertEquals(0, r.code, r.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> o = (Map<String, Object>) Json.read(r.out);
    assertEquals("PASS", o.get("result"));
    assertEquals("2 shards on devices 0,1", o.get("layout"));
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void benchReportsScalingOverTwoDevices(TableKind kind) {
    Cli.assumeKind(kind);
    Assumptions.assumeTrue(Wixlib.devices().size() >= 2, "needs two GPUs: skipped");
    Cli r = Cli.run("bench", "--kind", Texts.kindName(kind), "--devices", "0,1", "--keys", "2^18", "--reps", "2",
        "--memory", "heap,device", "--format", "csv");
    assertEquals(0, r.code, r.toString());
    List<String[]> rows = CliTest.csvRows(r.out);
    assertEquals(ShardingCliTest.SHARDED_COLUMNS, List.of(rows.get(0)));
    assertEquals(1 + 2 * 2 * 4, rows.size(), "two paths x four ops x two layouts: " + r.out);
    for (int i = 1; i < rows.size(); i += 2) {
      String[] one = rows.get(i);
      String[] all = rows.get(i + 1);
      assertEquals("0", one[3]);
      assertEquals("1", one[2]);
      assertEquals("", one[11], "no scaling on the one-device row");
      assertEquals("0,1", all[3]);
      assertEquals("2", all[2]);
      assertEquals(one[4], all[4], "same op");
      double scaling = Double.parseDouble(all[11]);
      assertEquals(Double.parseDouble(all[6]) / Double.parseDouble(one[6]), scaling, 0.02 * scaling);
    }
    assertTrue(r.err.contains("devices: device 0 = "), r.err);
    assertTrue(r.err.contains("links: device 0: h2d"), r.err);
  }

  @ParameterizedTest
  @EnumSource(value = TableKind.class, names = {"GLHT", "HIVE"})
  void devicesThatDoNotExistExitThree(TableKind kind) {
    Cli.assumeKind(kind);
    int count = Wixlib.devices().size();
    Cli r = Cli.run("verify", "--kind", Texts.kindName(kind), "--devices", "0," + count);
    assertEquals(ExitCodes.UNAVAILABLE, r.code, r.toString());
    assertTrue(r.err.contains("--devices: CUDA device " + count + " does not exist"), r.err);
  }
}
